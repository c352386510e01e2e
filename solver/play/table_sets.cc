#include "solver/play/table_sets.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "loyd/base/error.h"
#include "loyd/tables/discover.h"
#include "loyd/tables/header.h"
#include "loyd/tables/presets.h"
#include "loyd/tables/set_fit.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"

namespace loyd::play {

namespace fs = std::filesystem;

namespace {

// Files placed under the set's names: (the name now, the user's name).
using Renames = std::vector<std::pair<std::string, std::string>>;

// A file the user gave: its name and, for a table, its header and pattern.
struct Given {
    std::string name;  // as the user named it
    std::string file;  // its name in the folder now
    std::optional<tables::PdbHeader> header;
    std::optional<tables::Pattern> pattern;
};

// Removes every file of `dir` (and the folder) when it goes out of scope.
struct Cleanup {
    std::string dir;
    ~Cleanup() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

std::string first_bytes(const std::string& path, size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string s(n, '\0');
    in.read(s.data(), static_cast<std::streamsize>(n));
    s.resize(static_cast<size_t>(in.gcount()));
    return s;
}

// The files of `dir`, each a table (header read and checked) or the manifest; anything else
// is refused by name.
std::vector<Given> classify(const std::string& dir, std::optional<std::string>& manifest) {
    std::vector<Given> tables;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& p : files) {
        const std::string name = p.filename().string();
        const std::string head = first_bytes(p.string(), 256);
        if (head.rfind(std::string("LOYDPDB\0", 8), 0) == 0) {
            const tables::PdbHeader h = tables::read_pdb_header(p.string());
            if (h.encoding == tables::PdbEncoding::Zstd)
                throw FormatError(name + ": the table is " + to_string(h.encoding) +
                                  "-compressed; the page reads raw tables only: unpack the set "
                                  "first with pdbgen unpack DIR (then load the unpacked files)");
            tables.push_back({name, name, h, pattern_of(h, name)});
        } else if (tables::starts_as_manifest(head)) {
            if (manifest)
                throw UsageError("two manifests given (" + *manifest + " and " + name +
                                 "): load one set at a time");
            manifest = name;
        } else {
            throw FormatError(name +
                              ": not a loyd table (no LOYDPDB header) nor a set's manifest.txt");
        }
    }
    if (tables.empty()) throw UsageError("no table file given (pick the .pdb files of a set)");
    return tables;
}

// The preset whose tables are exactly these patterns, or whose tables include them all (then
// `missing` lists the tables not given).
std::optional<tables::PdbSetSpec> matching_preset(const std::vector<Given>& given,
                                                  std::vector<std::string>& missing) {
    for (const std::string& name : tables::preset_names()) {
        const tables::PdbSetSpec s = tables::preset(name);
        std::vector<std::string> absent;
        size_t found = 0;
        for (const tables::TableSpec& t : s.tables) {
            const bool have = std::any_of(given.begin(), given.end(),
                                          [&](const Given& g) { return *g.pattern == t.pattern; });
            if (have)
                ++found;
            else
                absent.push_back(t.file);
        }
        if (found != given.size()) continue;  // some table given is not this preset's
        missing = absent;
        return s;
    }
    return std::nullopt;
}

// A set of the given tables alone: one additive partition covering every tile, or full tables.
tables::PdbSetSpec set_of_tables(const std::vector<Given>& given,
                                 const std::vector<std::string>& held) {
    const tables::Pattern& first = *given[0].pattern;
    std::vector<std::vector<int>> patterns;
    base::Mask used = 0;
    std::string sizes;
    for (const Given& g : given) {
        const tables::Pattern& p = *g.pattern;
        if (!(p.geometry() == first.geometry()) || p.goal() != first.goal() ||
            p.metric() != first.metric())
            throw UsageError(
                g.name + " and " + given[0].name +
                " are tables of different boards, goals or metrics: load one set at a time");
        if (p.kind() != first.kind())
            throw UsageError(g.name + " is " + to_string(p.kind()) + " and " + given[0].name + " " +
                             to_string(first.kind()) +
                             ": without the set's manifest.txt the tables must be of one kind");
        if (p.kind() == tables::PatternKind::Additive && (used & p.tile_mask()))
            throw UsageError(g.name +
                             " shares tiles with another table given: load one set at a time");
        used |= p.tile_mask();
        patterns.push_back(p.tiles());
        sizes.append("-").append(std::to_string(p.size()));
    }
    if (first.kind() == tables::PatternKind::Additive) {
        std::string absent;
        for (int t = 1; t < first.geometry().cells(); ++t)
            if (!((used >> t) & 1)) absent.append(" ").append(std::to_string(t));
        if (!absent.empty())
            throw UsageError("incomplete set: no table given holds tiles" + absent +
                             " (pick every table of the set, or its manifest.txt too)");
    }
    std::string name = "loaded-" + std::to_string(first.geometry().cells() - 1) + sizes;
    for (int k = 2; std::find(held.begin(), held.end(), name) != held.end(); ++k)
        name = "loaded-" + std::to_string(first.geometry().cells() - 1) + sizes + "." +
               std::to_string(k);
    return custom_set(name, first.goal(), patterns,
                      first.kind() == tables::PatternKind::Additive ? tables::PatternKind::Additive
                                                                    : tables::PatternKind::Full,
                      first.metric());
}

// Renames the given tables to the file names `spec` gives their patterns, noting in `renames`
// the user's name of each; a table the spec names but no file holds is missing.
void place_tables(const std::string& dir, std::vector<Given>& given, const tables::PdbSetSpec& spec,
                  const std::string& manifest, Renames& renames) {
    for (size_t i = 0; i < given.size(); ++i) {  // out of the way first: names may be swapped
        const std::string tmp = std::string(".given-").append(std::to_string(i));
        fs::rename(fs::path(dir) / given[i].file, fs::path(dir) / tmp);
        given[i].file = tmp;
    }
    std::vector<std::string> absent;
    for (const tables::TableSpec& t : spec.tables) {
        auto it = std::find_if(given.begin(), given.end(),
                               [&](const Given& g) { return *g.pattern == t.pattern; });
        if (it == given.end()) {
            absent.push_back(t.file);
            continue;
        }
        fs::rename(fs::path(dir) / it->file, fs::path(dir) / t.file);
        if (it->name != t.file) renames.emplace_back(t.file, it->name);
        given.erase(it);
    }
    if (!absent.empty()) {
        std::string list;
        for (const auto& a : absent) list.append(list.empty() ? "" : ", ").append(a);
        throw UsageError("incomplete set: " + manifest + " names " + list +
                         ", which no file given holds");
    }
    if (!given.empty())
        throw UsageError(given[0].name + " is not a table of the set in " + manifest +
                         " (load one set at a time)");
}

// Rethrows the error being handled, of the same type, with each file of `dir` placed under
// another name named as the user gave it.
[[noreturn]] void rethrow_as_given(const std::string& dir, Renames renames) {
    std::sort(renames.begin(), renames.end(), [](const auto& a, const auto& b) {
        return a.first.size() > b.first.size();  // the longest name first: "a.pdb.x" over "a.pdb"
    });
    // One pass, so a file given under another's set name is not renamed twice.
    const auto as_given = [&](const std::string& m) {
        std::string out;
        for (size_t i = 0; i < m.size();) {
            const auto hit = std::find_if(renames.begin(), renames.end(), [&](const auto& r) {
                return m.compare(i, dir.size() + 1 + r.first.size(), dir + "/" + r.first) == 0;
            });
            if (hit == renames.end()) {
                out += m[i++];
                continue;
            }
            out += dir + "/" + hit->second;
            i += dir.size() + 1 + hit->first.size();
        }
        return out;
    };
    try {
        throw;
    } catch (const CancelledError& e) {
        throw CancelledError(as_given(e.what()));
    } catch (const LimitError& e) {
        throw LimitError(as_given(e.what()));
    } catch (const IoError& e) {
        throw IoError(as_given(e.what()), e.code());
    } catch (const FormatError& e) {
        throw FormatError(as_given(e.what()));
    } catch (const UsageError& e) {
        throw UsageError(as_given(e.what()));
    } catch (const BusyError& e) {
        throw BusyError(as_given(e.what()));
    }
}

}  // namespace

const tables::LoadedSet& TableSets::hold(std::unique_ptr<tables::LoadedSet> s, bool embedded) {
    auto same = std::find_if(sets_.begin(), sets_.end(),
                             [&](const HeldSet& h) { return h.set->spec.name == s->spec.name; });
    if (same != sets_.end()) sets_.erase(same);
    sets_.push_back({std::move(s), embedded});
    return *sets_.back().set;
}

const tables::LoadedSet& TableSets::load_embedded(const std::string& dir) {
    Cleanup gone{dir};
    return hold(std::make_unique<tables::LoadedSet>(tables::load_set(dir)), true);
}

tables::PdbSetSpec TableSets::upload_spec(const std::string& dir, Renames& renames) const {
    std::optional<std::string> manifest;
    std::vector<Given> given = classify(dir, manifest);
    if (manifest) {
        tables::PdbSetSpec spec = tables::read_manifest((fs::path(dir) / *manifest).string());
        if (*manifest != tables::kManifestName) {
            for (Given& g : given)  // a table the user named manifest.txt: out of the way first
                if (g.file == tables::kManifestName) {
                    g.file = ".given-table-named-manifest";
                    fs::rename(fs::path(dir) / tables::kManifestName, fs::path(dir) / g.file);
                }
            fs::rename(fs::path(dir) / *manifest, fs::path(dir) / tables::kManifestName);
            renames.emplace_back(tables::kManifestName, *manifest);
        }
        place_tables(dir, given, spec, *manifest, renames);
        return spec;
    }
    std::vector<std::string> missing;
    std::optional<tables::PdbSetSpec> spec = matching_preset(given, missing);
    if (spec && !missing.empty()) {
        std::string list;
        for (const auto& m : missing) list.append(list.empty() ? "" : ", ").append(m);
        throw UsageError("incomplete set: these tables are part of " + spec->name +
                         ", which also needs " + list);
    }
    if (!spec) {
        std::vector<std::string> held;
        for (const HeldSet& h : sets_) held.push_back(h.set->spec.name);
        spec = set_of_tables(given, held);
    }
    place_tables(dir, given, *spec, "the set", renames);
    std::ofstream(fs::path(dir) / tables::kManifestName) << manifest_text(*spec);
    return *spec;
}

const tables::LoadedSet& TableSets::load_upload(const std::string& dir) {
    Cleanup gone{dir};
    Renames renames;
    upload_spec(dir, renames);
    try {
        return hold(std::make_unique<tables::LoadedSet>(tables::load_set(dir)), false);
    } catch (...) {
        rethrow_as_given(dir, renames);
    }
}

const tables::LoadedSet* TableSets::best_for(const board::Board& goal, board::Metric metric) const {
    const tables::LoadedSet* best = nullptr;
    double strength = 0;
    for (const HeldSet& h : sets_) {
        const tables::PdbSetSpec& spec = h.set->spec;
        if (!fits(spec, goal, metric)) continue;
        const double s = set_strength(spec);
        if (!best || s > strength) best = h.set.get(), strength = s;
    }
    return best;
}

const tables::LoadedSet& TableSets::named(const std::string& name) const {
    std::string all;
    for (const HeldSet& h : sets_) {
        if (h.set->spec.name == name) return *h.set;
        all.append(all.empty() ? "" : ", ").append(h.set->spec.name);
    }
    throw UsageError("no table set named '" + name + "' (held: " + (all.empty() ? "none" : all) +
                     ")");
}

}  // namespace loyd::play
