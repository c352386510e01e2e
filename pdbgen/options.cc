#include "pdbgen/options.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cctype>
#include <map>

#include "loyd/base/error.h"
#include "program/command_options.h"
#include "program/exit_status.h"

namespace po = boost::program_options;

namespace loyd::pdbgen {

namespace {

const std::vector<std::string> kCommands = {"build", "presets", "suggest", "info",   "verify",
                                            "pack",  "unpack",  "package", "combine"};

// Every option, once, with the commands it belongs to (a table, kept as written: one option a
// line).
// clang-format off
program::CommandOptions declared() {
    program::CommandOptions d(kCommands);
    d.group("Options (every command)")
        ("help,h", "print this help and exit (COMMAND --help: that command's)")
        ("version,V", "print the version and exit")
        ("quiet,q", "no progress or notes on stderr");
    d.group("Board (build, suggest)", {"build", "suggest"})
        ("size,s", po::value<std::string>(), "board size WxH (build: for a custom set)")
        ("goal,g", po::value<std::string>()->default_value("blank-last"),
         "goal: blank-last, blank-first or a permutation");
    d.group("Build (build)", {"build"})
        ("preset,p", po::value<std::string>(), "a preset (see `pdbgen presets`)")
        ("pattern", po::value<std::vector<std::string>>()->composing(),
         "tiles of one pattern, e.g. 1,2,3 (repeat for a partition)")
        ("kind", po::value<std::string>(), "additive | full (default: additive; full with --metric mtm)")
        ("metric", po::value<std::string>(),
         "stm | mtm: what one move is (mtm: 1..k tiles of a row or column; full tables only)")
        ("encoding", po::value<std::string>()->default_value("zstd"), "zstd | raw")
        ("max-memory", po::value<std::string>(),
         "refuse to build above this peak (e.g. 4G; 0 = the memory available, the default; "
         "tables already there count what checking them takes)")
        ("force", "rebuild tables already present and valid")
        ("reuse", po::value<std::vector<std::string>>()->composing(),
         "a built set (folder or manifest) whose tables of this set are linked in, not built "
         "(repeat for several)")
        ("checkpoint", po::value<std::string>(),
         "save each finished BFS layer in DIR; the same command resumes from it (any rank count)");
    d.group("Suggest (suggest)", {"suggest"})
        ("sizes", po::value<std::string>(), "the groups' sizes, e.g. 6-6-3 (tiles beyond their sum: "
         "Manhattan distance)")
        ("top", po::value<int>()->default_value(5), "partitions to print, 1 to 100")
        ("candidates", po::value<int>()->default_value(20),
         "partitions the quick estimate proposes, 1 to 1000: their groups' tables are built to "
         "score them");
    d.group("Output folder (build, package, combine)", {"build", "package", "combine"})
        ("out,o", po::value<std::string>(), "output folder");
    d.group("Set name (build, combine)", {"build", "combine"})
        ("name", po::value<std::string>(),
         "name of a custom set (build default: custom; combine default: the sets' names joined by "
         "+): 1-64 letters, digits, spaces, . _ + -, not starting with . - or a space nor ending "
         "with a space");
    d.group("Writing tables (build, pack, unpack)", {"build", "pack", "unpack"})
        ("entries", po::value<std::string>(),
         "compact (4 bits per entry; the default for STM tables) | byte (the default and the only "
         "coding for MTM tables; pack/unpack: keep the tables' own when not given)")
        ("layout", po::value<std::string>(),
         "dense (one entry per key, the default) | cells (indexed by the tiles' cells, a faster "
         "lookup: on 25 cells 1.9x the size of a 6-tile table, 2.5x of a 7-tile one; on 16 cells "
         "2.9x to 8.3x; pack/unpack: keep the tables' own when not given)");
    d.group("Folder lock (build, pack, unpack, combine, package)",
            {"build", "pack", "unpack", "combine", "package"})
        ("no-wait", "when another build holds the folder written to (build: or its "
                    "--checkpoint folder), exit 6 at once instead of waiting");
    d.group("Compression (build, pack)", {"build", "pack"})
        ("level", po::value<int>()->default_value(0), "zstd level 1..22 (0 = default 3)");
    d.group("Set folders (info)", {"info"})
        ("scores", "info DIR: also each partition's ln eta (reads every entry once: seconds to "
         "minutes)");
    d.group("Checking (verify)", {"verify"})
        ("against", po::value<std::string>(),
         "reference manifest (file or folder) whose checksums must match");
    d.group("Threads (build, suggest, info, verify, pack, unpack)",
            {"build", "suggest", "info", "verify", "pack", "unpack"})
        ("jobs,j", po::value<int>()->default_value(0),
         "threads, 0 to 1024 (0 = one per CPU this process may run on; more than those CPUs are "
         "not started, with a note on stderr)");
    return d;
}
// clang-format on

// The option values of a parsed command line into `o`.
void read_values(const po::variables_map& vm, Options& o) {
    auto str = [&vm](const char* name) { return vm[name].as<std::string>(); };
    o.help = vm.count("help") > 0;
    o.version = vm.count("version") > 0;
    o.quiet = vm.count("quiet") > 0;
    if (vm.count("preset")) o.preset = str("preset");
    if (vm.count("size")) o.size = str("size");
    o.goal = str("goal");
    if (vm.count("pattern")) o.patterns = vm["pattern"].as<std::vector<std::string>>();
    if (vm.count("kind")) o.kind = str("kind");
    if (vm.count("metric")) o.metric = str("metric");
    if (vm.count("name")) {
        o.name = str("name");
        if (o.name.empty())
            throw UsageError(
                "--name needs 1-64 letters, digits, spaces, . _ + - (not starting with . - or a "
                "space, nor ending with a space)");
    }
    if (vm.count("out")) o.out = str("out");
    o.encoding = str("encoding");
    if (vm.count("entries")) o.entries = str("entries");
    if (vm.count("layout")) o.layout = str("layout");
    o.level = vm["level"].as<int>();
    if (vm.count("max-memory")) o.max_memory = parse_bytes(str("max-memory"));
    o.force = vm.count("force") > 0;
    if (vm.count("reuse")) {
        o.reuse = vm["reuse"].as<std::vector<std::string>>();
        for (const std::string& r : o.reuse)
            if (r.empty()) throw UsageError("--reuse needs a table folder or manifest");
    }
    o.no_wait = vm.count("no-wait") > 0;
    if (vm.count("checkpoint")) {
        o.checkpoint = str("checkpoint");
        if (o.checkpoint.empty()) throw UsageError("--checkpoint needs a folder");
    }
    if (vm.count("against")) {
        o.against = str("against");
        // An empty reference (an unset variable in a script) must not skip the comparison.
        if (o.against.empty()) throw UsageError("--against needs a reference set or manifest");
    }
    o.scores = vm.count("scores") > 0;
    if (vm.count("sizes")) o.sizes = str("sizes");
    o.top = vm["top"].as<int>();
    o.candidates = vm["candidates"].as<int>();
    o.threads = vm["jobs"].as<int>();
    if (o.threads < 0 || o.threads > 1024) throw UsageError("--jobs must be between 0 and 1024");
    if (o.level < 0 || o.level > 22)
        throw UsageError("--level must be between 1 and 22 (0 = default)");
}

}  // namespace

uint64_t parse_bytes(const std::string& s) {
    size_t i = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == 0) throw UsageError("bad memory size '" + s + "' (e.g. 4G, 512M)");
    // More than 16 significant digits is more than 1 PiB in any unit (checked below).
    const size_t first = std::min(s.find_first_not_of('0'), i);
    const bool huge = i - first > 16;
    const uint64_t v = huge ? 0 : (first == i ? 0 : std::stoull(s.substr(first, i - first)));
    std::string unit = s.substr(i);
    for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    int shift;
    if (unit == "" || unit == "B")
        shift = 0;
    else if (unit == "K" || unit == "KB" || unit == "KIB")
        shift = 10;
    else if (unit == "M" || unit == "MB" || unit == "MIB")
        shift = 20;
    else if (unit == "G" || unit == "GB" || unit == "GIB")
        shift = 30;
    else
        throw UsageError("bad memory size '" + s + "' (e.g. 4G, 512M)");
    // At most 2^50 bytes (a pebibyte): larger sizes are typing errors, and would wrap.
    if (huge || v > (uint64_t{1} << (50 - shift)))
        throw UsageError("memory size '" + s + "' is more than 1 PiB");
    return v << shift;
}

std::string command_help(const std::string& command) {
    static const std::map<std::string, std::string> usage = {
        {"build",
         "pdbgen build --preset NAME --out DIR | --size WxH --pattern 1,2,3 [--pattern ...] --out "
         "DIR\n"
         "Builds a set of tables (and its manifest) into DIR. --metric mtm builds full tables that "
         "count\n"
         "multi-tile moves (for the multi-tile metric; additive tables do not add up there)."},
        {"presets",
         "pdbgen presets\nLists the presets with their entries, estimated build time, memory and "
         "disk."},
        {"suggest",
         "pdbgen suggest --size WxH --sizes 6-6-3 [--goal G] [--top N] [--candidates N]\n"
         "Ranks the additive partitions of the board's tiles into connected groups of those sizes\n"
         "by the IDA* nodes their tables should cost (predicted from the tables' values; each\n"
         "candidate group's table is built in memory), and prints each as --pattern options for "
         "build,\nfollowed by \"# TILES: Manhattan distance\" when the sizes leave tiles out."},
        {"info",
         "pdbgen info FILE|DIR [--scores]\nDescribes a table (header, value histogram, and ln eta "
         "for an additive table:\nlower predicts fewer search nodes) or a set folder (its tables "
         "from their headers;\n--scores: each partition's ln eta too)."},
        {"verify",
         "pdbgen verify FILE|DIR [--against REF]\nChecks headers, checksums and table invariants."},
        {"pack",
         "pdbgen pack FILE|DIR [OUT]\nRe-encodes tables as zstd (in place without OUT; FILE into "
         "a folder OUT:\nthe file of its name there)."},
        {"unpack",
         "pdbgen unpack FILE|DIR [OUT]\nRe-encodes tables as raw, memory-mappable files (in "
         "place without OUT;\nFILE into a folder OUT: the file of its name there)."},
        {"package",
         "pdbgen package SET_DIR --out DIR\nMakes DIR/loyd-pdb-NAME_VERSION_all.deb and "
         "loyd-pdb-NAME-VERSION.tar.gz:\nthe set checked, its tables zstd-compressed, installing "
         "into "
         "share/loyd/pdb/NAME."},
        {"combine",
         "pdbgen combine SET_DIR SET_DIR... --out DIR [--name NAME]\nMakes DIR a set of the sets' "
         "partitions under max (one board, goal and metric):\ntheir tables hard-linked into DIR "
         "(copied across file systems) and a manifest naming them."}};
    const std::string options = declared().help(command);  // UsageError: an unknown command
    return "Usage: " + usage.at(command) + "\n\n" + options;
}

std::string short_usage() {
    return "Usage: pdbgen COMMAND [OPTIONS] [PATH]...\n"
           "(commands: build, presets, suggest, info, verify, pack, unpack, package, combine)\n"
           "Try 'pdbgen --help' for more.\n";
}

std::string help_text() {
    return "Usage: pdbgen COMMAND [OPTIONS] [PATH]...\n"
           "Builds, inspects and checks pattern databases for loyd's solver.\n\n"
           "Examples:\n"
           "  pdbgen build --preset 15-7-8 --out ~/.local/share/loyd/pdb/15-7-8\n"
           "                                     the 15-puzzle's strongest set, where the solver "
           "finds it\n"
           "  pdbgen verify ~/.local/share/loyd/pdb/15-7-8 --against "
           "data/reference/15-7-8.manifest.txt\n"
           "                                     check every table, and that it is the "
           "reference's\n"
           "  pdbgen info ~/.local/share/loyd/pdb/15-7-8\n"
           "                                     its tables, their entries and sizes\n"
           "  mpirun -np 4 pdbgen build --preset 15-7-8 --out tables/15-7-8 --checkpoint ckpt\n"
           "                                     the same build on 4 ranks, resumable after a "
           "stop\n"
           "  pdbgen build --preset 15-mtm-6-6 --out ~/.local/share/loyd/pdb/15-mtm-6-6\n"
           "                                     tables for the multi-tile metric\n"
           "Every preset's reference manifest: data/reference/ in the source, "
           "share/loyd/reference/\n"
           "where loyd is installed (/usr/share/loyd/reference/ from the .deb).\n\n"
           "Commands:\n"
           "  build --preset NAME --out DIR      build a preset set into DIR\n"
           "  build --size WxH [--goal G] --pattern 1,2,3 [--pattern ...] [--kind K] [--metric M] "
           "--out DIR\n"
           "                                     build a custom set\n"
           "  presets                            list the presets\n"
           "  suggest --size WxH --sizes 6-6-3   the partitions predicted to search fastest, as "
           "--pattern options\n"
           "  info FILE|DIR [--scores]           a table's header and value histogram, or a set's "
           "tables\n"
           "  verify FILE|DIR [--against REF]    check headers, checksums and table invariants\n"
           "  pack FILE|DIR [OUT]                re-encode tables as zstd (in place without OUT)\n"
           "  unpack FILE|DIR [OUT]              re-encode tables as raw (memory-mappable)\n"
           "  package DIR --out OUT              a .deb and a .tar.gz installing the set for the "
           "solver\n"
           "  combine DIR DIR... --out OUT       one set of the sets' partitions under max\n"
           "'pdbgen COMMAND --help' describes one command; an option of another command is "
           "refused.\n\n" +
           declared().help() + program::exit_status_help(program::kPdbgen) +
           "A set built into $XDG_DATA_HOME/loyd/pdb (default ~/.local/share/loyd/pdb) or a "
           "folder\n"
           "of $LOYD_PDB_PATH is found by the solver without options.\n"
           "Under mpirun (-np N, N > 1) `build` splits each table over the ranks, one thread each\n"
           "(start one rank per core); rank 0 writes the files, byte-identical to a one-process\n"
           "build. `pdbgen --version` says whether MPI is built in.\n";
}

Options parse_options(int argc, char** argv) {
    const program::CommandOptions::Parsed p = declared().parse(argc, argv);
    Options o;
    o.command = p.command;
    o.paths = p.arguments;
    if (!o.paths.empty() &&
        (o.command == "build" || o.command == "presets" || o.command == "suggest"))
        throw UsageError("unexpected argument '" + o.paths[0] + "' (" + o.command +
                         " takes options only)");
    read_values(p.values, o);
    return o;
}

}  // namespace loyd::pdbgen
