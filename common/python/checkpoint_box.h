// The points searches saved (checkpoint=), handed from the searching threads to the Python
// thread that polls: the latest of each instance (by its resume key), a later point replacing
// one not yet handed over. Thread-safe; put() costs a map insertion under a mutex, a few times
// per checkpoint interval.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace loyd::python {

class CheckpointBox {
public:
    void put(uint64_t key, const std::string& token) {
        std::lock_guard<std::mutex> lock(mu_);
        latest_[key] = token;
    }
    // The tokens put since the last call (none: empty), in key order.
    std::vector<std::string> take() {
        std::lock_guard<std::mutex> lock(mu_);
        std::vector<std::string> out;
        out.reserve(latest_.size());
        for (auto& [key, token] : latest_) out.push_back(std::move(token));
        latest_.clear();
        return out;
    }

private:
    std::mutex mu_;
    std::map<uint64_t, std::string> latest_;
};

}  // namespace loyd::python
