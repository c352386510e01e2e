#include "py_tables.h"

#include <dlfcn.h>
#include <pthread.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>

#include "errors.h"
#include "loyd/base/error.h"
#include "loyd/base/file_identity.h"
#include "loyd/search/solve.h"
#include "loyd/tables/discover.h"
#include "loyd/tables/set_fit.h"
#include "loyd/tables/set_path.h"
#include "py_board.h"
#include "py_search.h"

#ifndef LOYD_PY_TO_BIN  // set by CMake: the module's folder -> <prefix>/bin, in the install layout
#define LOYD_PY_TO_BIN "../../../../bin"
#endif

namespace loyd::python {

using namespace pybind11::literals;
namespace fs = std::filesystem;

namespace {

// A path inside <prefix>/bin of the installation (or build tree) the module belongs to: what
// tables/discover.h takes as the running program, so a moved prefix still finds its tables.
const char kAnchor = 0;  // an object of this module, for dladdr

std::string module_program() {
    Dl_info info{};
    if (!dladdr(&kAnchor, &info) || !info.dli_fname) return "";
    std::error_code ec;
    const fs::path self = fs::canonical(info.dli_fname, ec);
    if (ec) return "";
    return (self.parent_path() / LOYD_PY_TO_BIN / "python").lexically_normal().string();
}

// Which file a manifest is now (device, inode, size, modification time), or all zeros when it
// cannot be read: a set whose manifest is not the one loaded (a folder replaced, a set rebuilt
// or re-encoded: pdbgen renames a new manifest into place) is loaded again, not served from
// what this process holds.
using ManifestId = base::FileIdentity;
ManifestId manifest_id(const std::string& manifest) {
    return base::file_identity(manifest).value_or(ManifestId{});
}

// Every set opened and still held somewhere (by path and cache folder; whether it was loaded
// with every check; its manifest's identity), and every set discovery chose (held for the
// process, as a solver run holds its sets, while its manifest stays the same).
std::mutex mu;
struct Opened {
    std::weak_ptr<const tables::LoadedSet> set;
    bool verified = false;
    ManifestId id;
};
std::map<std::string, Opened> opened;
// One lock per set being opened (by the same key), held without the GIL while it loads, so
// Python threads opening one set at once load it once and share it, while other sets load
// meanwhile. Neither lock is held across a call into Python.
std::map<std::string, std::shared_ptr<std::mutex>> loading;

// After fork() the child runs the forking thread alone: a lock another thread held there would
// never be released. `mu` is taken across fork(), and the child forgets the loading locks (a
// load in progress in the parent is not in the child).
std::mutex& fork_safe_mu() {
    static const bool registered = [] {
        pthread_atfork([] { mu.lock(); }, [] { mu.unlock(); },
                       [] {
                           loading.clear();
                           mu.unlock();
                       });
        return true;
    }();
    (void)registered;
    return mu;
}

// The lock of the set opened as `key`.
std::shared_ptr<std::mutex> loading_lock(const std::string& key) {
    std::lock_guard<std::mutex> lock(fork_safe_mu());
    std::shared_ptr<std::mutex>& l = loading[key];
    if (!l) l = std::make_shared<std::mutex>();
    return l;
}

// The caller's hold on the lock of the set opened as `key`, given back when the open ends: the
// lock is dropped when no other thread holds or waits on it (every copy is taken and given back
// under `mu`, so a count of 2, the map's and this one, is exact), and so is every set no longer
// held anywhere. So both maps hold what is in use, not one entry for every set ever opened.
struct LoadingHold {
    std::string key;
    std::shared_ptr<std::mutex> lock;
    ~LoadingHold() {
        std::lock_guard<std::mutex> guard(fork_safe_mu());
        const auto it = loading.find(key);
        if (it != loading.end() && it->second == lock && lock.use_count() == 2) loading.erase(it);
        lock.reset();  // under `mu`, so the next hold's count is exact
        for (auto o = opened.begin(); o != opened.end();)
            o = o->second.set.expired() ? opened.erase(o) : std::next(o);
    }
};

// Sets discovery chose, by manifest, with the manifest's identity when loaded.
std::map<std::string, std::pair<std::shared_ptr<const tables::LoadedSet>, ManifestId>> discovered;
// Discovery key -> the sets found, strongest first (a search that found none is not kept: the
// next call looks again, so a set built meanwhile, as the error advised, is found).
std::map<std::string, std::vector<std::string>> found_manifests;
// Sets discovery found that failed to load, and why: not read again while their manifest stays
// the same file (a set discovery chose is held for the process, and so is a refusal).
std::map<std::string, std::pair<FileProblem, ManifestId>> failed_sets;

// A path as the file system has it: os.fsencode's bytes, so a name read from the file system
// with undecodable bytes (surrogate escapes) names the same file; a str it cannot encode raises
// Python's UnicodeEncodeError, as open() does.
std::string fspath(const py::handle& path) {
    std::string p = py::module_::import("os").attr("fsencode")(path).cast<std::string>();
    if (p.find('\0') != std::string::npos)
        throw py::value_error("embedded null byte in the path " + std::string(py::repr(path)));
    return p;
}

// A path back to Python: os.fsdecode, so a name with bytes UTF-8 cannot decode comes back as
// the str Python itself would give (surrogate escapes), and fspath() of it names the same file.
py::str fs_text(const std::string& path) {
    return py::module_::import("os").attr("fsdecode")(py::bytes(path));
}

std::string default_cache() {
    return tables::default_cache_dir();
}

Tables open_tables(const std::string& path, const std::optional<std::string>& cache_dir,
                   bool verify) {
    if (path.empty())
        throw UsageError("the tables' path is empty: give a set's folder or manifest");
    // Absolute: a Tables pickled, or its path read, after os.chdir still names the set.
    std::error_code ec;
    fs::path manifest = tables::set_path(path).manifest;
    fs::path given = path;  // what is loaded: the folder or manifest named, as the solver's --pdb
    if (fs::path a = fs::absolute(given, ec); !ec) given = a.lexically_normal();
    if (fs::path a = fs::absolute(manifest, ec); !ec) manifest = a.lexically_normal();
    const fs::path canonical = fs::weakly_canonical(manifest, ec);
    tables::LoadOptions lo;
    lo.verify_payload = verify;
    lo.spot_check = verify;
    lo.cache_dir = cache_dir.value_or(default_cache());
    const std::string key = (ec ? manifest : canonical).string() + '\n' + lo.cache_dir;
    // The copy already loaded, if it had at least the checks asked for and its manifest is
    // still the file in the folder.
    auto held = [&]() -> std::shared_ptr<const tables::LoadedSet> {
        const ManifestId now = manifest_id(manifest.string());
        std::lock_guard<std::mutex> lock(fork_safe_mu());
        const auto it = opened.find(key);
        if (it == opened.end() || (verify && !it->second.verified) || !(it->second.id == now))
            return nullptr;
        return it->second.set.lock();
    };
    std::shared_ptr<const tables::LoadedSet> set = held();
    if (set) return Tables{set, manifest.string()};
    try {
        py::gil_scoped_release release;  // a zstd set takes seconds to decode
        const LoadingHold hold{key, loading_lock(key)};
        std::lock_guard<std::mutex> loading_this(*hold.lock);
        set = held();  // another thread may have loaded it meanwhile
        if (!set) {
            const ManifestId id = manifest_id(manifest.string());  // before: a change is seen
            set = std::make_shared<const tables::LoadedSet>(load_set(given.string(), lo));
            std::lock_guard<std::mutex> lock(mu);
            opened[key] = Opened{set, verify, id};
        }
    } catch (const IoError& e) {
        throw FileProblem(e.what(), e.code());
    } catch (const FormatError& e) {
        throw FileProblem(e.what());
    }
    return Tables{set, manifest.string()};
}

void warn(const std::string& message) {
    py::module_::import("warnings")
        .attr("warn")(message_text("loyd: " + message), py::handle(PyExc_RuntimeWarning), 2);
}

std::string discovery_key(const std::vector<std::string>& dirs, const board::Board& goal,
                          board::Metric metric) {
    std::string key = goal.geometry().name() + ':' + goal.to_string() + ':' + to_string(metric);
    for (const auto& d : dirs) key += '\n' + d;
    return key;
}

// The manifests of the sets discovery finds for `goal`, strongest first, read once per goal,
// metric and search path; the notes of sets it skipped are warnings, given once.
// (A copy: other Python threads may run while the caller loads a set or warns.) A set found
// before whose manifest is gone (its folder removed or renamed) makes the search run again, so
// the next set found is used, as a new solver run would.
std::vector<std::string> find_manifests(const board::Board& goal, board::Metric metric) {
    const std::vector<std::string> dirs = search_dirs();
    const std::string key = discovery_key(dirs, goal, metric);
    if (auto it = found_manifests.find(key); it != found_manifests.end()) {
        if (std::none_of(it->second.begin(), it->second.end(),
                         [](const std::string& m) { return manifest_id(m) == ManifestId{}; }))
            return it->second;
        found_manifests.erase(it);
    }
    std::vector<std::string> notes;
    std::vector<tables::FoundSet> found;
    {
        py::gil_scoped_release release;
        found = tables::find_sets(dirs, goal, &notes, metric);
    }
    for (const auto& n : notes) warn(n);
    std::vector<std::string> manifests;
    for (const auto& f : found) manifests.push_back(f.manifest);
    if (manifests.empty()) return manifests;
    return found_manifests.try_emplace(key, manifests).first->second;
}

// The set discovery chooses for `goal`: the strongest found that loads, as the solver chooses.
// A set that fails gives way to the next, with a warning naming both; when every set found
// fails, the last failure is raised (FileProblem).
std::optional<Tables> find_tables(const board::Board& goal, board::Metric metric) {
    const std::vector<std::string> manifests = find_manifests(goal, metric);
    for (size_t i = 0; i < manifests.size(); ++i) {
        const std::string& m = manifests[i];
        const ManifestId id = manifest_id(m);
        if (auto it = discovered.find(m); it != discovered.end() && it->second.second == id)
            return Tables{it->second.first, m};
        try {
            if (auto it = failed_sets.find(m); it != failed_sets.end() && it->second.second == id)
                throw it->second.first;
            Tables t = open_tables(m, std::nullopt, true);
            discovered[m] = {t.set, id};
            failed_sets.erase(m);
            return t;
        } catch (const FileProblem& e) {
            auto [at, first] = failed_sets.try_emplace(m, e, id);
            if (!first && !(at->second.second == id)) {  // the manifest changed: a new failure
                at->second = {e, id};
                first = true;
            }
            if (i + 1 == manifests.size()) throw;
            if (first)
                warn("not using " + m + ": " + e.what() + "; using the next set found, " +
                     manifests[i + 1]);
        }
    }
    return std::nullopt;
}

std::string classic_words(board::Metric m) {
    return m == board::Metric::Mtm ? "walking distance" : "linear conflict";
}

Tables tables_arg(const py::handle& tables) {
    if (py::isinstance<Tables>(tables)) return tables.cast<Tables>();
    return open_tables(fspath(tables), std::nullopt, true);
}

py::list pattern_list(const tables::LoadedSet& s) {
    py::list out;
    for (const auto& t : s.spec.tables) out.append(py::tuple(py::cast(t.pattern.tiles())));
    return out;
}

std::string tables_repr(const Tables& t) {
    const tables::PdbSetSpec& s = t.set->spec;
    return "loyd.Tables('" + s.name + "', path=" + std::string(py::repr(fs_text(t.set->dir))) +
           ", size=" + s.geometry().name() + ", metric=" + to_string(s.metric) +
           ", tables=" + std::to_string(s.tables.size()) + ")";
}

}  // namespace

std::string Choice::name() const {
    return set ? "pdb:" + set->spec.name : heuristic_name(heuristic);
}

std::vector<std::string> search_dirs() {
    return tables::default_pdb_dirs(module_program());
}

Choice choose(const board::Board& goal, const py::handle& tables, const py::handle& heuristic,
              board::Metric metric) {
    std::optional<heuristics::HeuristicKind> h;
    if (!heuristic.is_none())
        h = heuristics::parse_heuristic(utf8_text<UsageError>(py::str(heuristic), "heuristic"));
    if (!tables.is_none()) {
        if (h && *h != heuristics::HeuristicKind::Pdb)
            throw UsageError(
                "tables need heuristic='pdb' (the default when tables are given), not '" +
                heuristic_name(*h) + "'");
        const Tables t = tables_arg(tables);
        const tables::LoadedSet& s = *t.set;
        // As the solver's exit statuses: tables of another metric are a usage error (2), tables
        // that do not fit the instance's board or goal make it invalid (1).
        const tables::SetMisfit why = misfit(s.spec, goal, metric);
        if (why == tables::SetMisfit::Metric)
            throw UsageError(misfit_message(why, s.spec, s.dir, goal, metric));
        if (why != tables::SetMisfit::None)
            throw InvalidInput(misfit_message(why, s.spec, s.dir, goal, metric));
        return Choice{heuristics::HeuristicKind::Pdb, t.set};
    }
    if (h && *h != heuristics::HeuristicKind::Pdb) return Choice{*h, nullptr};
    const heuristics::HeuristicKind classic = search::default_classic_heuristic(metric);
    const bool required = h.has_value();
    std::optional<Tables> found;
    try {
        found = find_tables(goal, metric);
    } catch (const FileProblem& e) {
        if (required) throw;
        warn(std::string("not using the tables found: ") + e.what() + "; using " +
             classic_words(metric));
        return Choice{classic, nullptr};
    }
    if (found) return Choice{heuristics::HeuristicKind::Pdb, found->set};
    if (required)
        throw UsageError("no pattern databases found for goal '" + goal.to_string() + "' on " +
                         goal.geometry().name() +
                         "; build them with: " + tables::suggest_build_command(goal, metric) +
                         " (and pass tables= or set LOYD_PDB_PATH)");
    return Choice{classic, nullptr};
}

namespace {

using TablesClass = py::class_<Tables>;

constexpr const char* kTablesDoc = R"doc(A pattern-database set, loaded once and shared.

Tables.open(path) loads the set in `path` (a set folder or its manifest.txt), checking
every header, checksum and the manifest: a damaged set raises FileError and is never
used. Raw tables are memory-mapped; zstd tables are decoded once and kept decoded in the
solver's cache folder ($XDG_CACHE_HOME/loyd), so later opens map them. Every search in
the process shares the same mapped tables: opening the same set again returns the set
already loaded (unless its manifest was replaced since: a rebuilt set is loaded again), and
solve_many's threads read one copy.

Tables.find(board) looks for the set the solver would use, in the solver's order.)doc";

// Tables.open, Tables.find and the folders find looks in.
void def_loading(TablesClass& cls) {
    cls.def_static(
           "open",
           [](const py::object& path, const py::object& cache_dir, const py::object& verify) {
               std::optional<std::string> cache;
               if (!cache_dir.is_none()) cache = fspath(cache_dir);
               if (std::error_code ec; cache && !cache->empty() &&
                                       std::filesystem::exists(*cache, ec) &&
                                       !std::filesystem::is_directory(*cache, ec))
                   throw UsageError("cache_dir " + *cache +
                                    " is not a folder (give a folder, or \"\" for none)");
               // pybind11 would read None, 0 or "" as False and skip every check.
               return open_tables(fspath(path), cache, truth(verify, "verify", true));
           },
           "path"_a, py::kw_only(), "cache_dir"_a = py::none(), "verify"_a = true,
           R"doc(Loads the set in `path` (a folder or its manifest). `cache_dir`: where decoded copies
of zstd tables are kept (default: the solver's, $XDG_CACHE_HOME/loyd; "" for none).
`verify=False` skips the XXH3 pass over raw payloads and the sampled check of the entries
(headers are always checked); verify is True or False (None: True).
Raises FileError when the set cannot be read or fails a check.)doc")
        .def_static(
            "find",
            [](const py::object& board, const py::object& size, const py::object& goal,
               const std::string& metric) {
                const board::BoardFormat f = format_arg(goal, size);
                std::optional<board::Geometry> g = f.geometry();
                if (!board.is_none()) g = board_arg(board, f).geometry();
                if (!g) throw UsageError("Tables.find needs a board, a size or a goal written out");
                try {
                    const std::optional<Tables> t =
                        find_tables(goal_for(f, *g), board::parse_metric(metric));
                    return t ? py::cast(*t) : py::object(py::none());
                } catch (const FileProblem& e) {  // every set found failed: as none found
                    warn(std::string("not using the last set found: ") + e.what());
                    return py::object(py::none());
                }
            },
            "board"_a = py::none(), py::kw_only(), "size"_a = py::none(), "goal"_a = "blank-last",
            "metric"_a = "stm",
            R"doc(The set the solver would use for boards like `board` (or of `size`) and `goal` in
`metric`, loaded, or None when there is none. Looks, in order, in the folders of
$LOYD_PDB_PATH, $XDG_DATA_HOME/loyd/pdb (~/.local/share/loyd/pdb), the installation's
<prefix>/share/loyd/pdb and, in a build tree, the repository's data/ (search_path()
lists them); among the sets whose board, metric and goal fit, the strongest that loads wins. The
set stays loaded for the life of the process while its manifest stays the same file; when
none is found, the next call looks again. Sets skipped (damaged manifests, missing or
damaged tables) are reported as RuntimeWarning; when every set found fails, None.)doc")
        .def_static(
            "search_path",
            [] {
                py::list out;
                for (const std::string& d : search_dirs()) out.append(fs_text(d));
                return out;
            },
            "The folders Tables.find looks in, in order.");
}

// What a loaded set is for and holds.
void def_properties(TablesClass& cls) {
    cls.def_property_readonly(
           "name", [](const Tables& t) { return t.set->spec.name; }, "The set's name ('15-7-8').")
        .def_property_readonly(
            "path", [](const Tables& t) { return fs_text(t.set->dir); }, "The set's folder.")
        .def_property_readonly(
            "size",
            [](const Tables& t) {
                return py::make_tuple(t.set->spec.geometry().width(),
                                      t.set->spec.geometry().height());
            },
            "(width, height) of the board the set is for.")
        .def_property_readonly(
            "goal", [](const Tables& t) { return t.set->spec.goal; },
            "The goal the tables were built for (others map onto it by a symmetry).")
        .def_property_readonly(
            "metric", [](const Tables& t) { return to_string(t.set->spec.metric); },
            "'stm' or 'mtm': what one move counts.")
        .def_property_readonly(
            "reflect", [](const Tables& t) { return t.set->spec.reflect; },
            "True when the set allows the reflected lookup.")
        .def_property_readonly(
            "patterns", [](const Tables& t) { return pattern_list(*t.set); },
            "The tiles of each table, in the manifest's order.")
        .def_property_readonly(
            "entries",
            [](const Tables& t) {
                uint64_t n = 0;
                for (const auto& tb : t.set->tables) n += tb.size();
                return n;
            },
            "Entries in all the tables.")
        .def_property_readonly(
            "load_seconds", [](const Tables& t) { return t.set->load_seconds; },
            "Seconds the load took (checks included).");
}

// Printing, comparison, hashing and pickling.
void def_protocol(TablesClass& cls) {
    cls.def("__repr__", &tables_repr)
        .def(
            "__eq__",
            [](const Tables& a, const py::object& o) -> py::object {
                if (!py::isinstance<Tables>(o))
                    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                return py::bool_(a.set == o.cast<const Tables&>().set);
            },
            "True for the same loaded set (opening a set again gives the one already loaded).")
        .def("__hash__", [](const Tables& t) { return std::hash<const void*>()(t.set.get()); })
        .def(py::pickle([](const Tables& t) { return py::make_tuple(fs_text(t.manifest)); },
                        [](const py::tuple& state) {
                            if (state.size() != 1) throw FileProblem("bad pickled loyd.Tables");
                            return open_tables(fspath(state[0]), std::nullopt, true);
                        }))
        .def("__reduce_ex__", &reduce_with_newobj, "protocol"_a);
}

}  // namespace

void bind_tables(py::module_& m) {
    m.def(
        "_open_bookkeeping",
        [] {
            std::lock_guard<std::mutex> lock(fork_safe_mu());
            return py::make_tuple(opened.size(), loading.size());
        },
        "Internal, for the tests: (sets remembered as opened, per-set load locks).");
    TablesClass cls(m, "Tables", kTablesDoc);
    def_loading(cls);
    def_properties(cls);
    def_protocol(cls);
}

}  // namespace loyd::python
