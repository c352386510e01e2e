// Build tool: writes the play page, one self-contained HTML file (solver/play/page.cmake).
//
// Usage: assemble_page OUT VERSION PAGE.html PAGE.css PAGE.js WORKER.js ENGINE.js ENGINE.wasm
//        SET_DIR...
// PAGE.html holds the markers <!--LOYD:STYLE-->, <!--LOYD:DATA-->, <!--LOYD:SCRIPT--> and
// {{VERSION}}. The style and the page script go inline; DATA becomes inert <script> elements
// the page reads: the worker's source (the engine's JavaScript, then WORKER.js), the engine's
// WebAssembly (base64) and, for each SET_DIR (manifest.txt and FILE.pdb.gz), its manifest and
// its gzip-compressed tables (base64). Inline text that could end its element early ("</" of a
// closing tag, "<!--") is refused, so the page is well formed by construction. Writes OUT.tmp
// and renames it; exit 1 with a one-line message on any failure.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open");
    std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error(path + ": cannot read");
    return s;
}

std::string base64(const std::string& bytes) {
    static constexpr char kDigits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t n = std::min<size_t>(3, bytes.size() - i);
        uint32_t v = 0;
        for (size_t k = 0; k < 3; ++k)
            v = v << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        for (size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(v >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

// `text` from `path`, checked to stay inside its element (no "</" + tag letter, no "<!--").
std::string inline_text(const std::string& text, const std::string& path) {
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    for (size_t at = lower.find("</"); at != std::string::npos; at = lower.find("</", at + 1))
        if (at + 2 < lower.size() && std::isalpha(static_cast<unsigned char>(lower[at + 2])))
            throw std::runtime_error(path +
                                     ": holds '</' before a tag name, which would end its element");
    if (lower.find("<!--") != std::string::npos) throw std::runtime_error(path + ": holds '<!--'");
    return text;
}

void replace_marker(std::string& page, const std::string& marker, const std::string& with) {
    const size_t at = page.find(marker);
    if (at == std::string::npos) throw std::runtime_error("the page template has no " + marker);
    page.replace(at, marker.size(), with);
}

std::string set_elements(const fs::path& dir) {
    const std::string name = dir.filename().string();
    std::string out =
        "<script type=\"text/plain\" class=\"loyd-set\" data-set=\"" + name + "\">" +
        inline_text(read_file((dir / "manifest.txt").string()), (dir / "manifest.txt").string()) +
        "</script>\n";
    std::vector<fs::path> tables;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".gz") tables.push_back(e.path());
    std::sort(tables.begin(), tables.end());
    if (tables.empty()) throw std::runtime_error(dir.string() + ": no table");
    for (const fs::path& t : tables)
        out += "<script type=\"application/octet-stream\" class=\"loyd-table\" data-set=\"" + name +
               "\" data-file=\"" + t.stem().string() + "\" data-encoding=\"gzip\">" +
               base64(read_file(t.string())) + "</script>\n";
    return out;
}

void assemble(int argc, char** argv) {
    if (argc < 9)
        throw std::runtime_error(
            "usage: assemble_page OUT VERSION PAGE.html PAGE.css PAGE.js WORKER.js ENGINE.js "
            "ENGINE.wasm SET_DIR...");
    const std::string out = argv[1];
    std::string page = read_file(argv[3]);
    for (size_t at; (at = page.find("{{VERSION}}")) != std::string::npos;)
        page.replace(at, 11, argv[2]);
    replace_marker(page, "<!--LOYD:STYLE-->",
                   "<style>" + inline_text(read_file(argv[4]), argv[4]) + "</style>");
    std::string data = "<script type=\"text/plain\" id=\"loyd-worker\">" +
                       inline_text(read_file(argv[7]), argv[7]) + "\n" +
                       inline_text(read_file(argv[6]), argv[6]) +
                       "</script>\n<script type=\"application/octet-stream\" id=\"loyd-wasm\">" +
                       base64(read_file(argv[8])) + "</script>\n";
    for (int i = 9; i < argc; ++i) data += set_elements(argv[i]);
    replace_marker(page, "<!--LOYD:DATA-->", data);
    replace_marker(
        page, "<!--LOYD:SCRIPT-->",
        "<script id=\"loyd-main\">" + inline_text(read_file(argv[5]), argv[5]) + "</script>");
    const std::string tmp = out + ".tmp";
    fs::create_directories(fs::path(out).parent_path());
    std::ofstream o(tmp, std::ios::binary);
    o << page;
    o.close();
    if (!o) throw std::runtime_error(tmp + ": cannot write");
    fs::rename(tmp, out);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        assemble(argc, argv);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "assemble_page: %s\n", e.what());
        return 1;
    }
}
