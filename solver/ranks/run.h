// One run of the solver on its ranks (`mpirun -np N solver ...`; one rank without a launcher).
//
// Every rank reads the same command line into the same request (so a usage error is the same
// everywhere and each rank exits with it, rank 0 alone printing), then agrees on the search
// threads (this rank's: -j, but never more than the CPUs it may run on; else the cores of its
// machine divided among the ranks on it, within those CPUs). Rank
// 0 reads the input and runs the command; the others serve it (serve_rank): rank 0 tells them
// the mode (Start), they search what it sends, and at the end rank 0 sends the exit status
// (End), with which every rank exits. Only rank 0 prints.
//
// Errors: an error rank 0 meets while the others wait (the input cannot be opened or read, no
// instance, a limit, invalid lines, an error every rank agreed on) ends every rank cleanly
// with the documented status. A failure only one rank knows about in the middle of the
// exchange (a malformed message, a failed MPI call, an error while the others search) prints
// `solver: rank N: MESSAGE` and aborts the job (MPI_Abort) with its status; a rank that dies
// makes Open MPI end the job, so rank 0 never waits for it forever.
#pragma once

#include <exception>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "loyd/base/collective.h"
#include "loyd/base/thread_count.h"
#include "solver/ranks/messages.h"
#include "solver/request.h"

namespace loyd::solver {

class RankRun {
public:
    // Every rank, at the same point (a collective). `abort` ends the job with a status.
    // `cpus`: the CPUs this rank may run on (tests pass a machine's other than this one).
    RankRun(base::Collective& world, const Request& req, std::function<void(int)> abort,
            int cpus = base::usable_cpus());

    base::Collective& world() { return world_; }
    int rank() const { return world_.rank(); }
    int size() const { return world_.size(); }
    int threads() const { return threads_; }              // this rank's search threads
    int total_threads() const { return total_threads_; }  // every rank's
    // When -j asked for more threads than this rank's CPUs: the note saying so ("-j 1024 is
    // more than the 2 CPUs available; using 2"), for stderr; else empty.
    const std::string& cap_note() const { return cap_note_; }

    // Rank 0: tells the others the mode; they are busy until idle().
    void start(RunMode mode);
    void idle() { busy_ = false; }
    uint64_t next_seq() { return ++seq_; }  // a number for an instance handed out

    void send(int dest, const RankMessage& m);
    // The next solver message that arrived, and its source; FormatError when malformed.
    std::optional<std::pair<int, RankMessage>> poll();
    // Waits (polling) for the next message from rank 0.
    RankMessage wait();
    // Gives a message read too early back: the next poll() or wait() returns it first.
    void hold(int source, RankMessage m) { held_.emplace(source, std::move(m)); }

    // A failure the other ranks do not know about, in the middle of the exchange: prints it
    // (naming this rank) and aborts the job with its status.
    [[noreturn]] void fatal(std::exception_ptr e);

    // The end of a run on this rank, once `program` returned `status` or threw (`message`):
    // rank 0 prints the message and sends every other rank the status (or aborts when they are
    // busy); another rank returns the status rank 0 sent, or aborts on its own error.
    int finish(int status, const std::string& message);

private:
    base::Collective& world_;
    std::function<void(int)> abort_;
    int threads_ = 1, total_threads_ = 1;
    std::string cap_note_;
    bool busy_ = false;
    uint64_t seq_ = 0;
    std::optional<std::pair<int, RankMessage>> held_;
};

// Every rank but 0: serves rank 0 until it ends the run; returns the status it sent.
int serve_rank(const Request& req, RankRun& run, std::ostream& err);

}  // namespace loyd::solver
