#include "pdbgen/commands/set_path.h"

#include "loyd/tables/manifest.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

bool names_a_set(const std::string& p) {
    std::error_code ec;
    return fs::is_directory(p, ec) || fs::path(p).filename() == kManifestName;
}

SetPath set_path(const std::string& p) {
    const fs::path path(p);
    std::error_code ec;
    if (fs::is_directory(path, ec)) return {path, path / kManifestName};
    return {path.parent_path().empty() ? fs::path(".") : path.parent_path(), path};
}

}  // namespace loyd::pdbgen
