#include "pdbgen/commands/folder.h"

#include <filesystem>

#include "loyd/base/atomic_file.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

namespace {

// ".NAME.tmp.PID"
bool is_temporary(const std::string& name) {
    const auto tmp = name.rfind(".tmp.");
    return !name.empty() && name[0] == '.' && tmp != std::string::npos && tmp + 5 < name.size() &&
           name.find_first_not_of("0123456789", tmp + 5) == std::string::npos;
}

}  // namespace

void lock_folder(const Context& c, const std::string& dir, std::optional<base::DirLock>& lock) {
    const Options& o = c.options;
    lock.emplace(
        dir, !o.no_wait,
        [&] {
            if (!o.quiet) c.err << "pdbgen: waiting for another build writing into " << dir << "\n";
        },
        &c.interrupted);
}

void remove_build_temporaries(const Context& c, const std::string& dir) {
    std::error_code ec;
    int removed = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!is_temporary(it->path().filename().string())) continue;
        std::error_code rm;
        if (fs::remove(it->path(), rm)) ++removed;
    }
    if (removed && !c.options.quiet)
        c.err << "pdbgen: removed " << removed << " temporary file(s) of an interrupted build in "
              << dir << "\n";
}

void remove_dead_temporaries_in(const Context& c, const std::string& dir) {
    if (const int n = base::remove_dead_temporaries(dir); n > 0 && !c.options.quiet)
        c.err << "pdbgen: removed " << n << " temporary file(s) of an interrupted run in " << dir
              << "\n";
}

}  // namespace loyd::pdbgen
