// `pdbgen package SET --out DIR`: prebuilt tables as a product. The set is loaded (every
// header, checksum and the manifest checked), its tables are staged zstd-compressed under
// usr/share/loyd/pdb/NAME, and two packages are made from the stage with Debian's own tools:
// DIR/loyd-pdb-NAME_VERSION_all.deb (dpkg-deb) and DIR/loyd-pdb-NAME-VERSION.tar.gz (tar).
// Installed, they put the set where an installed solver looks without options.
// Throws IoError when a tool cannot run or fails, FormatError for a set that fails its checks.
#pragma once

#include <ostream>
#include <string>

namespace loyd::pdbgen {

// Returns the paths of the two packages, one per line, written to `out`.
void make_table_packages(const std::string& set_dir, const std::string& out_dir, std::ostream& out);

}  // namespace loyd::pdbgen
