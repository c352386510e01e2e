#include "solver/run/tables.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/self_path.h"
#include "loyd/tables/discover.h"
#include "loyd/tables/set_fit.h"
#include "program/numbers.h"

namespace loyd::solver {

namespace fs = std::filesystem;

namespace {
// The heuristic used without tables, in words.
std::string classic_words(board::Metric m) {
    return m == board::Metric::Mtm ? "walking distance" : "linear conflict";
}
}  // namespace

Tables::Tables(const Request& req, std::ostream& err) : req_(req), err_(err) {
    load_.cache_dir = req.cache_dir;
}

std::string local_pdbgen(std::string message) {
    static const std::string sibling = [] {
        const fs::path p = fs::path(base::self_executable_path()).parent_path() / "pdbgen";
        std::error_code ec;
        return fs::exists(p, ec) ? tables::shell_word(p.string()) : std::string();
    }();
    if (sibling.empty()) return message;
    const std::string key = "with: pdbgen ";
    for (size_t at = message.find(key); at != std::string::npos;
         at = message.find(key, at + 6 + sibling.size()))
        message.replace(at + 6, 6, sibling);
    return message;
}

namespace {
std::string goal_key(const board::Board& goal) {
    return goal.geometry().name() + ":" + goal.to_string();
}
}  // namespace

const tables::LoadedSet* Tables::for_goal(const board::Board& goal, bool required) {
    const std::string key = goal_key(goal);
    auto it = chosen_.find(key);
    if (it != chosen_.end()) return it->second;
    const tables::LoadedSet* s = choose(goal, required);
    chosen_[key] = s;
    return s;
}

const std::string* Tables::hint_for(const board::Board& goal) const {
    const auto it = hints_.find(goal_key(goal));
    return it == hints_.end() ? nullptr : &it->second;
}

void Tables::print_hint(const std::string* hint) const {
    if (!hint || hint == printed_now_ || req_.quiet) return;
    err_ << "solver: " << *hint << "\n";
}

void Tables::check_unchanged(const tables::LoadedSet* used) const {
    if (used != nullptr) check_not_rewritten(*used);
}

void Tables::check_loaded_unchanged() const {
    std::vector<const tables::LoadedSet*> sets;  // never removed while this object lives
    {
        const std::lock_guard<std::mutex> lock(loaded_mu_);
        for (const auto& [path, set] : loaded_) sets.push_back(set.get());
    }
    for (const tables::LoadedSet* s : sets) check_not_rewritten(*s);
}

const tables::LoadedSet* Tables::load(const std::string& path) {
    {
        const std::lock_guard<std::mutex> lock(loaded_mu_);
        if (auto it = loaded_.find(path); it != loaded_.end()) return it->second.get();
    }
    auto s = std::make_unique<tables::LoadedSet>(load_set(path, load_));  // (one reader at once)
    load_seconds_ += s->load_seconds;
    const std::lock_guard<std::mutex> lock(loaded_mu_);
    return (loaded_[path] = std::move(s)).get();
}

namespace {
// What leaving out --pdb would give for `goal` (the given set's: the instances are not read
// yet, so it is said to be for that board and goal) in metric `m`: the set discovery finds, or,
// with none found, the command that builds one.
std::string without_pdb(const board::Board& goal, board::Metric m) {
    const std::optional<tables::FoundSet> found = tables::find_best_set(
        tables::default_pdb_dirs(base::self_executable_path()), goal, nullptr, m);
    if (found)
        return "for " + goal.geometry().name() + " boards with the goal of those tables, the " +
               "solver then uses the " + found->spec.name + " tables in " +
               fs::path(found->manifest).parent_path().string();
    return "the solver finds " + board::to_string(m) +
           " tables itself; build some with: " + tables::suggest_build_command(goal, m);
}
}  // namespace

void Tables::check_metric() {
    if (req_.pdb.empty()) return;
    const tables::LoadedSet* s = load(req_.pdb);
    if (s->spec.metric != req_.metric)  // the user's remedies first: their metric, or discovery
        throw UsageError(local_pdbgen(
            tables::misfit_message(tables::SetMisfit::Metric, s->spec, "the tables in " + req_.pdb,
                                   s->spec.goal, req_.metric,
                                   "add --metric " + board::to_string(s->spec.metric) +
                                       " to search in theirs, or leave out --pdb (" +
                                       without_pdb(s->spec.goal, req_.metric) + ")")));
}

std::string Tables::misfit(const board::Board& goal) {
    if (req_.pdb.empty()) return "";
    check_metric();
    const tables::LoadedSet* s = load(req_.pdb);
    const tables::SetMisfit why = loyd::tables::misfit(s->spec, goal, req_.metric);
    // An unmappable goal is reported by solve(), naming the set's folder.
    return why == tables::SetMisfit::Board
               ? misfit_message(why, s->spec, req_.pdb, goal, req_.metric)
               : "";
}

const tables::LoadedSet* Tables::choose(const board::Board& goal, bool required) {
    if (!req_.pdb.empty()) {
        if (const std::string why = misfit(goal); !why.empty()) throw UsageError(why);
        return load(req_.pdb);
    }
    std::vector<std::string> notes;
    const std::vector<tables::FoundSet> found = tables::find_sets(
        tables::default_pdb_dirs(base::self_executable_path()), goal, &notes, req_.metric);
    for (const auto& n : notes) err_ << "solver: " << n << "\n";
    if (found.empty()) {
        if (required)
            throw UsageError(local_pdbgen(
                "no pattern databases found for goal '" + goal.to_string() + "' on " +
                goal.geometry().name() +
                "; build them with: " + tables::suggest_build_command(goal, req_.metric)));
        hint(goal, "no pattern databases found for " + goal.geometry().name() + "; used " +
                       classic_words(req_.metric));
        notice_now(goal);
        return nullptr;
    }
    // Strongest first; a set that fails to load (damaged, unreadable) gives way to the next.
    for (size_t i = 0; i < found.size(); ++i) {
        try {
            const tables::LoadedSet* s = load(found[i].manifest);
            if (tables::falls_short_of_suggestion(s->spec, goal, req_.metric))
                hint(goal, "used the " + s->spec.name + " tables from " + s->dir, s);
            return s;
        } catch (const Error& e) {
            if (required && i + 1 == found.size()) throw;
            err_ << "solver: not using " << found[i].manifest << ": " << e.what() << "; using "
                 << (i + 1 < found.size() ? "the next set found, " + found[i + 1].manifest
                                          : classic_words(req_.metric))
                 << "\n";
        }
    }
    return nullptr;
}

void Tables::notice_now(const board::Board& goal) {
    const std::string* hint = hint_for(goal);
    if (!hint || printed_now_ || req_.quiet || goal.cells() <= 16 || !isatty(STDERR_FILENO)) return;
    err_ << "solver: " << *hint << "\n"
         << "solver: without tables a random " << goal.geometry().name()
         << " board can take hours or days; searching anyway (Ctrl-C stops with the bound "
            "reached)\n";
    printed_now_ = hint;
}

void Tables::hint(const board::Board& goal, const std::string& what,
                  const tables::LoadedSet* have) {
    if (goal.cells() <= 6 || hints_.count(goal_key(goal))) return;
    std::optional<tables::BuiltSet> built;
    if (have) built.emplace(tables::BuiltSet{have->spec, have->dir});
    const tables::BuiltSet* b = built ? &*built : nullptr;
    int shared = 0;
    const tables::BuildCost c = tables::suggest_build_cost(goal, req_.metric, b, &shared);
    if (shared && c.entries == 0) return;  // the set used holds every suggested table
    const std::string cmd =
        local_pdbgen("with: " + tables::suggest_build_command(goal, req_.metric, b)).substr(6);
    std::ostringstream os;
    const std::string time =
        c.minutes < 1 ? "under a minute"
                      : "about " + std::to_string(static_cast<long>(std::ceil(c.minutes))) + " min";
    os << what << "; for faster solving build tables (" << time << " on 2 cores, "
       << program::bytes(c.peak_bytes) << " of memory, up to " << program::bytes(c.disk_bytes)
       << " on disk"
       << (shared ? ", reusing " + std::to_string(shared) + (shared == 1 ? " table" : " tables") +
                        " of the set in " + have->dir
                  : std::string())
       << "): " << cmd;
    hints_[goal_key(goal)] = os.str();
}

}  // namespace loyd::solver
