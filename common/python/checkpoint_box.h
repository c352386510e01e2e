// The points searches saved (checkpoint=), handed from the searching threads to the Python
// thread that polls: of each instance (by its resume key), the point furthest along put since
// the last take (a batch may hold one instance twice). Thread-safe; put() parses the token and
// inserts it in a map under a mutex, a few times per checkpoint interval.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "loyd/search/resume_point.h"

namespace loyd::python {

class CheckpointBox {
public:
    void put(uint64_t key, const std::string& token) {
        const search::ResumePoint p = search::parse_resume_token(token).point;
        std::lock_guard<std::mutex> lock(mu_);
        auto [it, added] = latest_.try_emplace(key, Held{p, token});
        if (!added && search::further_along(p, it->second.point)) it->second = Held{p, token};
    }
    // The tokens put since the last call (none: empty), in key order.
    std::vector<std::string> take() {
        std::lock_guard<std::mutex> lock(mu_);
        std::vector<std::string> out;
        out.reserve(latest_.size());
        for (auto& [key, held] : latest_) out.push_back(std::move(held.token));
        latest_.clear();
        return out;
    }

private:
    struct Held {
        search::ResumePoint point;
        std::string token;
    };
    std::mutex mu_;
    std::map<uint64_t, Held> latest_;
};

}  // namespace loyd::python
