#include "loyd/tables/table_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <system_error>
#include <utility>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"

namespace loyd {

namespace {

[[noreturn]] void bad_format(const std::string& path, const std::string& msg) {
    throw FormatError(path + ": " + msg);
}
[[noreturn]] void io_fail(const std::string& path, const std::string& what, int e) {
    throw IoError(path + ": " + what + ": " + std::generic_category().message(e));
}

// An owned file descriptor.
class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    // Closes now and reports the result (close can report delayed write errors).
    int close() {
        int r = ::close(fd_);
        fd_ = -1;
        return r;
    }

private:
    int fd_;
};

Fd open_for_reading(const std::string& path) {
    int fd;
    do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) io_fail(path, "cannot open for reading", errno);
    return Fd(fd);
}

uint64_t file_size_of(const Fd& fd, const std::string& path) {
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) io_fail(path, "cannot stat", errno);
    if (!S_ISREG(st.st_mode)) throw IoError(path + ": cannot read: not a regular file");
    return static_cast<uint64_t>(st.st_size);
}

void read_exact(const Fd& fd, uint8_t* buf, uint64_t n, uint64_t offset, const std::string& path) {
    while (n > 0) {
        ssize_t r = ::pread(fd.get(), buf, n, static_cast<off_t>(offset));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) io_fail(path, "cannot read", errno);
        if (r == 0) throw IoError(path + ": cannot read: file shrank while being read");
        buf += r;
        n -= static_cast<uint64_t>(r);
        offset += static_cast<uint64_t>(r);
    }
}

struct HeaderRead {
    PdbHeader header;
    uint64_t file_size;
};

HeaderRead read_header_from(const Fd& fd, const std::string& path) {
    const uint64_t file_size = file_size_of(fd, path);
    std::array<uint8_t, kPdbRawPayloadOffset> buf{};
    const uint64_t avail = std::min<uint64_t>(file_size, buf.size());
    read_exact(fd, buf.data(), avail, 0, path);
    return {parse_header(buf.data(), avail, file_size, path), file_size};
}

struct CCtxDeleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct Xxh3Deleter {
    void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};

struct Frame {
    uint64_t size;
    uint64_t xxh3;  // of the frame's bytes
};

// Compresses `data` as one zstd frame (content size and content checksum recorded,
// single-threaded so the bytes depend only on the input and level) appended to `out`.
Frame append_zstd(AtomicFile& out, const uint8_t* data, uint64_t size, int level,
                  const std::string& path) {
    std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx(ZSTD_createCCtx());
    std::unique_ptr<XXH3_state_t, Xxh3Deleter> hash(XXH3_createState());
    if (!cctx || !hash || XXH3_64bits_reset(hash.get()) != XXH_OK) throw std::bad_alloc();
    auto check = [&](size_t r) {
        if (ZSTD_isError(r)) throw IoError(path + ": cannot write: zstd: " + ZSTD_getErrorName(r));
    };
    check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level));
    check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, 1));
    check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1));
    check(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_nbWorkers, 0));
    check(ZSTD_CCtx_setPledgedSrcSize(cctx.get(), size));
    std::vector<uint8_t> chunk(ZSTD_CStreamOutSize());
    ZSTD_inBuffer in{data, size, 0};
    const uint64_t start = out.end();
    for (;;) {
        ZSTD_outBuffer ob{chunk.data(), chunk.size(), 0};
        const size_t remaining = ZSTD_compressStream2(cctx.get(), &ob, &in, ZSTD_e_end);
        check(remaining);
        out.append(chunk.data(), ob.pos);
        XXH3_64bits_update(hash.get(), chunk.data(), ob.pos);
        if (remaining == 0) break;
    }
    return {out.end() - start, XXH3_64bits_digest(hash.get())};
}

}  // namespace

void write_pdb(const std::string& path, PdbHeader h, const uint8_t* data, uint64_t size,
               PdbEncoding enc, int zstd_level) {
    h.encoding = enc;
    if (size != h.entries)
        throw UsageError(path + ": payload has " + std::to_string(size) +
                         " bytes but the header says " + std::to_string(h.entries) + " entries");
    if (data == nullptr && size > 0) throw UsageError(path + ": payload pointer is null");
    if (std::string p = header_problem(h); !p.empty()) throw UsageError(path + ": " + p);
    if (enc == PdbEncoding::Zstd && (zstd_level < 1 || zstd_level > ZSTD_maxCLevel()))
        throw UsageError(path + ": zstd level " + std::to_string(zstd_level) +
                         " out of range (1.." + std::to_string(ZSTD_maxCLevel()) + ")");

    const size_t slash = path.rfind('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty() || name == "." || name == "..")
        throw UsageError("'" + path + "' does not name a file");

    h.payload_offset = payload_offset_for(enc);
    h.payload_xxh3 = pdb_checksum(data, size);

    AtomicFile out(path);
    if (enc == PdbEncoding::Raw) {
        h.payload_stored_size = size;
        h.stored_xxh3 = h.payload_xxh3;
        std::vector<uint8_t> head(kPdbRawPayloadOffset, 0);
        const PdbHeaderBytes b = encode_header(h);
        std::copy(b.begin(), b.end(), head.begin());
        out.append(head.data(), head.size());
        out.append(data, size);
    } else {
        // The header records the stored size, known only after compressing: write a zero
        // placeholder, the frame, then the header over the placeholder.
        const PdbHeaderBytes zero{};
        out.append(zero.data(), zero.size());
        const Frame frame = append_zstd(out, data, size, zstd_level, path);
        h.payload_stored_size = frame.size;
        h.stored_xxh3 = frame.xxh3;
        const PdbHeaderBytes b = encode_header(h);
        out.write_at(b.data(), b.size(), 0);
    }
    out.commit();
}

PdbHeader read_pdb_header(const std::string& path) {
    Fd fd = open_for_reading(path);
    return read_header_from(fd, path).header;
}

PdbFile PdbFile::open(const std::string& path, bool verify_payload) {
    Fd fd = open_for_reading(path);
    HeaderRead hr = read_header_from(fd, path);
    PdbFile f;
    f.path_ = path;
    f.header_ = std::move(hr.header);
    const PdbHeader& h = f.header_;
    if (h.encoding == PdbEncoding::Raw) {
        // Map the whole file from offset 0 (works for any page size) and point past the header.
        // When the payload is about to be checksummed anyway, map every page in one call
        // (MAP_POPULATE) instead of taking one page fault per 4 KiB.
        void* p = ::mmap(nullptr, hr.file_size, PROT_READ, MAP_SHARED | (verify_payload ? MAP_POPULATE : 0),
                         fd.get(), 0);
        if (p == MAP_FAILED) io_fail(path, "cannot map", errno);
        f.map_ = p;
        f.map_size_ = hr.file_size;
        f.data_ = static_cast<const uint8_t*>(p) + h.payload_offset;
    } else {
        std::vector<uint8_t> frame(h.payload_stored_size);
        read_exact(fd, frame.data(), frame.size(), h.payload_offset, path);
        // Checked before decoding: a zstd decoder ignores some bits (e.g. the frame header's
        // unused bit), so only this hash sees every stored bit.
        if (verify_payload) {
            const uint64_t computed = pdb_checksum(frame.data(), frame.size());
            if (computed != h.stored_xxh3)
                bad_format(path, "stored payload checksum mismatch (header says " +
                                     hex_checksum(h.stored_xxh3) + ", computed " + hex_checksum(computed) + ")");
        }
        const unsigned long long content = ZSTD_getFrameContentSize(frame.data(), frame.size());
        if (content == ZSTD_CONTENTSIZE_ERROR)
            bad_format(path, "zstd payload: not a valid zstd frame header");
        if (content == ZSTD_CONTENTSIZE_UNKNOWN)
            bad_format(path, "zstd payload: frame does not record its content size");
        if (content != h.entries)
            bad_format(path, "zstd payload: frame content size " + std::to_string(content) +
                                 " differs from the entry count " + std::to_string(h.entries));
        const size_t frame_size = ZSTD_findFrameCompressedSize(frame.data(), frame.size());
        if (ZSTD_isError(frame_size))
            bad_format(path, std::string("zstd payload: ") + ZSTD_getErrorName(frame_size));
        if (frame_size != frame.size())
            bad_format(path, "zstd payload: frame is " + std::to_string(frame_size) +
                                 " bytes, header says " + std::to_string(frame.size()));
        f.owned_ = std::make_unique_for_overwrite<uint8_t[]>(h.entries);
        const size_t got = ZSTD_decompress(f.owned_.get(), h.entries, frame.data(), frame.size());
        if (ZSTD_isError(got))
            bad_format(path, std::string("zstd payload: ") + ZSTD_getErrorName(got));
        if (got != h.entries)
            bad_format(path, "zstd payload: decoded " + std::to_string(got) + " bytes, expected " +
                                 std::to_string(h.entries));
        f.data_ = f.owned_.get();
    }
    if (verify_payload) {
        const uint64_t computed = pdb_checksum(f.data_, h.entries);
        if (computed != h.payload_xxh3)
            bad_format(path, "payload checksum mismatch (header says " + hex_checksum(h.payload_xxh3) +
                                 ", computed " + hex_checksum(computed) + ")");
    }
    return f;
}

PdbFile::PdbFile(PdbFile&& o) noexcept
    : path_(std::move(o.path_)),
      header_(std::exchange(o.header_, PdbHeader{})),
      map_(std::exchange(o.map_, nullptr)),
      map_size_(std::exchange(o.map_size_, 0)),
      owned_(std::move(o.owned_)),
      data_(std::exchange(o.data_, nullptr)) {}

PdbFile& PdbFile::operator=(PdbFile&& o) noexcept {
    if (this != &o) {
        release();
        path_ = std::move(o.path_);
        header_ = std::exchange(o.header_, PdbHeader{});
        map_ = std::exchange(o.map_, nullptr);
        map_size_ = std::exchange(o.map_size_, 0);
        owned_ = std::move(o.owned_);
        data_ = std::exchange(o.data_, nullptr);
    }
    return *this;
}

PdbFile::~PdbFile() {
    release();
}

void PdbFile::release() noexcept {
    if (map_ != nullptr) ::munmap(map_, map_size_);
    map_ = nullptr;
    map_size_ = 0;
    owned_.reset();
    data_ = nullptr;
}

void convert_pdb(const std::string& in, const std::string& out, PdbEncoding enc, int zstd_level) {
    const PdbFile f = PdbFile::open(in, true);
    write_pdb(out, f.header(), f.data(), f.size(), enc, zstd_level);
}

}  // namespace loyd
