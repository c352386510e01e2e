// The signals of loyd's programs, handled once for both.
//
//   SIGINT, SIGTERM  set interrupted(): the program stops what it does cleanly (a search with
//                    what it proved, a build before writing) and exits 130. The handlers have
//                    no SA_RESTART, so a read waiting for input returns EINTR and the program
//                    sees the request (base::read_some's `stop`). A second signal
//                    ends the process at once (by that signal's default action), unless it comes
//                    within kRepeatSeconds of the first: that is the same request delivered
//                    twice (`timeout` signals the process and then its process group), ignored.
//   SIGXFSZ          ignored: a write past the file-size limit (`ulimit -f`) fails with EFBIG and
//                    is reported naming its file instead of killing the process
//   SIGBUS           a memory-mapped table truncated or rewritten in place while in use (or a
//                    failing disk): one line on stderr naming the program and the table's file
//                    (found by the faulting address, base/mapped_files.h), then exit 4 (a file
//                    failed), instead of a crash. Tables replaced by rename, as loyd writes them,
//                    never do: the mapping keeps the old file.
#pragma once

#include <atomic>
#include <string_view>

namespace loyd::program {

inline constexpr double kRepeatSeconds = 0.5;

// Set by SIGINT or SIGTERM once install_signal_handlers() ran; never cleared.
std::atomic<bool>& interrupted();

// Installs the handlers above for the program `name` (its SIGBUS line starts "NAME: ").
void install_signal_handlers(std::string_view name);

}  // namespace loyd::program
