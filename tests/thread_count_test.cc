// Thread counts (base/thread_count.h): the CPUs of the affinity mask, a request capped to
// them, and no more workers than chunks of work.
#include "loyd/base/thread_count.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <thread>

#include "loyd/base/error.h"
#include "loyd/board/board.h"
#include "loyd/search/solve.h"
#include "loyd/search/solve_batch.h"
#include "loyd/tables/build.h"
#include "loyd/tables/pattern.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

// More than 1,024 threads asked of the library is a UsageError naming the option (10 million
// threads allocated a worker each, then threw std::bad_alloc).
TEST(ThreadCount, ARequestAboveTheMostIsRefused) {
    EXPECT_NO_THROW(base::check_thread_request(base::kMaxThreads, "x"));
    EXPECT_NO_THROW(base::check_thread_request(0, "x"));
    EXPECT_EQ(test::error_of<UsageError>([] { base::check_thread_request(1025, "opt"); }),
              "opt is 1025: at most 1024 threads");
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    search::SolveOptions o;
    o.threads = 10'000'000;
    EXPECT_THROW(search::solve(goal, goal, o), UsageError);
    EXPECT_THROW(search::batch_threads(2000), UsageError);
    tables::BuildOptions bo;
    bo.threads = 5000;
    EXPECT_THROW(
        tables::build_table(tables::Pattern(goal, {1, 2}, tables::PatternKind::Additive), bo),
        UsageError);
}

TEST(ThreadCount, CapsARequestAtTheCpus) {
    EXPECT_EQ(base::cap_threads(0, 2).threads, 2);  // 0: one per CPU
    EXPECT_FALSE(base::cap_threads(0, 2).capped);
    EXPECT_EQ(base::cap_threads(1, 2).threads, 1);
    EXPECT_FALSE(base::cap_threads(1, 2).capped);
    EXPECT_EQ(base::cap_threads(2, 2).threads, 2);
    EXPECT_FALSE(base::cap_threads(2, 2).capped);
    EXPECT_EQ(base::cap_threads(1024, 2).threads, 2);
    EXPECT_TRUE(base::cap_threads(1024, 2).capped);
    EXPECT_EQ(base::cap_threads(3, 1).threads, 1);
    EXPECT_TRUE(base::cap_threads(3, 1).capped);
    EXPECT_EQ(base::cap_threads(64, 128).threads, 64);
    EXPECT_FALSE(base::cap_threads(64, 128).capped);
    EXPECT_EQ(base::cap_threads(5, 0).threads, 1);  // no CPU known: one
}

TEST(ThreadCount, NoMoreWorkersThanChunks) {
    EXPECT_EQ(base::workers_for(0, 16384, 8), 1);
    EXPECT_EQ(base::workers_for(1, 16384, 1024), 1);
    EXPECT_EQ(base::workers_for(6048, 16384, 1024), 1);  // the 8-4-4 tables: one chunk
    EXPECT_EQ(base::workers_for(16384, 16384, 1024), 1);
    EXPECT_EQ(base::workers_for(16385, 16384, 1024), 2);
    EXPECT_EQ(base::workers_for(3 * 16384 + 1, 16384, 8), 4);
    EXPECT_EQ(base::workers_for(uint64_t{1} << 40, 16384, 8), 8);
    EXPECT_EQ(base::workers_for(uint64_t{1} << 40, 1, 1024), 1024);
    EXPECT_EQ(base::workers_for(100, 1, 0), 1);
    EXPECT_EQ(base::workers_for(~uint64_t{0}, 1 << 14, 3), 3);
}

// The mask of the calling thread: a thread allowed on one CPU sees one, however many the
// machine has.
TEST(ThreadCount, UsableCpusFollowTheAffinityMask) {
    cpu_set_t all;
    ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
    EXPECT_EQ(base::usable_cpus(), CPU_COUNT(&all));
    EXPECT_GE(base::usable_cpus(), 1);
    int first = 0;
    while (!CPU_ISSET(first, &all)) ++first;
    int seen = 0;
    std::thread t([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        if (sched_setaffinity(0, sizeof one, &one) == 0) seen = base::usable_cpus();
    });
    t.join();
    EXPECT_EQ(seen, 1);
}

}  // namespace
}  // namespace loyd
