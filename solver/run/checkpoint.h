// solve --checkpoint FILE: resume points kept on disk while the searches run, so that a run
// killed without a chance to print its tokens (SIGKILL, an out-of-memory kill, a power cut, a
// scheduler's hard limit) loses at most --checkpoint-every seconds of each search.
//
// The file holds a header line and then one resume token per line (search/resume_point.h), so
// `--resume FILE` reads it as it reads any output. It holds the furthest point known of every
// search of this run that reached a checkpoint or stopped with a token, and every point it held
// already or that --resume gave: a point is only ever replaced by one further along, never
// dropped (a solved instance's last point stays; taken up, it finds its answer again from
// there). Each change rewrites the file atomically (base/atomic_file.h); the tokens of searches
// stopped by a limit, which the run prints too, are written with the next save or at the end of
// the run (flush), so a long batch under a node limit does not rewrite the file for each. A
// file that exists must be one written here (its first line the header) or empty: anything else
// is refused, so an output or an input named by mistake is never overwritten. One run at a
// time: the run holds an flock(2) on `.NAME.lock` beside the file its links lead to (left in
// place, or removed when this run made it and then refused the file; the kernel drops the lock
// however the process ends), and a second run on the same file is refused.
// Thread-safe: the searches of a batch save from their own threads. Cost: one file of about 90
// bytes per instance, rewritten at each save.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <ostream>
#include <string>

#include "loyd/base/file_lock.h"
#include "loyd/search/resume_point.h"

namespace loyd::solver {

class CheckpointFile {
public:
    static constexpr const char* kHeader =
        "# loyd solver checkpoint: the searches' latest points; take them up with --resume "
        "and this file";
    static constexpr size_t kMaxBytes = size_t{64} << 20;

    // Takes the lock (UsageError when another run holds it), reads `path` when it exists
    // (UsageError when it is not a checkpoint file, as for a damaged token; IoError when it
    // cannot be read), adds the points of `given` (may be null), and writes the file (IoError
    // when it cannot be written: the run does not start). Failures to write later are said once
    // on `err` and the run goes on.
    CheckpointFile(std::string path, const search::ResumeBook* given, std::ostream& err);
    ~CheckpointFile();  // flushes (errors said, not thrown) and lets the lock go
    CheckpointFile(const CheckpointFile&) = delete;
    CheckpointFile& operator=(const CheckpointFile&) = delete;

    // A search's token: kept when it is further along than the one held for its instance (or
    // there is none); then the file is rewritten, or with `defer` only marked to be (flush).
    void save(const std::string& token, bool defer = false);
    // Writes the points deferred, if any.
    void flush();

    // The lock file of the checkpoint `path`: ".NAME.lock" beside the file it writes to (the
    // end of its links).
    static std::string lock_path(const std::string& path);

private:
    void write();  // with m_ held; a failure said once on err_

    struct Held {
        search::ResumePoint point;
        std::string token;
    };
    std::string path_;
    std::ostream& err_;
    base::FileLock lock_;
    std::mutex m_;
    std::map<uint64_t, Held> points_;
    bool dirty_ = false;  // points kept but not yet written
    bool warned_ = false;
};

}  // namespace loyd::solver
