// `pdbgen presets`: the presets with their entries, estimated build time, peak memory and disk.
#include "loyd/tables/presets.h"

#include <iomanip>

#include "loyd/tables/discover.h"
#include "pdbgen/commands.h"
#include "program/numbers.h"

namespace loyd::pdbgen {

int run_presets(const Context& c) {
    using program::bytes;
    std::ostream& out = c.out;
    out << std::left << std::setw(14) << "preset" << std::right << std::setw(14) << "entries"
        << std::setw(10) << "~build" << std::setw(12) << "peak RAM" << std::setw(11) << "raw disk"
        << "  about\n";
    for (const auto& n : tables::preset_names()) {
        const tables::BuildCost cost = tables::estimate_build_cost(tables::preset(n));
        out << std::left << std::setw(14) << n << std::right << std::setw(14)
            << program::thousands(cost.entries) << std::setw(10)
            << program::duration(cost.minutes * 60) << std::setw(12) << bytes(cost.peak_bytes)
            << std::setw(11) << bytes(cost.disk_bytes) << "  " << tables::preset_description(n)
            << "\n";
    }
    out << "~build: estimated at " << tables::kBuildSecondsPerEntry * 1e6
        << " microseconds per entry (" << tables::kBuildSecondsPerEntryLarge * 1e6
        << " for tables above " << (tables::kLargeTableEntries >> 20)
        << " Mi entries), the rates measured\non the build machine with 2 threads "
           "(docs/benchmarks.md); peak RAM: the bound the builder plans its\ndata by (a real "
           "build's "
           "peak stays at or below it, plus the few MiB of the process itself); raw\ndisk: compact "
           "entries (STM) or one byte each (MTM); zstd files take a quarter of the raw size or "
           "less.\n";
    return kExitOk;
}

}  // namespace loyd::pdbgen
