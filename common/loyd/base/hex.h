// 64-bit values as 16 hex digits: how checksums (XXH3-64) appear in manifests, checkpoint
// manifests and messages.
//
// hex16 writes 16 lowercase digits, zero-padded ("00000000deadbeef"); messages about the
// table header put "0x" before them. parse_hex16 takes exactly 16 digits, nothing before or
// after (no sign, no "0x", no space), in lowercase only or in either case as the format asks
// (a set manifest takes either, a checkpoint manifest lowercase only), and returns nullopt
// otherwise: the caller names the file and line in its error. Cost: O(16), no allocation
// beyond the returned string.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loyd::base {

std::string hex16(uint64_t v);

enum class HexCase { Lower, Any };
std::optional<uint64_t> parse_hex16(std::string_view text, HexCase letters = HexCase::Any);

}  // namespace loyd::base
