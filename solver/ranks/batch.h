// A batch over ranks: rank 0 reads the input and hands instances out to the other ranks as
// they ask; each rank searches them with its threads (one instance per thread, as one process
// does with many instances) and sends the results back; rank 0 prints everything in input
// order through the batch's ordered printer, so the output is the one-process output.
//
// Hand-out: a rank asks for more (Request) while it holds fewer instances than half of what
// it asks for (at least one per thread), so it never runs dry while waiting; what it asks for
// grows with the speed of its instances to about 20 ms of work per thread (at most 1,024
// instances a message), so tiny instances cost few messages and hard ones are not hoarded.
// Only instances that need a search travel; rank 0 holds beyond its own window (batch.h) up
// to 2,048 per other rank and 8 per thread of theirs (65,536 in all at most; window_extra),
// so memory stays bounded whatever the input's length. Rank 0 searches too, with its own
// threads. Once a rank's workers have nothing left (rank 0: the input used up; another rank:
// told Drained), each gives its thread to that rank's searches still running
// (search/spare_threads.h).
//
// Interrupts: a rank whose searches a signal stopped (SIGINT, SIGTERM) tells rank 0
// (Interrupt) before its next results (and a result stopped by a signal says so too); rank 0
// takes it as its own signal (no more lines read or handed out, its searches stop) and, once
// its flag is set (its own signal or such a message), tells every other rank
// (Interrupt), whose searches then stop too: a signal to any one rank ends the batch as a
// signal to all does (exit 130). A rank that has sent its last results no longer relays one.
//
// Threads: BatchServer is called from rank 0's printing thread, serve_batch runs on the
// thread that may use MPI; the searches run on worker threads.
#pragma once

#include <unordered_map>
#include <vector>

#include "solver/ranks/run.h"
#include "solver/run/batch.h"
#include "solver/run/tables.h"

namespace loyd::solver {

class BatchServer {
public:
    BatchServer(RankRun& run, TaskWindow& window);
    // How many tasks beyond its own the window must hold for the other ranks.
    size_t window_extra() const;
    // Answers requests, takes in results; true when something happened. Never throws: a
    // malformed message or a failed transport ends the job (RankRun::fatal).
    bool pump();
    // Once the window is empty: answers every other rank until it knows the input is over.
    void finish();

private:
    struct Other {
        uint32_t want = 0;
        bool waiting = false;  // a request not answered yet
        bool drained = false;  // told the input is over
        bool failed = false;   // cannot search (Failed): told the input is over
    };
    void handle(int source, RankMessage& m);
    void serve(int rank);
    void relay_interrupt();

    RankRun& run_;
    TaskWindow& window_;
    std::vector<Other> others_;
    std::unordered_map<uint64_t, Task*> out_;  // handed out, by sequence number
    uint64_t seq_ = 0;
    bool interrupt_sent_ = false;  // every other rank told to stop its searches
};

// Every rank but 0, after Start(Batch): searches what rank 0 hands out until it says the input
// is over and every result is sent.
void serve_batch(RankRun& run, Tables& tables, const search::SolveOptions& base);

// The instance of a task, as sent to another rank (the table set's folder made absolute).
WorkItem work_item(const Task& t, uint64_t seq);

}  // namespace loyd::solver
