#include "loyd/tables/set_path.h"

#include <fstream>
#include <string_view>
#include <system_error>

#include "loyd/base/byte_order_mark.h"
#include "loyd/tables/manifest.h"

namespace fs = std::filesystem;

namespace loyd::tables {

bool starts_as_manifest(std::string_view head) {
    head = base::without_bom(head);
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return false;
    head.remove_prefix(first);
    return head.substr(0, 12) == "loyd-pdb-set" || head.front() == '#';
}

namespace {

// Whether the regular file at `path` starts as a manifest does (a FIFO is never opened here).
bool reads_as_manifest(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return false;
    std::ifstream in(path, std::ios::binary);
    char buf[256];
    in.read(buf, sizeof buf);
    return starts_as_manifest(std::string_view(buf, static_cast<size_t>(in.gcount())));
}

}  // namespace

bool names_set(const std::string& path) {
    std::error_code ec;
    return fs::is_directory(path, ec) || fs::path(path).filename() == kManifestName ||
           reads_as_manifest(path);
}

SetPath set_path(const std::string& path) {
    std::error_code ec;
    const fs::path p(path);
    const fs::path manifest = fs::is_directory(p, ec) ? p / kManifestName : p;
    return {manifest.parent_path().empty() ? fs::path(".") : manifest.parent_path(), manifest};
}

bool holds_set(const fs::path& folder) {
    std::error_code ec;
    return fs::exists(folder / kManifestName, ec);
}

}  // namespace loyd::tables
