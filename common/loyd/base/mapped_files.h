// Which file a memory address belongs to, answerable from a signal handler.
//
// A mapped file that is truncated (or whose disk fails) while in use makes the next read of a
// lost page raise SIGBUS, and the handler can only say which file that was by finding the
// faulting address among the mappings, without allocating or taking a lock. So the owner of a
// mapping (tables::PdbFile) records its address range and the file's name as messages print it
// (loyd::one_line, base/error.h) here, a fixed array of slots, and removes it before unmapping;
// file_at() reads the slots with atomic loads only (async-signal-safe). program/signals.cc's SIGBUS
// line names the file this way.
//
// Contract: add() copies the name (cut to kMaxName bytes) into a free slot and returns its
// number, or -1 when all kMaxMappings slots are taken (the mapping then stays unnamed: a
// SIGBUS on it names no file). remove(slot) frees it; remove(-1) does nothing. A slot is read
// only while it is marked complete; one freed and filled again during a scan could mix two
// records, which takes a table unmapped while another thread faults on it (loyd unmaps a
// table only once no search reads it). Cost: a scan of the slots.
#pragma once

#include <cstddef>
#include <string_view>

namespace loyd::base::mapped_files {

inline constexpr int kMaxMappings = 64;
inline constexpr std::size_t kMaxName = 1024;

// Records [begin, begin + size) as a mapping of the file named `name`; its slot, or -1.
int add(const void* begin, std::size_t size, std::string_view name) noexcept;
// Forgets the mapping recorded in `slot` (-1: none).
void remove(int slot) noexcept;
// The name recorded for the mapping that holds `address`, or an empty view when none does.
// Async-signal-safe; the view stays valid while that mapping is recorded.
std::string_view file_at(const void* address) noexcept;

}  // namespace loyd::base::mapped_files
