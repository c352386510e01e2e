#include "loyd/tables/set_path.h"

#include <system_error>

#include "loyd/tables/manifest.h"

namespace fs = std::filesystem;

namespace loyd::tables {

bool names_set(const std::string& path) {
    std::error_code ec;
    return fs::is_directory(path, ec) || fs::path(path).filename() == kManifestName;
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
