#include "loyd/base/collective.h"

#include <cstdint>
#include <cstring>
#include <new>
#include <system_error>

#include "loyd/base/error.h"
#include "loyd/base/thread_group.h"

namespace loyd::base {

namespace {
enum Code : int { kNone = 0, kIo, kFormat, kUsage, kLimit, kBusy, kOther, kCancelled };
}  // namespace

int error_code_of(std::exception_ptr e, std::string& message) {
    if (!e) return kNone;
    try {
        std::rethrow_exception(e);
    } catch (const Error& x) {
        message = x.what();
        if (dynamic_cast<const IoError*>(&x)) return kIo;
        if (dynamic_cast<const FormatError*>(&x)) return kFormat;
        if (dynamic_cast<const UsageError*>(&x)) return kUsage;
        if (dynamic_cast<const CancelledError*>(&x)) return kCancelled;
        if (dynamic_cast<const LimitError*>(&x)) return kLimit;
        if (dynamic_cast<const BusyError*>(&x)) return kBusy;
        return kOther;
    } catch (const std::bad_alloc&) {
        message = "out of memory";
        return kLimit;
    } catch (const std::system_error& x) {  // a thread that could not start: a limit, as at home
        message = x.what();
        if (!no_room_for_thread(x)) return kOther;
        message = "out of resources: " + message;
        return kLimit;
    } catch (const std::exception& x) {
        message = x.what();
        return kOther;
    } catch (...) {
        message = "unknown error";
        return kOther;
    }
}

void throw_error_code(int code, const std::string& message) {
    switch (code) {
        case kIo: throw IoError(message);
        case kFormat: throw FormatError(message);
        case kUsage: throw UsageError(message);
        case kLimit: throw LimitError(message);
        case kCancelled: throw CancelledError(message);
        case kBusy: throw BusyError(message);
        default: throw Error(message);  // reported as an internal error, as at home
    }
}

void Collective::agree(std::exception_ptr local, bool name_rank) {
    std::string message;
    const int code = error_code_of(local, message);
    if (code && name_rank && rank() != 0)
        message = "rank " + std::to_string(rank()) + ": " + message;
    // The lowest failing rank: min over ranks of (rank if failed, else size).
    uint64_t first = code ? static_cast<uint64_t>(rank()) : static_cast<uint64_t>(size());
    all_reduce(&first, 1, ReduceOp::Min);
    if (first == static_cast<uint64_t>(size())) return;
    std::string packet = std::to_string(code) + ":" + message;
    broadcast(packet, static_cast<int>(first));
    const size_t colon = packet.find(':');
    failure_agreed_ = true;
    throw_error_code(std::stoi(packet.substr(0, colon)), packet.substr(colon + 1));
}

int Collective::first_differing(const std::string& mine, std::string& theirs, std::string& root) {
    root = mine;
    broadcast(root, 0);
    uint64_t first = root == mine ? UINT64_MAX : static_cast<uint64_t>(rank());
    all_reduce(&first, 1, ReduceOp::Min);
    if (first == UINT64_MAX) return -1;
    theirs = mine;
    broadcast(theirs, static_cast<int>(first));
    return static_cast<int>(first);
}

void SingleProcess::all_to_all(const std::vector<std::span<const uint8_t>>& send,
                               std::vector<uint8_t>& recv, std::vector<uint64_t>& recv_bytes) {
    if (send.size() != 1) throw UsageError("all_to_all: one buffer per rank expected");
    recv.assign(send[0].begin(), send[0].end());
    recv_bytes.assign(1, send[0].size());
}

void SingleProcess::send(int dest, const uint8_t* data, size_t n) {
    if (dest != 0)
        throw UsageError("send: no rank " + std::to_string(dest) + " in a single process");
    mailbox_.insert(mailbox_.end(), data, data + n);
}

void SingleProcess::recv(int source, uint8_t* data, size_t n) {
    if (source != 0 || n > mailbox_.size())
        throw UsageError("recv: nothing was sent (single process)");
    std::memcpy(data, mailbox_.data(), n);
    mailbox_.erase(mailbox_.begin(), mailbox_.begin() + static_cast<std::ptrdiff_t>(n));
}

void SingleProcess::post(int dest, int tag, std::vector<uint8_t> data) {
    if (dest != 0)
        throw UsageError("post: no rank " + std::to_string(dest) + " in a single process");
    posted_[tag].push_back(std::move(data));
}

std::optional<Collective::Message> SingleProcess::poll(int tag) {
    auto it = posted_.find(tag);
    if (it == posted_.end() || it->second.empty()) return std::nullopt;
    Message m{0, std::move(it->second.front())};
    it->second.pop_front();
    return m;
}

}  // namespace loyd::base
