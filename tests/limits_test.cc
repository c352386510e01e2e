// The limits object every search checks (search/limits.h) and the stop reasons it gives
// (search/stop_reason.h):
// - the node limit at exactly max_nodes, the cancel flag and the time limit, in that order;
// - the check interval, capped by a small node limit;
// - progress: due every progress_every seconds at a reporting check, never at a check that
//   stops or does not report, progress_due() counting as a report, report() always;
// - concurrent checks from several threads agree;
// - every StopReason's words (the programs' output) and its byte, and no reason for a byte
//   beyond the last.
#include "loyd/search/limits.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "loyd/search/stop_reason.h"

namespace loyd {
namespace {

TEST(Limiter, NodeLimitAtExactlyMaxNodes) {
    search::SearchLimits l;
    l.max_nodes = 1000;
    search::Limiter lim(l);
    EXPECT_EQ(lim.check(999, 0, true), search::StopReason::None);
    EXPECT_EQ(lim.check(1000, 0, true), search::StopReason::NodeLimit);
    EXPECT_EQ(lim.check(5000, 0, false), search::StopReason::NodeLimit);
    EXPECT_FALSE(lim.node_limit_reached(999));
    EXPECT_TRUE(lim.node_limit_reached(1000));
    EXPECT_FALSE(search::Limiter().node_limit_reached(UINT64_MAX));  // 0 = no limit
    EXPECT_EQ(search::Limiter().check(UINT64_MAX, 0, true), search::StopReason::None);
}

TEST(Limiter, NodesThenCancelThenTime) {
    std::atomic<bool> cancel{true};
    search::SearchLimits l;
    l.max_nodes = 10;
    l.cancel = &cancel;
    l.max_seconds = 1e-9;
    search::Limiter lim(l);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(lim.check(10, 0, false), search::StopReason::NodeLimit);
    EXPECT_EQ(lim.check(9, 0, false), search::StopReason::Cancelled);
    cancel = false;
    EXPECT_EQ(lim.check(9, 0, false), search::StopReason::TimeLimit);
    l.max_seconds = 3600;
    EXPECT_EQ(search::Limiter(l).check(9, 0, false), search::StopReason::None);
    cancel = true;
    EXPECT_EQ(search::Limiter(l).check(9, 0, false), search::StopReason::Cancelled);
}

TEST(Limiter, IntervalCappedByASmallNodeLimit) {
    EXPECT_EQ(search::Limiter().interval(), search::Limiter::kCheckEvery);
    EXPECT_EQ(search::Limiter::kCheckEvery, 65536u);
    search::SearchLimits l;
    l.max_nodes = 1000;
    EXPECT_EQ(search::Limiter(l).interval(), 1000u);
    EXPECT_EQ(search::Limiter(l, 100).interval(), 100u);
    l.max_nodes = 1u << 20;
    EXPECT_EQ(search::Limiter(l).interval(), search::Limiter::kCheckEvery);
    EXPECT_EQ(search::Limiter(search::SearchLimits{}, 4096).interval(), 4096u);
}

TEST(Limiter, ProgressAtReportingChecksOnly) {
    std::vector<search::SearchProgress> seen;
    search::SearchLimits l;
    l.progress = [&](const search::SearchProgress& p) { seen.push_back(p); };
    l.progress_every = 0;  // due at every reporting check
    l.max_nodes = 100;
    search::Limiter lim(l);
    EXPECT_EQ(lim.check(7, 42, true), search::StopReason::None);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].bound, 42);
    EXPECT_EQ(seen[0].nodes_generated, 7u);
    EXPECT_GE(seen[0].seconds, 0.0);
    lim.check(8, 42, false);  // not the reporting thread
    EXPECT_EQ(seen.size(), 1u);
    EXPECT_EQ(lim.check(100, 43, true), search::StopReason::NodeLimit);  // stopped: no report
    EXPECT_EQ(seen.size(), 1u);
    lim.report(44, 9);  // a new bound: always
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[1].bound, 44);
    EXPECT_EQ(seen[1].nodes_generated, 9u);
}

TEST(Limiter, ProgressEveryGivenSeconds) {
    int calls = 0;
    search::SearchLimits l;
    l.progress = [&](const search::SearchProgress&) { ++calls; };
    l.progress_every = 3600;
    search::Limiter lim(l);
    for (int i = 0; i < 100; ++i) lim.check(static_cast<uint64_t>(i), 1, true);
    EXPECT_EQ(calls, 0);  // not due within the hour
    EXPECT_FALSE(lim.progress_due(1, 5));
    l.progress_every = 0.25;  // (long enough that no preemption between the calls below ends it)
    search::Limiter soon(l);
    std::this_thread::sleep_for(std::chrono::milliseconds(260));
    const std::optional<search::SearchProgress> p = soon.progress_due(3, 5);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->bound, 3);
    EXPECT_EQ(p->nodes_generated, 5u);
    EXPECT_GE(p->seconds, 0.25);
    EXPECT_FALSE(soon.progress_due(3, 6));  // it counted as reported
    EXPECT_EQ(calls, 0);                    // progress_due leaves the call to its caller
    EXPECT_FALSE(search::Limiter().progress_due(1, 1));
    search::Limiter().report(1, 1);  // no progress function: nothing to call
}

TEST(Limiter, ChecksFromManyThreadsAgree) {
    std::atomic<bool> cancel{false};
    search::SearchLimits l;
    l.max_nodes = 1000;
    l.cancel = &cancel;
    search::Limiter lim(l);  // shared, as by the threads of one IDA* search
    std::atomic<int> nodes{0}, cancelled{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; ++t)
        ts.emplace_back([&, t] {
            for (uint64_t n = 0; n < 2000; ++n) {
                const search::StopReason why = lim.check(n, 0, false);
                if (n >= 1000) nodes += why == search::StopReason::NodeLimit;
                if (n < 1000 && t == 0 && n == 500) cancel = true;
                if (n < 1000 && why == search::StopReason::Cancelled) ++cancelled;
            }
        });
    for (auto& th : ts) th.join();
    EXPECT_EQ(nodes.load(), 4 * 1000);
    EXPECT_GE(cancelled.load(), 499);  // thread 0 at least, after it set the flag
}

TEST(StopReason, WordsOfEveryReason) {
    EXPECT_STREQ(stop_reason_text(search::StopReason::None), "");
    EXPECT_STREQ(stop_reason_text(search::StopReason::NodeLimit), "node limit");
    EXPECT_STREQ(stop_reason_text(search::StopReason::TimeLimit), "time limit");
    EXPECT_STREQ(stop_reason_text(search::StopReason::Cancelled), "cancelled");
    EXPECT_STREQ(stop_reason_text(search::StopReason::NoSolution),
                 "no solution (start not solvable)");
    EXPECT_STREQ(stop_reason_text(search::StopReason::Interrupted), "interrupted");
    EXPECT_STREQ(stop_reason_text(search::StopReason::OutOfMemory), "out of memory");
    EXPECT_EQ(search::kLastStopReason, search::StopReason::OutOfMemory);
}

TEST(StopReason, EveryByteRoundTripsAndNoneBeyond) {
    // The numbers are the message format (docs/design.md): fixed.
    EXPECT_EQ(static_cast<int>(search::StopReason::None), 0);
    EXPECT_EQ(static_cast<int>(search::StopReason::NodeLimit), 1);
    EXPECT_EQ(static_cast<int>(search::StopReason::TimeLimit), 2);
    EXPECT_EQ(static_cast<int>(search::StopReason::Cancelled), 3);
    EXPECT_EQ(static_cast<int>(search::StopReason::NoSolution), 4);
    EXPECT_EQ(static_cast<int>(search::StopReason::Interrupted), 5);
    EXPECT_EQ(static_cast<int>(search::StopReason::OutOfMemory), 6);
    for (int b = 0; b < 256; ++b) {
        const std::optional<search::StopReason> r =
            search::stop_reason_from_byte(static_cast<uint8_t>(b));
        if (b <= static_cast<int>(search::kLastStopReason)) {
            ASSERT_TRUE(r) << b;
            EXPECT_EQ(static_cast<int>(*r), b);
        } else {
            EXPECT_FALSE(r) << b;
        }
    }
}

}  // namespace
}  // namespace loyd
