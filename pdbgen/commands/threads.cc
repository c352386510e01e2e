#include "pdbgen/commands/threads.h"

#include "loyd/base/thread_count.h"

namespace loyd::pdbgen {

int thread_count(const Options& o) {
    return base::cap_threads(o.threads, base::usable_cpus()).threads;
}

void note_thread_cap(const Options& o, std::ostream& err) {
    const int cpus = base::usable_cpus();
    const base::ThreadCount t = base::cap_threads(o.threads, cpus);
    if (!t.capped || o.quiet) return;
    err << "pdbgen: -j " << o.threads << " is more than the " << cpus
        << (cpus == 1 ? " CPU" : " CPUs") << " available; using " << t.threads << "\n";
}

}  // namespace loyd::pdbgen
