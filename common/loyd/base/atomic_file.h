// Atomic file replacement: write a temporary file in the target's folder, flush and fsync
// it, rename it over the target, fsync the folder. A reader (or a crash, Ctrl-C or kill at
// any moment) sees the old file or the complete new one, never a mix; the temporary's name
// (".NAME.tmp.PID") never looks like a finished file. Errors throw IoError naming the target.
#pragma once

#include <cstdint>
#include <string>

#include "loyd/base/regular_file.h"

namespace loyd {

class AtomicFile {
public:
    // Creates the temporary file exclusively: if it exists (another writer), IoError. With
    // Links::Follow a symbolic link at `target` is written through (the file it names is
    // replaced); with Links::Refuse the link itself is replaced and what it named is never
    // touched (for files the program owns, such as cache entries).
    explicit AtomicFile(const std::string& target, Links links = Links::Follow);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();  // removes the temporary file unless committed

    void write_at(const uint8_t* p, uint64_t n, uint64_t offset);
    void append(const uint8_t* p, uint64_t n);
    uint64_t end() const { return end_; }
    const std::string& target() const { return target_; }
    // fsync, close, rename over the target, fsync the folder.
    void commit();

private:
    std::string target_, path_, temp_;  // as given; the file it names; the temporary
    int fd_ = -1;
    uint64_t end_ = 0;
    bool committed_ = false;
};

void write_file_atomic(const std::string& path, const std::string& content);


}  // namespace loyd
