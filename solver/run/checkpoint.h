// solve --checkpoint FILE: resume points kept on disk while the searches run, so that a run
// killed without a chance to print its tokens (SIGKILL, an out-of-memory kill, a power cut, a
// scheduler's hard limit) loses at most --checkpoint-every seconds of each search.
//
// The file holds a header line and then one resume token per line (search/resume_point.h), so
// `--resume FILE` reads it as it reads any output. It holds the furthest point known of every
// search of this run that reached a checkpoint or stopped with a token, and every point it held
// already or that --resume gave: a point is only ever replaced by one further along, never
// dropped. A solved instance's point is the one its search returned with the solution
// (SearchResult::solved_point), so that a run taken up from the file finds that answer again at
// once instead of searching for it. Each change rewrites the file atomically
// (base/atomic_file.h): a pause's point at once; the tokens of searches stopped by a limit
// (which the run prints too) and the solved points with the next write, which a thread of the
// file's makes at most `every` seconds after their save, and at the end of the run (flush): a
// batch of many short searches rewrites the file at most once per interval, and a killed run
// loses at most an interval's points. The file stays under kMaxBytes, the most --checkpoint
// reads back, except for pauses' points: a solved or a limit's point that would pass it is left
// out (said once on `err`); a file read back with more points given by --resume may pass it. A
// file that exists must be one written here (its first line the header) or empty: anything else
// is refused, so an output or an input named by mistake is never overwritten. One run at a
// time: the run holds an flock(2) on `.NAME.lock` beside the file its links lead to (left in
// place, or removed when this run made it and then refused the file; the kernel drops the lock
// however the process ends), and a second run on the same file is refused.
// Thread-safe: the searches of a batch save from their own threads. Cost: one file of about 90
// bytes per point (a solved one: the solution's moves too), rewritten at each save; one thread
// asleep between writes.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

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
    // on `err` and the run goes on. `every`: the searches' checkpoint interval in seconds
    // (> 0, else UsageError), the longest a point not written at once waits.
    CheckpointFile(std::string path, const search::ResumeBook* given, double every,
                   std::ostream& err);
    ~CheckpointFile();  // flushes (errors said, not thrown), ends its thread, lets the lock go
    CheckpointFile(const CheckpointFile&) = delete;
    CheckpointFile& operator=(const CheckpointFile&) = delete;

    // Where a token comes from: a search's pause (written at once), a limit's stop, or a
    // solved search (both written with the next write, and kept only while the file stays
    // under kMaxBytes).
    enum class Kind { Pause, Limit, Solved };
    // A search's token: kept when it is further along than the one held for its instance (or
    // there is none), and written as its kind says.
    void save(const std::string& token, Kind kind = Kind::Pause);
    // Writes the points deferred, if any.
    void flush();

    // The lock file of the checkpoint `path`: ".NAME.lock" beside the file it writes to (the
    // end of its links).
    static std::string lock_path(const std::string& path);

private:
    void write();         // with m_ held; a failure said once on err_
    void start_writer();  // IoError when no thread can start
    void write_behind();  // the thread: what is not written yet, within every_ of its save

    struct Held {
        search::ResumePoint point;
        std::string token;
    };
    std::string path_;
    double every_;
    std::ostream& err_;
    base::FileLock lock_;
    std::mutex m_;
    std::map<uint64_t, Held> points_;
    size_t bytes_ = 0;                                  // the file's size with every point held
    bool dirty_ = false;                                // points kept but not yet written
    std::chrono::steady_clock::time_point written_at_;  // the last write (or look: the writer)
    bool warned_ = false, full_ = false;                // (each said once)
    bool ending_ = false;
    std::condition_variable wake_;  // the end
    std::thread writer_;            // (last: started when the rest is ready)
};

}  // namespace loyd::solver
