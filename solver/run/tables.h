// The solver's pattern-database sets: chosen and loaded once per board and goal, shared by
// every instance of a run, and the "build better tables" hint printed once at its end.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include "loyd/board/board.h"
#include "loyd/tables/load.h"
#include "solver/request.h"

namespace loyd::solver {

// `message` with each build command it suggests ("with: pdbgen ...") starting with the pdbgen
// beside this solver when there is one, so the command runs as printed, as the hint's does.
std::string local_pdbgen(std::string message);

class Tables {
public:
    Tables(const Request& req, std::ostream& err);

    // The set to use for this goal, or null (classic heuristic). Throws for an explicit --pdb
    // that cannot be loaded or does not fit, and, when `required`, when none is found.
    const tables::LoadedSet* for_goal(const board::Board& goal, bool required);
    // Why the explicit --pdb set cannot serve this goal's board ("the tables in ... are for
    // 3x3 boards, ..."), or "" when it can or there is no --pdb: a line the set does not fit
    // is an invalid line, like a goal the set cannot map. Throws UsageError when the set
    // counts another metric than the run (no line could use it), and what loading throws.
    std::string misfit(const board::Board& goal);
    // With --pdb: loads the set and throws UsageError when it counts another metric than the
    // run (a batch calls it before reading any line). Without --pdb: nothing.
    void check_metric();
    // The set in `path` (a folder or manifest), loaded once: what another rank chose.
    const tables::LoadedSet* at(const std::string& path) { return load(path); }
    double load_seconds() const { return load_seconds_; }
    // Throws IoError when a table of `used` (null: none) was rewritten in place since it was
    // loaded (tables/load.h check_not_rewritten): its answer may rest on entries that were never
    // verified. Called before each answer is printed, from the printing thread, so every answer
    // printed was checked after its search ended: one stat per table, about 2 % of a batch of
    // 8-puzzle lines (12 us each; docs/benchmarks.md).
    void check_unchanged(const tables::LoadedSet* used) const;
    // The same for every set loaded so far, while searches run on them (a search on entries
    // rewritten under it may never end). Any thread, while other threads load sets.
    void check_loaded_unchanged() const;

    // The "build better tables" hint for this goal's board and goal (null: none, when its
    // tables are the suggested ones or it has six cells or fewer), made when for_goal() chose
    // its tables. The command starts with the pdbgen beside this solver when there is one, so it
    // runs as printed. The text stays put for the Tables' life.
    const std::string* hint_for(const board::Board& goal) const;
    // Prints `hint` (null: nothing), once at the end of a run: the hint of the first instance
    // whose search took a second or more or hit a limit, i.e. where tables would have helped.
    // (On a terminal, a board of more than 16 cells without tables gets its hint at the start
    // instead, and not again.) -q silences it.
    void print_hint(const std::string* hint) const;

private:
    const tables::LoadedSet* load(const std::string& path);
    const tables::LoadedSet* choose(const board::Board& goal, bool required);
    // The hint for `goal`: `what` was used, and the command that builds the suggested set (its
    // tables that `have`, the set used, holds are reused, not built or counted in the cost).
    void hint(const board::Board& goal, const std::string& what,
              const tables::LoadedSet* have = nullptr);
    // On a terminal, for a board of more than 16 cells without tables: the hint at once, with
    // what waiting means, since such a search may run for hours (printed once; -q silences it).
    void notice_now(const board::Board& goal);

    const Request& req_;
    std::ostream& err_;
    std::map<std::string, std::string> hints_;  // by goal_key()
    const std::string* printed_now_ = nullptr;  // by notice_now: not again at the end
    tables::LoadOptions load_;
    std::map<std::string, std::unique_ptr<tables::LoadedSet>> loaded_;  // under loaded_mu_
    mutable std::mutex loaded_mu_;  // check_loaded_unchanged runs beside loads
    std::map<std::string, const tables::LoadedSet*> chosen_;
    double load_seconds_ = 0;
};

}  // namespace loyd::solver
