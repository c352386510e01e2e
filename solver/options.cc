#include "solver/options.h"

#include <boost/program_options.hpp>
#include <sstream>

#include "loyd/base/error.h"

namespace po = boost::program_options;

namespace loyd::solver {

namespace {
constexpr uint64_t kDefaultAstarNodes = 20'000'000;

po::options_description visible() {
    po::options_description d("Options");
    d.add_options()
        ("help,h", "print this help and exit")
        ("version,V", "print the version and exit")
        ("input,i", po::value<std::string>(), "read instances from FILE, one per line ('-' = stdin)")
        ("size,s", po::value<std::string>(), "board size WxH (default: inferred for 9, 16, 25 numbers)")
        ("goal,g", po::value<std::string>()->default_value("blank-last"),
         "goal: blank-last (1 2 ... 0), blank-first (0 1 2 ...), or a permutation")
        ("heuristic", po::value<std::string>(),
         "misplaced | manhattan | linear-conflict | pdb (default: pdb when tables are found, "
         "else linear-conflict)")
        ("pdb", po::value<std::string>(), "pattern-database set to use (its folder or manifest)")
        ("cache-dir", po::value<std::string>(),
         "where decoded zstd tables are kept for memory-mapping (default $XDG_CACHE_HOME/loyd; "
         "'none' = no cache)")
        ("lookups", po::value<std::string>(),
         "table lookups combined by max: a comma list of regular, reflected, dual, "
         "dual-reflected, or 'all' (default: regular,reflected)")
        ("no-reflect", "leave out the reflected lookups (regular and dual only)")
        ("no-prune", "IDA*: prune only the parent's inverse move, not the duplicate-move automaton")
        ("no-bpmx", "IDA*: no bidirectional pathmax of inconsistent (dual) values")
        ("jobs,j", po::value<int>()->default_value(0),
         "threads (0 = all cores): instances in parallel, and the search of one instance split "
         "over the threads left when there are fewer instances than threads")
        ("algorithm,a", po::value<std::string>()->default_value("ida"), "ida | astar")
        ("node-limit", po::value<uint64_t>(),
         "stop an instance after N nodes (IDA*: generated; A*: stored; A* default 20000000)")
        ("max-nodes", po::value<uint64_t>(), "same as --node-limit")
        ("time-limit", po::value<double>(), "stop an instance after S seconds")
        ("show", "print the board after every move")
        ("no-progress", "no progress line on a terminal during a long single solve")
        ("quiet,q", "no hints on stderr (errors are still reported)")
        ("html", po::value<std::string>(),
         "also write FILE: one self-contained HTML page replaying the instances solved")
        ("json", "one JSON object per instance");
    return d;
}
}  // namespace

std::string help_text() {
    std::ostringstream os;
    os << "Usage: solver [OPTIONS] [INSTANCE]...\n"
          "Examples:\n"
          "  solver 8 6 7 2 5 4 3 0 1                        a 3x3, goal 1 2 ... 8 0\n"
          "  solver --goal blank-first --input korf100.txt   one instance per line\n"
          "  solver --json --html replay.html 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13\n\n"
          "Solves sliding-tile puzzles optimally. An instance is W*H numbers (0 = blank),\n"
          "row-major, separated by spaces or commas; several numbers given as separate\n"
          "arguments form one instance. Without INSTANCE or --input, reads standard input.\n"
          "Moves are the directions the blank moves: U D L R.\n\n"
       << visible()
       << "\nExit status: 0 all solved or proven unsolvable, 1 an instance line was invalid,\n"
          "2 usage error, 3 a limit was reached, 4 file error, 5 internal error.\n"
          "Environment: LOYD_PDB_PATH (colon-separated folders of table sets, searched first),\n"
          "XDG_DATA_HOME (sets in $XDG_DATA_HOME/loyd/pdb, default ~/.local/share/loyd/pdb),\n"
          "XDG_CACHE_HOME (decoded tables in $XDG_CACHE_HOME/loyd unless --cache-dir).\n";
    return os.str();
}

Options parse_options(int argc, char** argv) {
    po::options_description all = visible();
    all.add_options()("instance", po::value<std::vector<std::string>>(), "instance");
    po::positional_options_description pos;
    pos.add("instance", -1);
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
    if (vm.count("instance")) o.instances = vm["instance"].as<std::vector<std::string>>();
    if (vm.count("input")) o.input = vm["input"].as<std::string>();
    if (vm.count("size")) o.size = vm["size"].as<std::string>();
    o.goal = vm["goal"].as<std::string>();
    if (vm.count("heuristic")) o.heuristic = vm["heuristic"].as<std::string>();
    o.algorithm = vm["algorithm"].as<std::string>();
    o.show = vm.count("show") > 0;
    o.quiet_progress = vm.count("no-progress") > 0;
    o.quiet = vm.count("quiet") > 0;
    if (vm.count("html")) {
        o.html = vm["html"].as<std::string>();
        if (o.html.empty()) throw UsageError("--html needs a file name");
    }
    if (vm.count("pdb")) o.pdb = vm["pdb"].as<std::string>();
    if (vm.count("cache-dir")) o.cache_dir = vm["cache-dir"].as<std::string>();
    if (vm.count("lookups")) o.lookups = vm["lookups"].as<std::string>();
    o.no_reflect = vm.count("no-reflect") > 0;
    o.no_prune = vm.count("no-prune") > 0;
    o.no_bpmx = vm.count("no-bpmx") > 0;
    o.jobs = vm["jobs"].as<int>();
    if (o.jobs < 0 || o.jobs > 1024) throw UsageError("--jobs must be between 0 and 1024");
    o.json = vm.count("json") > 0;
    if (vm.count("node-limit") && vm.count("max-nodes"))
        throw UsageError("give only one of --node-limit and --max-nodes");
    if (vm.count("node-limit")) o.node_limit = vm["node-limit"].as<uint64_t>();
    if (vm.count("max-nodes")) o.node_limit = vm["max-nodes"].as<uint64_t>();
    if (!o.node_limit && o.algorithm == "astar") o.node_limit = kDefaultAstarNodes;
    if (vm.count("time-limit")) {
        o.time_limit = vm["time-limit"].as<double>();
        if (!(o.time_limit > 0)) throw UsageError("--time-limit must be a positive number of seconds");
    }
    if (!o.input.empty() && !o.instances.empty())
        throw UsageError("give instances as arguments or with --input, not both");
    return o;
}

}  // namespace loyd::solver
