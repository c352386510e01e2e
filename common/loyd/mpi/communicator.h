// A communicator (MPI_COMM_WORLD or a duplicate) as loyd's Collective, every call checked:
// the communicator returns errors instead of aborting (MPI_ERRORS_RETURN) and each failure is
// thrown as MpiError naming the call and MPI's message. Byte counts above MPI's int range are
// refused (LimitError) rather than truncated; all_to_all and send/recv move bytes.
// The tagged messages of Collective (post, poll) are MPI_Isend (the bytes kept until MPI is
// done with them: a posted message never waits for its receiver, so two ranks posting to each
// other never deadlock) and MPI_Iprobe + MPI_Recv; each call also retires the sends that
// completed, and flush() waits for the rest.
// Contract: as Collective's (every rank calls the collectives in the same order); MPI must be
// initialised and the calls made from the thread that initialised it.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "loyd/base/collective.h"
#include "loyd/mpi/environment.h"

namespace loyd::mpi {

class Communicator final : public base::Collective {
public:
    // Duplicates `comm` (so loyd's messages never mix with the caller's) and sets
    // MPI_ERRORS_RETURN on the duplicate; frees it in the destructor.
    explicit Communicator(MPI_Comm comm);
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;
    ~Communicator() override;

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    int node_size() const override { return node_size_; }  // MPI_Comm_split_type(SHARED)
    void all_to_all(const std::vector<std::span<const uint8_t>>& send, std::vector<uint8_t>& recv,
                    std::vector<uint64_t>& recv_bytes) override;
    void all_reduce(uint64_t* values, size_t n, base::ReduceOp op) override;
    void broadcast(std::string& bytes, int root) override;
    void send(int dest, const uint8_t* data, size_t n) override;
    void recv(int source, uint8_t* data, size_t n) override;

    void post(int dest, int tag, std::vector<uint8_t> data) override;
    std::optional<Message> poll(int tag) override;
    void flush() override;

    MPI_Comm handle() const { return comm_; }

private:
    void retire_sends();  // frees the buffers of the posted messages MPI is done with

    struct Posted {
        MPI_Request request;
        std::vector<uint8_t> data;  // kept alive until the send completes
    };
    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1, node_size_ = 1;
    std::vector<Posted> posted_;
};

}  // namespace loyd::mpi
