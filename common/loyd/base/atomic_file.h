// Atomic file replacement: write a temporary file in the target's folder, flush and fsync
// it, rename it over the target, fsync the folder. A reader (or a crash, Ctrl-C or kill at
// any moment) sees the old file or the complete new one, never a mix; the temporary's name
// (".NAME.tmp.PID") never looks like a finished file. Errors throw IoError naming the target.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "loyd/base/regular_file.h"

namespace loyd::base {

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

// The file a write to `target` through symbolic links lands on (AtomicFile with
// Links::Follow): `target` itself when it is not a link; else the end of its chain of links,
// dangling or not. IoError naming `target` for a loop (40 links) or a link that cannot be read.
std::string link_destination(const std::string& target);

void write_file_atomic(const std::string& path, const std::string& content);

// Why replacing the existing regular file `path` (through links) would go against its owner or
// fail only at the rename, as an errno; 0 when nothing stands in the way that this can see (a
// new file, a folder, a device: AtomicFile says what is wrong with those). EACCES: this process
// may not write to the file (AtomicFile would still replace it through a folder that takes new
// files; a program writing a user's file refuses, as cp or an editor would); EPERM: the file is
// immutable, or sits in a sticky folder (as /tmp) and belongs to another user, so the rename
// would fail after the work; EROFS: a read-only mount. Cost: two or three stat calls.
int replace_denied(const std::string& path);

// The last steps of commit() for a file finished by other means (a table checked under a
// temporary name before it takes its own): renames `from`, a file in the destination's folder,
// over `target`, resolved as AtomicFile resolves it with `links` (a device, a FIFO or a folder
// there is refused), and fsyncs the folder. IoError naming `target`; on failure `from` stays.
void rename_into_place(const std::string& from, const std::string& target,
                       Links links = Links::Follow);

// The temporary file beside `path` that this process writes it under:
// "FOLDER/.NAME<kind>.tmp.PID" (kind: "" for AtomicFile, e.g. ".resumed" for a file checked
// before it takes its name). temporary_writer() reads the PID back.
std::string temporary_path(const std::string& path, const std::string& kind = "");

// The writer's process id in a temporary file's name (".NAME.tmp.PID"), or 0 when `name` is
// not one.
long temporary_writer(const std::string& name);

// Removes the temporary files of tables and manifests in `folder` (".NAME.pdb.tmp.PID",
// ".NAME.pdb.resumed.tmp.PID", ".manifest.txt.tmp.PID", and those of the names in `keep`;
// regular files only) whose writer is gone (a user's ".thesis.docx.tmp.PID" is not ours): no
// process has that PID (kill(PID, 0) fails with ESRCH). A live PID keeps its file, even a reused
// one, so another writer's work is never removed; links and other files are left alone, and so are
// the names in `keep` (a set's manifest may name a table so). Returns how many were removed. Cost:
// one directory scan.
int remove_dead_temporaries(const std::string& folder, const std::set<std::string>& keep = {});

// Removes the temporary files of `path` (".NAME.tmp.PID" beside it, regular files) whose
// writer is gone, this process's own among them: for a writer that holds a lock on `path`, so
// that no live writer's temporary can be there (one killed while it wrote, with any PID, is).
// Returns how many were removed. Cost: one directory scan.
int remove_stale_temporaries_of(const std::string& path);

}  // namespace loyd::base
