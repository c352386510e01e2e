#include "solver/ranks/split.h"

#include "loyd/base/error.h"
#include "loyd/board/solvability.h"
#include "loyd/search/split_protocol.h"
#include "loyd/tables/load.h"
#include "loyd/tables/manifest.h"
#include "solver/ranks/batch.h"

namespace loyd::solver {

namespace {

// FNV-1a of the set's manifest (its tables and their checksums).
uint64_t digest(const tables::LoadedSet& set) {
    uint64_t x = 0xcbf29ce484222325ull;
    for (unsigned char c : manifest_text(set.spec)) x = (x ^ c) * 0x100000001b3ull;
    return x;
}

// Every rank: the item's tables (`set`, or loaded from the item's folder), the same on every
// rank (collectives), then the search over all ranks. `agreed` is set when what it throws was
// thrown on every rank.
search::SolveOutcome search_together(RankRun& run, Tables& tables, const search::SolveOptions& base,
                                     const WorkItem& item, const tables::LoadedSet* set,
                                     bool& agreed) {
    base::Collective& world = run.world();
    agreed = true;
    world.agree_on([&] {
        try {
            if (!set && !item.pdb.empty()) set = tables.at(item.pdb);
        } catch (...) {  // the same error, naming this rank
            std::string message;
            const int code = base::error_code_of(std::current_exception(), message);
            base::throw_error_code(code, "rank " + std::to_string(run.rank()) + ": " + message);
        }
    });
    const uint64_t mine = set ? digest(*set) : 0;
    uint64_t seen[2] = {mine, ~mine};
    world.all_reduce(seen, 2, base::ReduceOp::Max);
    if (seen[0] != mine || seen[1] != ~mine)
        throw FormatError("the ranks hold different tables in " + item.pdb +
                          " (every rank must see the same set)");
    search::SplitProtocol protocol(world, kSplitTag, item.seq, run.threads(), run.total_threads());
    search::SolveOptions so = base;
    so.heuristic = item.heuristic;
    so.pdb = set;
    so.threads = run.threads();
    so.ranks = &protocol;
    search::SolveOutcome out;
    try {
        protocol.run([&] { out = solve(item.start, item.goal, so); });
    } catch (const UsageError&) {
        throw;  // from the instance: the same on every rank
    } catch (...) {
        agreed = protocol.failure_agreed();
        throw;
    }
    return out;
}

}  // namespace

void split_search(RankRun& run, Tables& tables, const search::SolveOptions& base, Task& t) {
    if (!t.error.empty() || !t.search || base.algorithm != search::Algorithm::Ida ||
        base.metric != board::Metric::Stm || !solvable(*t.start, *t.goal))
        return solve_task(base, t);
    const WorkItem item = work_item(t, run.next_seq());
    RankMessage m;
    m.kind = RankKind::Split;
    m.items = {item};
    for (int r = 1; r < run.size(); ++r) run.send(r, m);
    bool agreed = false;
    try {
        t.outcome = search_together(run, tables, base, item, t.pdb, agreed);
    } catch (const UsageError& e) {
        t.error = e.what();
    } catch (...) {
        if (agreed) run.idle();  // every rank is back waiting: the run can end normally
        throw;
    }
}

void follow_split(RankRun& run, Tables& tables, const search::SolveOptions& base,
                  const WorkItem& item) {
    bool agreed = false;
    try {
        search_together(run, tables, base, item, nullptr, agreed);
    } catch (const UsageError&) {
        // rank 0 makes the line invalid
    } catch (...) {
        if (!agreed) throw;  // rank 0 reports an error every rank shares
    }
}

}  // namespace loyd::solver
