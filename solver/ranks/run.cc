#include "solver/ranks/run.h"

#include <algorithm>
#include <iostream>
#include <thread>

#include "loyd/base/error.h"
#include "program/exit_status.h"
#include "program/signals.h"
#include "solver/commands.h"
#include "solver/ranks/batch.h"
#include "solver/ranks/split.h"
#include "solver/run/tables.h"

namespace loyd::solver {

RankRun::RankRun(base::Collective& world, const Request& req, std::function<void(int)> abort,
                 int cpus)
    : world_(world), abort_(std::move(abort)) {
    cpus = std::max(1, cpus);
    if (req.jobs > 0) {
        const base::ThreadCount t = base::cap_threads(req.jobs, cpus);
        threads_ = t.threads;
        if (t.capped)
            cap_note_ = "-j " + std::to_string(req.jobs) + " is more than the " +
                        std::to_string(cpus) + (cpus == 1 ? " CPU" : " CPUs") +
                        " available; using " + std::to_string(threads_);
    } else {
        // The machine's cores shared among its ranks, within the CPUs this rank may use (one
        // when mpirun binds each rank to a core).
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        threads_ = std::max(1, std::min(cpus, cores / std::max(1, world.node_size())));
    }
    total_threads_ = static_cast<int>(world.sum(static_cast<uint64_t>(threads_)));
}

void RankRun::start(RunMode mode) {
    RankMessage m;
    m.kind = RankKind::Start;
    m.mode = mode;
    for (int r = 1; r < size(); ++r) send(r, m);
    busy_ = true;
}

void RankRun::send(int dest, const RankMessage& m) {
    world_.post(dest, kRankTag, encode(m));
}

std::optional<std::pair<int, RankMessage>> RankRun::poll() {
    if (held_) {
        std::optional<std::pair<int, RankMessage>> m = std::move(held_);
        held_.reset();
        return m;
    }
    std::optional<base::Collective::Message> m = world_.poll(kRankTag);
    if (!m) return std::nullopt;
    return std::make_pair(m->source, decode(m->data, m->source));
}

RankMessage RankRun::wait() {
    base::PollBackoff idle;
    for (;;) {
        if (auto m = poll()) {
            if (m->first != 0)
                throw FormatError("solver message from rank " + std::to_string(m->first) +
                                  ": not expected on rank " + std::to_string(rank()));
            return std::move(m->second);
        }
        std::this_thread::sleep_for(idle.next());
    }
}

void RankRun::fatal(std::exception_ptr e) {
    const program::Failure f = program::failure_of(e, "solver", program::interrupted());
    std::cerr << "solver: rank " << rank() << ": " << f.message << std::endl;
    abort_(f.status);
    std::abort();  // abort_ does not return
}

int RankRun::finish(int status, const std::string& message) {
    if (rank() != 0) {
        if (!message.empty()) {  // rank 0 does not know: the job ends here
            std::cerr << "solver: rank " << rank() << ": " << message << std::endl;
            abort_(status);
        }
        world_.flush();
        return status;
    }
    if (!message.empty()) std::cerr << "solver: " << message << "\n";
    if (size() > 1) {
        if (busy_) {  // the others are in the middle of the run: only ending the job stops them
            std::cerr << "solver: ending every rank (status " << status << ")" << std::endl;
            abort_(status);
        }
        RankMessage end;
        end.kind = RankKind::End;
        end.status = status;
        for (int r = 1; r < size(); ++r) send(r, end);
    }
    world_.flush();
    return status;
}

int serve_rank(const Request& req, RankRun& run, std::ostream& err) {
    Tables tables(req, err);
    search::SolveOptions base = req.search;
    base.threads = 1;
    for (;;) {
        RankMessage m = run.wait();
        switch (m.kind) {
            case RankKind::Start:
                if (m.mode == RunMode::Batch) serve_batch(run, tables, base);
                break;
            case RankKind::Split: follow_split(run, tables, base, m.items.at(0)); break;
            case RankKind::End: return m.status;
            case RankKind::Interrupt: break;  // after this rank's share of a batch: nothing to stop
            default:
                throw FormatError("solver message from rank 0: kind " +
                                  std::to_string(static_cast<int>(m.kind)) +
                                  " not expected on rank " + std::to_string(run.rank()));
        }
    }
}

}  // namespace loyd::solver
