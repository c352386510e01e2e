// `pdbgen combine SET SET... --out DIR [--name NAME]`: one set of several built sets'
// partitions under max (tables/combine.h). Each table is hard-linked into DIR (copied when DIR
// is on another file system) under a temporary name and renamed into place; the manifest is
// written last, atomically, so an interrupted combine leaves no manifest naming a table that is
// not there (over the same set, its manifest is first rewritten without checksums, so that
// it loads whenever the combine stops). DIR is created when missing, locked as a build locks its
// folder, and refused when it holds another set. Each source table's header must hold the pattern
// its manifest names (its checksums are checked where it is loaded). Prints the manifest's path and
// the partitions.
#include "loyd/tables/combine.h"

#include <filesystem>
#include <optional>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/tables/discover.h"
#include "loyd/tables/header.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table.h"
#include "pdbgen/commands.h"
#include "pdbgen/commands/folder.h"

namespace loyd::pdbgen {

namespace fs = std::filesystem;

namespace {

std::vector<tables::SetSource> read_sets(const std::vector<std::string>& paths) {
    std::vector<tables::SetSource> sets;
    for (const std::string& p : paths) {
        const tables::SetPath sp = tables::set_path(p);
        sets.push_back({sp.dir.string(), tables::read_manifest(sp.manifest.string())});
    }
    return sets;
}

// A note when the combined tables mix entry codings or layouts: the solver's additive fast
// path takes a set of one of each (heuristics/additive_pdb.h), so such a set is searched by the
// general lookup, several times slower, until one conversion makes them one.
void note_mixed_tables(const Context& c, const tables::PdbSetSpec& spec) {
    if (c.options.quiet || spec.tables.empty()) return;
    const fs::path dir = c.options.out;
    const tables::PdbHeader first = tables::read_pdb_header((dir / spec.tables[0].file).string());
    bool codings = false, layouts = false;
    for (const auto& t : spec.tables) {
        const tables::PdbHeader h = tables::read_pdb_header((dir / t.file).string());
        codings = codings || h.coding != first.coding;
        layouts = layouts || h.layout != first.layout;
    }
    if (!codings && !layouts) return;
    c.err << "pdbgen: note: the tables mix "
          << (codings && layouts ? "entry codings and layouts"
              : codings          ? "entry codings"
                                 : "layouts")
          << ", so the solver reads them without its additive fast path; 'pdbgen unpack "
          << tables::shell_word(dir.string()) << (codings ? " --entries compact" : "")
          << (layouts ? " --layout cells" : "")
          << "' makes them one (or the other choice; pack for zstd tables)\n";
}

}  // namespace

int run_combine(const Context& c) {
    const Options& o = c.options;
    if (o.paths.size() < 2 || o.out.empty())
        throw UsageError("expected SET_DIR SET_DIR... --out DIR");
    const tables::CombinedSet cs = tables::combine_sets(read_sets(o.paths), o.name);
    for (size_t i = 0; i < cs.spec.tables.size(); ++i)
        check_table_holds(cs.sources[i], cs.spec.tables[i].pattern);

    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec || !fs::is_directory(o.out))
        throw IoError("cannot create output folder '" + o.out + "': " + ec.message());
    std::optional<base::DirLock> lock;
    lock_folder(c, o.out, lock);
    remove_build_temporaries(c, o.out, cs.spec);
    refuse_another_set(o.out, cs.spec, "combining");
    // The same set there already (checksums aside): its manifest loses its checksums while the
    // tables are replaced, so that a set stopped at any moment loads (each table is then checked
    // by its own header's checksums), as a re-encoding in place does (folder.h).
    const std::string manifest = (fs::path(o.out) / tables::kManifestName).string();
    if (tables::holds_set(o.out)) {
        tables::PdbSetSpec bare = cs.spec;
        for (auto& t : bare.tables) t.xxh3.reset();
        base::write_file_atomic(manifest, tables::manifest_text(bare));
    }
    for (size_t i = 0; i < cs.spec.tables.size(); ++i) {
        if (c.interrupted) throw CancelledError("interrupted");
        place_table(cs.sources[i], (fs::path(o.out) / cs.spec.tables[i].file).string(),
                    c.interrupted);
    }
    base::write_file_atomic(manifest, tables::manifest_text(cs.spec));
    note_mixed_tables(c, cs.spec);
    c.out << manifest << ": " << cs.spec.name << ", " << cs.spec.partitions.size()
          << " partitions under max, " << cs.spec.tables.size()
          << (cs.spec.tables.size() == 1 ? " table\n" : " tables\n");
    return kExitOk;
}

}  // namespace loyd::pdbgen
