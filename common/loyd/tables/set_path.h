// Where a table set lives. A set is a folder holding its manifest, manifest.txt
// (tables/manifest.h), beside the table files the manifest names; users name a set by its
// folder or by its manifest file.
//
// - names_set(path): whether a path given as "a table file or a set" names a set: a folder,
//   a file called manifest.txt, or a regular file whose text starts as a manifest's does
//   ("loyd-pdb-set" or a '#' comment; a table file starts with its magic): anything else is
//   one table file.
// - set_path(path): the set's folder and manifest file. For a folder, its manifest.txt; any
//   other path is the manifest itself (whatever its name), in its own folder ("." for a bare
//   file name).
// - holds_set(folder): whether a folder holds a set (has a manifest.txt).
// - starts_as_manifest(head): whether a file's first bytes start as a manifest's do: after a
//   byte order mark and white space, "loyd-pdb-set" or a '#' comment (a table file starts with
//   its magic, LOYDPDB). names_set and the play page's uploads tell manifests by it.
// Only file metadata is read, and the first 256 bytes of a regular file names_set is not sure
// of; an error reading them counts as "no" (opening the path later says why). Cost: one or
// two stat calls, at most one short read; nothing throws.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace loyd::tables {

struct SetPath {
    std::filesystem::path dir;
    std::filesystem::path manifest;
};

bool names_set(const std::string& path);
SetPath set_path(const std::string& path);
bool holds_set(const std::filesystem::path& folder);
bool starts_as_manifest(std::string_view head);

}  // namespace loyd::tables
