#include "tests/korf100.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace loyd::test {

std::string source_path(const std::string& relative) {
    return std::string(LOYD_SOURCE_DIR) + "/" + relative;
}

std::vector<KorfInstance> load_korf100() {
    const std::string path = source_path("data/korf100.tsv");
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::vector<KorfInstance> out;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cols;
        std::stringstream ss(line);
        for (std::string col; std::getline(ss, col, '\t');) cols.push_back(col);
        auto bad = [&] {
            return std::runtime_error(path + ":" + std::to_string(n) + ": bad line");
        };
        if (cols.size() != 5) throw bad();
        KorfInstance k;
        k.id = std::stoi(cols[0]);
        std::stringstream ts(cols[1]);
        for (int t; ts >> t;) k.tiles.push_back(t);
        if (k.tiles.size() != 16 || !ts.eof()) throw bad();
        k.manhattan = std::stoi(cols[2]);
        k.optimal = std::stoi(cols[3]);
        k.nodes = std::stoull(cols[4]);
        out.push_back(k);
    }
    return out;
}

std::vector<KorfInstance> load_korf100_easiest_first() {
    std::vector<KorfInstance> korf = load_korf100();
    std::sort(korf.begin(), korf.end(), [](auto& a, auto& b) { return a.nodes < b.nodes; });
    return korf;
}

}  // namespace loyd::test
