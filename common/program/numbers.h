// Numbers as loyd's programs write them for people (messages, summaries, progress lines):
// counts with thousands separators, sizes in binary units, durations (checksums in hex:
// base/hex.h).
// Machine-read output (a record's seconds, JSON) keeps plain digits and is not written here.
#pragma once

#include <cstdint>
#include <string>

namespace loyd::program {

// 1234567 -> "1,234,567"; 999 -> "999".
std::string thousands(uint64_t n);

// A size: below 1 KiB in whole bytes ("1 B"), below 1 MiB in KiB with one decimal ("1.5 KiB",
// "512.0 KiB"), else in MiB ("20.0 MiB", "3584.0 MiB"): one unit for every table size, so sizes
// compare at a glance.
std::string bytes(uint64_t n);

// Elapsed or estimated time: below a minute in whole seconds ("0 s", "42 s"), else in minutes
// with one decimal ("1.5 min", "36.0 min").
std::string duration(double seconds);

// Seconds with `digits` decimals (rounded as printf's %.Nf) and the unit: "12.3 s".
std::string seconds(double s, int digits = 1);

}  // namespace loyd::program
