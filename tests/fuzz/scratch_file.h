// A fuzz target's scratch file: one per process, in $TMPDIR (or /tmp), named after the target
// and the process, removed when the process exits normally (libFuzzer's end of run calls
// exit(), which runs this object's destructor). After a crash the file is left, beside the
// input that caused it.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace loyd::fuzz {

class ScratchFile {
public:
    // The file $TMPDIR/loyd-fuzz-STEM-PID.EXTENSION; nothing is created yet.
    ScratchFile(const std::string& stem, const std::string& extension) {
        const char* dir = std::getenv("TMPDIR");
        path_ = std::string(dir && *dir ? dir : "/tmp");
        path_ += "/loyd-fuzz-";
        path_ += stem;
        path_ += '-';
        path_ += std::to_string(::getpid());
        path_ += '.';
        path_ += extension;
    }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;
    ~ScratchFile() { ::unlink(path_.c_str()); }

    // Replaces the file's content by the bytes given; false if it cannot be written.
    bool write(const uint8_t* data, size_t size) const {
        FILE* f = std::fopen(path_.c_str(), "wb");
        if (!f) return false;
        const bool ok = std::fwrite(data, 1, size, f) == size;
        return std::fclose(f) == 0 && ok;
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace loyd::fuzz
