// Where an IDA* search (STM) that stopped can be taken up again, and the token that carries it.
//
// A ResumePoint holds the cost bound the search was at, the smallest f above that bound it had
// seen, and a marker path such that every path before the marker in the search's order (the
// children of a node in direction order U, D, L, R, each subtree before the next) and not one of
// its prefixes was searched under that bound without a solution. Resuming searches the marker's
// subtree and every node after it at that bound, then the bounds above as usual. The first
// solution found is still optimal: every bound below was exhausted, and the first optimal path
// in (length, lexical) order, which no pruning automaton of loyd's removes
// (search/move_pruning.h) and no admissible heuristic cuts, lies at or after the marker. So a
// point stays sound under other tables, another heuristic, --no-prune or more threads; it is
// tied only to the instance as searched (board size, start and goal in the frame the heuristic
// works in: the tables' goal for PDBs).
//
// Token: "r1.B.N.PATH.KEY.CHECK", B the bound, N the next bound seen ('x' for none), PATH the
// marker in blank moves (U D L R; '-' when empty, at most kMaxResumePath moves), KEY 16 hex
// digits naming the instance as searched (resume_key), CHECK 16 hex digits over everything
// before it (XXH3), so a token copied wrongly is refused rather than used. Cost: a key hashes
// the two boards; parsing is linear in the token.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/geometry.h"

namespace loyd::search {

inline constexpr size_t kMaxResumePath = 1024;  // the IDA* kernel's deepest path

struct ResumePoint {
    int bound = 0;
    int next_bound = 1 << 30;  // kNoNextBound (search/result.h): none seen
    std::vector<board::Dir> path;
};

// The key of an instance as searched: start and goal on one board, in the heuristic's frame.
uint64_t resume_key(const board::Board& start, const board::Board& goal);

std::string resume_token(const ResumePoint& p, uint64_t key);

struct ResumeToken {
    uint64_t key = 0;
    ResumePoint point;
};

// UsageError naming the token (its first characters) when it is not one, or its check fails.
ResumeToken parse_resume_token(std::string_view token);

// Whether `text` holds something that starts like a token ("r1." then a digit).
bool looks_like_resume_token(std::string_view text);

// Every token in `text` (a run's earlier output, text or JSON): the words that start with r1.
// and a digit and stand last on a limit's text line after " resume ", as a JSON record's
// "resume" value, or alone on a line; UsageError as parse_resume_token for one that is damaged.
// Words elsewhere (in a label, a message) are not tokens.
std::vector<ResumeToken> find_resume_tokens(std::string_view text);

// Whether point a is further along its search than b (a higher bound, or at the same bound a
// later path in the search's order): of two points of one instance, a later run's.
bool further_along(const ResumePoint& a, const ResumePoint& b);

// The points a run may resume from, by key; of two for one key, the one further along is kept
// (so earlier outputs may be given in any order). find() and taken() are safe from several
// threads at once.
class ResumeBook {
public:
    void add(const ResumeToken& t);
    bool empty() const { return points_.empty(); }
    size_t size() const { return points_.size(); }
    const ResumePoint* find(uint64_t key) const;
    void taken(uint64_t key) const;           // the point of `key` was taken up by a search
    size_t unused() const;                    // points not taken up
    std::vector<ResumeToken> points() const;  // every point held, by key

private:
    struct Entry {
        ResumePoint point;
        mutable std::atomic<bool> used{false};  // (a map's entries never move)
    };
    std::map<uint64_t, Entry> points_;
};

}  // namespace loyd::search
