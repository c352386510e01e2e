#include "loyd/mpi/communicator.h"

#include <climits>

namespace loyd::mpi {

namespace {

constexpr int kCollectiveTag = 0;

void check(int rc, const char* call) {
    if (rc == MPI_SUCCESS) return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    throw MpiError(std::string(call) + " failed: " + std::string(msg, static_cast<size_t>(len)));
}

int int_count(uint64_t n, const char* call) {
    if (n > static_cast<uint64_t>(INT_MAX))
        throw LimitError(std::string(call) + ": " + std::to_string(n) +
                         " bytes is more than MPI's int counts allow");
    return static_cast<int>(n);
}

}  // namespace

Communicator::Communicator(MPI_Comm comm) {
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
    MPI_Comm node = MPI_COMM_NULL;
    check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
          "MPI_Comm_split_type");
    const int rc = MPI_Comm_size(node, &node_size_);
    MPI_Comm_free(&node);
    check(rc, "MPI_Comm_size");
}

Communicator::~Communicator() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void Communicator::all_to_all(const std::vector<std::span<const uint8_t>>& send,
                              std::vector<uint8_t>& recv, std::vector<uint64_t>& recv_bytes) {
    if (send.size() != static_cast<size_t>(size_))
        throw UsageError("all_to_all: one buffer per rank expected");
    std::vector<long long> out_counts(static_cast<size_t>(size_)),
        in_counts(static_cast<size_t>(size_));
    for (int i = 0; i < size_; ++i)
        out_counts[static_cast<size_t>(i)] =
            static_cast<long long>(send[static_cast<size_t>(i)].size());
    check(MPI_Alltoall(out_counts.data(), 1, MPI_LONG_LONG, in_counts.data(), 1, MPI_LONG_LONG,
                       comm_),
          "MPI_Alltoall");
    std::vector<int> sc(static_cast<size_t>(size_)), sd(static_cast<size_t>(size_)),
        rc(static_cast<size_t>(size_)), rd(static_cast<size_t>(size_));
    std::vector<uint8_t> out;
    uint64_t total_out = 0, total_in = 0;
    for (size_t i = 0; i < sc.size(); ++i) {
        sd[i] = int_count(total_out, "MPI_Alltoallv");
        sc[i] = int_count(static_cast<uint64_t>(out_counts[i]), "MPI_Alltoallv");
        total_out += static_cast<uint64_t>(out_counts[i]);
        rd[i] = int_count(total_in, "MPI_Alltoallv");
        rc[i] = int_count(static_cast<uint64_t>(in_counts[i]), "MPI_Alltoallv");
        total_in += static_cast<uint64_t>(in_counts[i]);
    }
    int_count(total_out, "MPI_Alltoallv");
    int_count(total_in, "MPI_Alltoallv");
    out.reserve(total_out);
    for (const auto& s : send) out.insert(out.end(), s.begin(), s.end());
    recv.resize(total_in);
    check(MPI_Alltoallv(out.data(), sc.data(), sd.data(), MPI_BYTE, recv.data(), rc.data(),
                        rd.data(), MPI_BYTE, comm_),
          "MPI_Alltoallv");
    recv_bytes.assign(in_counts.begin(), in_counts.end());
}

void Communicator::all_reduce(uint64_t* values, size_t n, base::ReduceOp op) {
    const MPI_Op o = op == base::ReduceOp::Sum   ? MPI_SUM
                     : op == base::ReduceOp::Max ? MPI_MAX
                                                 : MPI_MIN;
    check(
        MPI_Allreduce(MPI_IN_PLACE, values, int_count(n, "MPI_Allreduce"), MPI_UINT64_T, o, comm_),
        "MPI_Allreduce");
}

void Communicator::broadcast(std::string& bytes, int root) {
    unsigned long long n = bytes.size();
    check(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, comm_), "MPI_Bcast");
    bytes.resize(n);
    check(MPI_Bcast(bytes.data(), int_count(n, "MPI_Bcast"), MPI_BYTE, root, comm_), "MPI_Bcast");
}

void Communicator::send(int dest, const uint8_t* data, size_t n) {
    check(MPI_Send(data, int_count(n, "MPI_Send"), MPI_BYTE, dest, kCollectiveTag, comm_),
          "MPI_Send");
}

void Communicator::recv(int source, uint8_t* data, size_t n) {
    MPI_Status st;
    check(MPI_Recv(data, int_count(n, "MPI_Recv"), MPI_BYTE, source, kCollectiveTag, comm_, &st),
          "MPI_Recv");
    int got = 0;
    check(MPI_Get_count(&st, MPI_BYTE, &got), "MPI_Get_count");
    if (static_cast<size_t>(got) != n)
        throw MpiError("MPI_Recv: " + std::to_string(got) + " bytes from rank " +
                       std::to_string(source) + ", expected " + std::to_string(n));
}

void Communicator::post(int dest, int tag, std::vector<uint8_t> data) {
    if (tag < 1 || tag > 32767)
        throw UsageError("post: tag " + std::to_string(tag) + " outside 1..32767");
    retire_sends();
    Posted p{MPI_REQUEST_NULL, std::move(data)};
    check(MPI_Isend(p.data.data(), int_count(p.data.size(), "MPI_Isend"), MPI_BYTE, dest, tag,
                    comm_, &p.request),
          "MPI_Isend");
    posted_.push_back(std::move(p));  // the vector's heap buffer does not move with it
}

std::optional<base::Collective::Message> Communicator::poll(int tag) {
    retire_sends();
    int arrived = 0;
    MPI_Status st;
    check(MPI_Iprobe(MPI_ANY_SOURCE, tag, comm_, &arrived, &st), "MPI_Iprobe");
    if (!arrived) return std::nullopt;
    int n = 0;
    check(MPI_Get_count(&st, MPI_BYTE, &n), "MPI_Get_count");
    Message m;
    m.source = st.MPI_SOURCE;
    m.data.resize(static_cast<size_t>(n));
    check(MPI_Recv(m.data.data(), n, MPI_BYTE, m.source, tag, comm_, MPI_STATUS_IGNORE),
          "MPI_Recv");
    return m;
}

void Communicator::retire_sends() {
    for (size_t i = 0; i < posted_.size();) {
        int done = 0;
        check(MPI_Test(&posted_[i].request, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done) {
            posted_[i] = std::move(posted_.back());
            posted_.pop_back();
        } else {
            ++i;
        }
    }
}

void Communicator::flush() {
    for (auto& p : posted_) check(MPI_Wait(&p.request, MPI_STATUS_IGNORE), "MPI_Wait");
    posted_.clear();
}

}  // namespace loyd::mpi
