#include "solver/run/checkpoint.h"

#include <sys/stat.h>

#include <cerrno>
#include <utility>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/regular_file.h"

namespace loyd::solver {

namespace {

// The tokens of an existing checkpoint file (none when it is absent or empty).
std::vector<search::ResumeToken> read_existing(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return {};
    const std::string text = base::read_regular(path, "checkpoint", CheckpointFile::kMaxBytes);
    if (text.empty()) return {};
    const std::string header = CheckpointFile::kHeader;
    if (text.compare(0, header.size(), header) != 0 ||
        (text.size() > header.size() && text[header.size()] != '\n'))
        throw UsageError("--checkpoint " + path +
                         " exists and is not a checkpoint file (its first line is not loyd's "
                         "header): give a new name, or move the file away");
    try {
        return search::find_resume_tokens(text);
    } catch (const UsageError& e) {
        throw UsageError("--checkpoint " + path + ": " + e.what());
    }
}

}  // namespace

CheckpointFile::CheckpointFile(std::string path, const search::ResumeBook* given, std::ostream& err)
    : path_(std::move(path)), err_(err) {
    if (path_.empty()) throw UsageError("--checkpoint needs a file name");
    std::vector<search::ResumeToken> known = read_existing(path_);
    if (given) {
        const std::vector<search::ResumeToken> more = given->points();
        known.insert(known.end(), more.begin(), more.end());
    }
    for (const search::ResumeToken& t : known) {
        auto [it, added] = points_.try_emplace(t.key);
        if (added || search::further_along(t.point, it->second.point))
            it->second = Held{t.point, search::resume_token(t.point, t.key)};
    }
    const std::lock_guard<std::mutex> lock(m_);
    write();
    warned_ = false;
}

void CheckpointFile::save(const std::string& token, bool held_only) {
    const search::ResumeToken t = search::parse_resume_token(token);
    const std::lock_guard<std::mutex> lock(m_);
    if (held_only && !points_.count(t.key)) return;
    auto [it, added] = points_.try_emplace(t.key);
    if (!added && !search::further_along(t.point, it->second.point)) return;
    it->second = Held{t.point, token};
    try {
        write();
    } catch (const IoError& e) {
        if (warned_) return;
        warned_ = true;
        err_ << "solver: " << e.what() << "; the searches go on without their checkpoint\n"
             << std::flush;
    }
}

size_t CheckpointFile::size() const {
    const std::lock_guard<std::mutex> lock(m_);
    return points_.size();
}

void CheckpointFile::write() {
    std::string text = std::string(kHeader) + "\n";
    for (const auto& [key, held] : points_) text += held.token + "\n";
    base::write_file_atomic(path_, text);
}

}  // namespace loyd::solver
