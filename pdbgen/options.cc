#include "pdbgen/options.h"

#include <boost/program_options.hpp>
#include <cctype>
#include <iomanip>
#include <map>
#include <sstream>

#include "loyd/base/error.h"

namespace po = boost::program_options;

namespace loyd::pdbgen {

namespace {
po::options_description visible() {
    po::options_description d("Options");
    d.add_options()
        ("help,h", "print this help and exit")
        ("version,V", "print the version and exit")
        ("preset,p", po::value<std::string>(), "build: a preset (see `pdbgen presets`)")
        ("size,s", po::value<std::string>(), "build: board size WxH for a custom set")
        ("goal,g", po::value<std::string>()->default_value("blank-last"),
         "build: goal: blank-last, blank-first or a permutation")
        ("pattern", po::value<std::vector<std::string>>()->composing(),
         "build: tiles of one pattern, e.g. 1,2,3 (repeat for a partition)")
        ("kind", po::value<std::string>(), "build: additive | full (default: additive; full with --metric mtm)")
        ("metric", po::value<std::string>(),
         "build: stm | mtm: what one move is (mtm: 1..k tiles of a row or column; full tables only)")
        ("name", po::value<std::string>(), "build: name of a custom set (default: custom): 1-64 letters, digits, spaces, . _ + -")
        ("out,o", po::value<std::string>(), "build/package: output folder")
        ("encoding", po::value<std::string>()->default_value("zstd"), "build: zstd | raw")
        ("entries", po::value<std::string>(),
         "build/pack/unpack: compact (4 bits per entry; the default for STM tables) | byte (the default "
         "and the only coding for MTM tables; pack/unpack: keep the tables' own when not given)")
        ("level", po::value<int>()->default_value(0), "build/pack: zstd level 1..22 (0 = default 3)")
        ("max-memory", po::value<std::string>(), "build: refuse to start above this peak (e.g. 4G; 0 = the memory available, the default)")
        ("force", "build: rebuild tables already present and valid")
        ("no-wait", "build, pack, unpack: when another build holds the folder written to, exit 6 at once instead of waiting")
        ("checkpoint", po::value<std::string>(),
         "build: save each finished BFS layer in DIR; the same command resumes from it (any rank count)")
        ("against", po::value<std::string>(), "verify: reference manifest (file or folder) whose checksums must match")
        ("jobs,j", po::value<int>()->default_value(0),
         "threads, 0 to 1024 (0 = one per CPU this process may run on; more than those CPUs are "
         "not started, with a note on stderr)")
        ("quiet,q", "no progress or notes on stderr");
    return d;
}
}  // namespace

uint64_t parse_bytes(const std::string& s) {
    size_t i = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == 0 || i > 15) throw UsageError("bad memory size '" + s + "' (e.g. 4G, 512M)");
    uint64_t v = std::stoull(s.substr(0, i));
    std::string unit = s.substr(i);
    for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (unit == "" || unit == "B") return v;
    if (unit == "K" || unit == "KB" || unit == "KIB") return v << 10;
    if (unit == "M" || unit == "MB" || unit == "MIB") return v << 20;
    if (unit == "G" || unit == "GB" || unit == "GIB") return v << 30;
    throw UsageError("bad memory size '" + s + "' (e.g. 4G, 512M)");
}

std::string command_help(const std::string& command) {
    static const std::map<std::string, std::string> usage = {
        {"build", "pdbgen build --preset NAME --out DIR | --size WxH --pattern 1,2,3 [--pattern ...] --out DIR\n"
                  "Builds a set of tables (and its manifest) into DIR. --metric mtm builds full tables that count\n"
                  "multi-tile moves (for the multi-tile metric; additive tables do not add up there)."},
        {"presets", "pdbgen presets\nLists the presets with their entries, estimated build time, memory and disk."},
        {"info", "pdbgen info FILE|DIR\nDescribes a table (header, value histogram) or a set folder."},
        {"verify", "pdbgen verify FILE|DIR [--against REF]\nChecks headers, checksums and table invariants."},
        {"pack", "pdbgen pack FILE|DIR [OUT]\nRe-encodes tables as zstd (in place without OUT)."},
        {"unpack", "pdbgen unpack FILE|DIR [OUT]\nRe-encodes tables as raw, memory-mappable files."},
        {"package", "pdbgen package SET_DIR --out DIR\nMakes DIR/loyd-pdb-NAME_VERSION_all.deb and "
                    "loyd-pdb-NAME-VERSION.tar.gz:\nthe set checked, its tables zstd-compressed, installing into "
                    "share/loyd/pdb/NAME."}};
    const auto it = usage.find(command);
    if (it == usage.end()) throw UsageError("unknown command '" + command + "'");
    std::ostringstream os;
    os << "Usage: " << it->second << "\n\nOptions:\n";
    // The options whose description names this command ("build:", "build/pack:"), and the
    // ones every command takes (no prefix).
    const po::options_description all = visible();  // kept alive for the loop
    for (const auto& o : all.options()) {
        const std::string& d = o->description();
        const auto colon = d.find(':');
        const std::string scope = colon == std::string::npos || colon > 12 ? "" : d.substr(0, colon);
        bool mine = scope.empty();
        for (size_t a = 0, b; !scope.empty() && a <= scope.size(); a = b + 1) {
            b = scope.find('/', a);
            if (b == std::string::npos) b = scope.size();
            mine |= scope.substr(a, b - a) == command;
        }
        if (mine) os << "  " << std::left << std::setw(26) << o->format_name() << " " << d << "\n";
    }
    return os.str();
}

std::string short_usage() {
    return "Usage: pdbgen COMMAND [OPTIONS] [PATH]...\n"
           "(commands: build, presets, info, verify, pack, unpack, package)\n"
           "Try 'pdbgen --help' for more.\n";
}

std::string help_text() {
    std::ostringstream os;
    os << "Usage: pdbgen COMMAND [OPTIONS] [PATH]...\n"
          "Builds, inspects and checks pattern databases for loyd's solver.\n\n"
          "Examples:\n"
          "  pdbgen build --preset 15-7-8 --out ~/.local/share/loyd/pdb/15-7-8\n"
          "  pdbgen verify ~/.local/share/loyd/pdb/15-7-8 --against data/reference/15-7-8.manifest.txt\n"
          "  pdbgen info ~/.local/share/loyd/pdb/15-7-8\n"
          "  mpirun -np 4 pdbgen build --preset 15-7-8 --out tables/15-7-8 --checkpoint ckpt\n"
          "  pdbgen build --preset 15-mtm-6-6 --out ~/.local/share/loyd/pdb/15-mtm-6-6   # multi-tile metric\n\n"
          "Commands:\n"
          "  build --preset NAME --out DIR      build a preset set into DIR\n"
          "  build --size WxH [--goal G] --pattern 1,2,3 [--pattern ...] [--kind K] [--metric M] --out DIR\n"
          "                                     build a custom set\n"
          "  presets                            list the presets\n"
          "  info FILE|DIR                      a table's header and value histogram, or a set's tables\n"
          "  verify FILE|DIR [--against REF]    check headers, checksums and table invariants\n"
          "  pack FILE|DIR [OUT]                re-encode tables as zstd (in place without OUT)\n"
          "  unpack FILE|DIR [OUT]              re-encode tables as raw (memory-mappable)\n"
          "  package DIR --out OUT              a .deb and a .tar.gz installing the set for the solver\n\n"
       << visible()
       << "\nExit status: 0 ok, 1 a table failed verification, 2 usage error, 3 not enough\n"
          "memory, 4 file error, 5 internal error, 6 output folder busy (--no-wait),\n"
          "130 interrupted.\n"
          "A set built into $XDG_DATA_HOME/loyd/pdb (default ~/.local/share/loyd/pdb) or a folder\n"
          "of $LOYD_PDB_PATH is found by the solver without options.\n"
          "Under mpirun (-np N, N > 1) `build` splits each table over the ranks, one thread each\n"
          "(start one rank per core); rank 0 writes the files, byte-identical to a one-process\n"
          "build. `pdbgen --version` says whether MPI is built in.\n";
    return os.str();
}

Options parse_options(int argc, char** argv) {
    po::options_description all = visible();
    all.add_options()("args", po::value<std::vector<std::string>>(), "args");
    po::positional_options_description pos;
    pos.add("args", -1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    Options o;
    o.help = vm.count("help") > 0;
    o.version = vm.count("version") > 0;
    std::vector<std::string> args;
    if (vm.count("args")) args = vm["args"].as<std::vector<std::string>>();
    if (!args.empty()) {
        o.command = args[0];
        o.paths.assign(args.begin() + 1, args.end());
    }
    if (vm.count("preset")) o.preset = vm["preset"].as<std::string>();
    if (vm.count("size")) o.size = vm["size"].as<std::string>();
    o.goal = vm["goal"].as<std::string>();
    if (vm.count("pattern")) o.patterns = vm["pattern"].as<std::vector<std::string>>();
    if (vm.count("kind")) o.kind = vm["kind"].as<std::string>();
    if (vm.count("metric")) o.metric = vm["metric"].as<std::string>();
    if (vm.count("name")) o.name = vm["name"].as<std::string>();
    if (vm.count("out")) o.out = vm["out"].as<std::string>();
    o.encoding = vm["encoding"].as<std::string>();
    if (vm.count("entries")) o.entries = vm["entries"].as<std::string>();
    o.level = vm["level"].as<int>();
    if (vm.count("max-memory")) o.max_memory = parse_bytes(vm["max-memory"].as<std::string>());
    o.force = vm.count("force") > 0;
    o.no_wait = vm.count("no-wait") > 0;
    if (vm.count("checkpoint")) {
        o.checkpoint = vm["checkpoint"].as<std::string>();
        if (o.checkpoint.empty()) throw UsageError("--checkpoint needs a folder");
    }
    if (vm.count("against")) o.against = vm["against"].as<std::string>();
    o.threads = vm["jobs"].as<int>();
    if (o.threads < 0 || o.threads > 1024) throw UsageError("--jobs must be between 0 and 1024");
    if (o.level < 0 || o.level > 22) throw UsageError("--level must be between 1 and 22 (0 = default)");
    o.quiet = vm.count("quiet") > 0;
    return o;
}

}  // namespace loyd::pdbgen
