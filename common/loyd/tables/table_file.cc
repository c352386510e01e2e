#include "loyd/tables/table_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <system_error>
#include <utility>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/fd_input.h"
#include "loyd/base/hex.h"
#include "loyd/base/mapped_files.h"
#include "loyd/base/regular_file.h"
#include "loyd/tables/entry_coding.h"

namespace loyd::tables {

namespace {

[[noreturn]] void bad_format(const std::string& path, const std::string& msg) {
    throw FormatError(path + ": " + msg);
}
[[noreturn]] void io_fail(const std::string& path, const std::string& what, int e) {
    throw IoError(path + ": " + what + ": " + std::generic_category().message(e), e);
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

// A regular file only, opened without blocking (a FIFO in a table's place is refused at once).
Fd open_for_reading(const std::string& path, base::Links links = base::Links::Follow) {
    return Fd(open_regular(path, "table", links));
}

// `bytes` bytes of memory for the table at `path`, or IoError naming the table and the
// memory it needs (a crafted or simply too large table, never "std::bad_alloc").
// More than the machine's physical memory is refused before asking for it (an absurd request
// is never made; sanitizer allocators abort on those instead of throwing).
std::unique_ptr<uint8_t[]> memory_for(const std::string& path, uint64_t bytes,
                                      const char* purpose) {
    auto refuse = [&] {
        char mib[64];
        std::snprintf(mib, sizeof mib, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
        return IoError(path + ": not enough memory to " + purpose + ": it needs " +
                       std::to_string(bytes) + " bytes (" + mib + ")");
    };
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 &&
        bytes / static_cast<uint64_t>(page) >= static_cast<uint64_t>(pages))
        throw refuse();
    try {
        return std::make_unique_for_overwrite<uint8_t[]>(bytes);
    } catch (const std::bad_alloc&) {
        throw refuse();
    }
}

uint64_t file_size_of(const Fd& fd, const std::string& path) {
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) io_fail(path, "cannot stat", errno);
    if (!S_ISREG(st.st_mode)) throw IoError(path + ": cannot read: not a regular file");
    return static_cast<uint64_t>(st.st_size);
}

struct HeaderRead {
    PdbHeader header;
    uint64_t file_size;
};

HeaderRead read_header_from(const Fd& fd, const std::string& path) {
    const uint64_t file_size = file_size_of(fd, path);
    std::array<uint8_t, kPdbRawPayloadOffset> buf{};
    const uint64_t avail = std::min<uint64_t>(file_size, buf.size());
    // Without read-ahead: pages read ahead now would be cached in small folios and keep a
    // table's later mapping out of huge pages (advise_huge_pages below).
    ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_RANDOM);
    base::read_exact_at(fd.get(), buf.data(), avail, 0, path);
    ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_NORMAL);
    return {parse_header(buf.data(), avail, file_size, path), file_size};
}

struct CCtxDeleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct Xxh3Deleter {
    void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};
using Xxh3State = std::unique_ptr<XXH3_state_t, Xxh3Deleter>;

Xxh3State new_xxh3() {
    Xxh3State s(XXH3_createState());
    if (!s || XXH3_64bits_reset(s.get()) != XXH_OK) throw std::bad_alloc();
    return s;
}

constexpr uint64_t kZstdFeed = 1 << 20;   // the frame is always fed in pieces of this size
constexpr uint64_t kRawPiece = 64 << 20;  // raw payloads are written in pieces of at most this

// Advice for a table's mapping, before its first access: transparent huge pages, so a file not
// yet in the page cache is read into 2 MiB folios that the search's random lookups reach through
// one TLB entry each (docs/benchmarks.md, "Tables mapped in huge pages"); a file already cached
// in small pages stays as it is. Then, when the payload is about to be checksummed anyway, every
// page is mapped in one call instead of one fault per page. Both are advice: a kernel without
// them (EINVAL) leaves the pages to be faulted in as they are read.
void advise_huge_pages(void* p, uint64_t size, bool populate) {
    ::madvise(p, size, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_READ
    if (populate) ::madvise(p, size, MADV_POPULATE_READ);
#else
    (void)populate;
#endif
}

}  // namespace

// Raw: the header's page is written as zeros first and overwritten at the end; zstd: a zero
// header, then the frame (content size and checksum flags set, single-threaded so the bytes
// depend only on the input and level), then the real header over the placeholder.
struct PdbWriter::Impl {
    PdbHeader h;
    PdbEncoding enc;
    base::AtomicFile out;
    Xxh3State payload_hash = new_xxh3();
    Xxh3State stored_hash = new_xxh3();
    uint64_t appended = 0;
    const std::atomic<bool>* cancel = nullptr;
    std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx;
    std::vector<uint8_t> staged, chunk;

    Impl(const std::string& path, const PdbHeader& header, PdbEncoding e, base::Links links)
        : h(header), enc(e), out(path, links) {}

    void check_cancel() const {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw CancelledError(out.target() + ": writing cancelled");
    }
    void check(size_t r) const {
        if (ZSTD_isError(r))
            throw IoError(out.target() + ": cannot write: zstd: " + ZSTD_getErrorName(r));
    }
    // Compresses `staged` (ZSTD_e_end at the end of the payload) and appends the output.
    void feed(bool last) {
        ZSTD_inBuffer in{staged.data(), staged.size(), 0};
        for (;;) {
            ZSTD_outBuffer ob{chunk.data(), chunk.size(), 0};
            const size_t remaining =
                ZSTD_compressStream2(cctx.get(), &ob, &in, last ? ZSTD_e_end : ZSTD_e_continue);
            check(remaining);
            out.append(chunk.data(), ob.pos);
            XXH3_64bits_update(stored_hash.get(), chunk.data(), ob.pos);
            if (last ? remaining == 0 : in.pos == in.size) break;
        }
        staged.clear();
    }
};

PdbWriter::PdbWriter(const std::string& path, PdbHeader h, PdbEncoding enc, int zstd_level,
                     base::Links links) {
    h.encoding = enc;
    if (std::string p = header_problem(h); !p.empty()) throw UsageError(path + ": " + p);
    if (enc == PdbEncoding::Zstd && (zstd_level < 1 || zstd_level > ZSTD_maxCLevel()))
        throw UsageError(path + ": zstd level " + std::to_string(zstd_level) +
                         " out of range (1.." + std::to_string(ZSTD_maxCLevel()) + ")");
    const size_t slash = path.rfind('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty() || name == "." || name == "..")
        throw UsageError("'" + path + "' does not name a file");
    h.payload_offset = payload_offset_for(enc, h.coding);
    impl_ = std::make_unique<Impl>(path, h, enc, links);
    const std::vector<uint8_t> head(h.payload_offset, 0);
    impl_->out.append(head.data(), head.size());
    if (enc == PdbEncoding::Zstd) {
        impl_->cctx.reset(ZSTD_createCCtx());
        if (!impl_->cctx) throw std::bad_alloc();
        ZSTD_CCtx* c = impl_->cctx.get();
        impl_->check(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, zstd_level));
        impl_->check(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1));
        impl_->check(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1));
        impl_->check(ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, 0));
        impl_->check(ZSTD_CCtx_setPledgedSrcSize(c, payload_bytes(h)));
        impl_->staged.reserve(kZstdFeed);
        impl_->chunk.resize(ZSTD_CStreamOutSize());
    }
}

PdbWriter::~PdbWriter() = default;

void PdbWriter::append(const uint8_t* data, uint64_t n) {
    Impl& w = *impl_;
    const uint64_t total = payload_bytes(w.h);
    if (n > total - w.appended)
        throw UsageError(w.out.target() + ": more payload appended than the header's " +
                         std::to_string(total) + " bytes");
    w.appended += n;
    XXH3_64bits_update(w.payload_hash.get(), data, n);
    if (w.enc == PdbEncoding::Raw) {
        for (uint64_t done = 0; done < n;) {  // in pieces, so that a cancel is seen
            w.check_cancel();
            const uint64_t take = std::min<uint64_t>(n - done, kRawPiece);
            w.out.append(data + done, take);
            done += take;
        }
        return;
    }
    while (n > 0) {
        w.check_cancel();
        const uint64_t take = std::min<uint64_t>(n, kZstdFeed - w.staged.size());
        w.staged.insert(w.staged.end(), data, data + take);
        data += take;
        n -= take;
        if (w.staged.size() == kZstdFeed && w.appended - n < total) w.feed(false);
    }
}

void PdbWriter::cancel_on(const std::atomic<bool>* flag) {
    impl_->cancel = flag;
}

PdbHeader PdbWriter::finish() {
    Impl& w = *impl_;
    w.check_cancel();
    if (w.appended != payload_bytes(w.h))
        throw UsageError(w.out.target() + ": payload has " + std::to_string(w.appended) +
                         " bytes but the header says " + std::to_string(payload_bytes(w.h)));
    PdbHeader& h = w.h;
    h.payload_xxh3 = XXH3_64bits_digest(w.payload_hash.get());
    if (w.enc == PdbEncoding::Raw) {
        h.payload_stored_size = payload_bytes(h);
        h.stored_xxh3 = h.payload_xxh3;
    } else {
        w.feed(true);
        h.payload_stored_size = w.out.end() - h.payload_offset;
        h.stored_xxh3 = XXH3_64bits_digest(w.stored_hash.get());
    }
    w.check_cancel();  // (the last zstd piece may have taken a while)
    const PdbHeaderBytes b = encode_header(h);
    w.out.write_at(b.data(), b.size(), 0);
    w.out.commit();
    return h;
}

void write_pdb(const std::string& path, PdbHeader h, const uint8_t* data, uint64_t size,
               PdbEncoding enc, int zstd_level, base::Links links,
               const std::atomic<bool>* cancel) {
    if (size != payload_bytes(h))
        throw UsageError(path + ": payload has " + std::to_string(size) +
                         " bytes but the header says " + std::to_string(payload_bytes(h)));
    if (data == nullptr && size > 0) throw UsageError(path + ": payload pointer is null");
    PdbWriter w(path, h, enc, zstd_level, links);
    w.cancel_on(cancel);
    w.append(data, size);
    w.finish();
}

PdbHeader read_pdb_header(const std::string& path) {
    Fd fd = open_for_reading(path);
    return read_header_from(fd, path).header;
}

void verify_stored_payload(const std::string& path, const PdbHeader& expected) {
    Fd fd = open_for_reading(path);
    const PdbHeader h = read_header_from(fd, path).header;
    if (h.stored_xxh3 != expected.stored_xxh3 || h.payload_xxh3 != expected.payload_xxh3 ||
        h.payload_stored_size != expected.payload_stored_size)
        bad_format(path, "changed while it was being loaded");
    Xxh3State hash = new_xxh3();
    std::vector<uint8_t> piece(std::min<uint64_t>(kZstdFeed, h.payload_stored_size));
    for (uint64_t at = 0; at < h.payload_stored_size; at += piece.size()) {
        const uint64_t n = std::min<uint64_t>(piece.size(), h.payload_stored_size - at);
        base::read_exact_at(fd.get(), piece.data(), n, h.payload_offset + at, path);
        XXH3_64bits_update(hash.get(), piece.data(), n);
    }
    const uint64_t computed = XXH3_64bits_digest(hash.get());
    if (computed != h.stored_xxh3)
        bad_format(path, "stored payload checksum mismatch (header says 0x" +
                             base::hex16(h.stored_xxh3) + ", computed 0x" + base::hex16(computed) +
                             ")");
}

PdbFile PdbFile::open(const std::string& path, bool verify_payload, base::Links links,
                      const std::function<void(const PdbHeader&)>& check) {
    Fd fd = open_for_reading(path, links);
    HeaderRead hr = read_header_from(fd, path);
    if (check) check(hr.header);
    PdbFile f;
    f.path_ = path;
    f.header_ = std::move(hr.header);
    const PdbHeader& h = f.header_;
    if (h.encoding == PdbEncoding::Raw) {
        // Map the whole file from offset 0 (works for any page size) and point past the header.
        void* p = ::mmap(nullptr, hr.file_size, PROT_READ, MAP_SHARED, fd.get(), 0);
        if (p == MAP_FAILED) io_fail(path, "cannot map", errno);
        advise_huge_pages(p, hr.file_size, verify_payload);
        f.stamp_ = base::file_identity(fd.get()).value_or(base::FileIdentity{});
        f.map_ = p;
        f.map_size_ = hr.file_size;
        f.map_slot_ = base::mapped_files::add(p, hr.file_size, one_line(path));
        f.data_ = static_cast<const uint8_t*>(p) + h.payload_offset;
    } else {
        struct Frame {
            std::unique_ptr<uint8_t[]> bytes;
            uint64_t n;
            uint8_t* data() { return bytes.get(); }
            uint64_t size() const { return n; }
        } frame{memory_for(path, h.payload_stored_size, "read its payload"), h.payload_stored_size};
        base::read_exact_at(fd.get(), frame.data(), frame.size(), h.payload_offset, path);
        // Checked before decoding: a zstd decoder ignores some bits (e.g. the frame header's
        // unused bit), so only this hash sees every stored bit.
        if (verify_payload) {
            const uint64_t computed = pdb_checksum(frame.data(), frame.size());
            if (computed != h.stored_xxh3)
                bad_format(path, "stored payload checksum mismatch (header says 0x" +
                                     base::hex16(h.stored_xxh3) + ", computed 0x" +
                                     base::hex16(computed) + ")");
        }
        const uint64_t decoded = payload_bytes(h);
        const unsigned long long content = ZSTD_getFrameContentSize(frame.data(), frame.size());
        if (content == ZSTD_CONTENTSIZE_ERROR)
            bad_format(path, "zstd payload: not a valid zstd frame header");
        if (content == ZSTD_CONTENTSIZE_UNKNOWN)
            bad_format(path, "zstd payload: frame does not record its content size");
        if (content != decoded)
            bad_format(path, "zstd payload: frame content size " + std::to_string(content) +
                                 " differs from the decoded size " + std::to_string(decoded));
        const size_t frame_size = ZSTD_findFrameCompressedSize(frame.data(), frame.size());
        if (ZSTD_isError(frame_size))
            bad_format(path, std::string("zstd payload: ") + ZSTD_getErrorName(frame_size));
        if (frame_size != frame.size())
            bad_format(path, "zstd payload: frame is " + std::to_string(frame_size) +
                                 " bytes, header says " + std::to_string(frame.size()));
        f.owned_ = memory_for(path, decoded, "decode it");
        const size_t got = ZSTD_decompress(f.owned_.get(), decoded, frame.data(), frame.size());
        if (ZSTD_isError(got))
            bad_format(path, std::string("zstd payload: ") + ZSTD_getErrorName(got));
        if (got != decoded)
            bad_format(path, "zstd payload: decoded " + std::to_string(got) + " bytes, expected " +
                                 std::to_string(decoded));
        f.data_ = f.owned_.get();
    }
    if (verify_payload) {
        const uint64_t computed = pdb_checksum(f.data_, payload_bytes(h));
        if (computed != h.payload_xxh3)
            bad_format(path, "payload checksum mismatch (header says 0x" +
                                 base::hex16(h.payload_xxh3) + ", computed 0x" +
                                 base::hex16(computed) + ")");
        if (h.coding == EntryCoding::Compact)
            if (std::string p = compact_problem(h, f.data_); !p.empty()) bad_format(path, p);
    }
    return f;
}

PdbFile::PdbFile(PdbFile&& o) noexcept
    : path_(std::move(o.path_)),
      header_(std::exchange(o.header_, PdbHeader{})),
      map_(std::exchange(o.map_, nullptr)),
      map_size_(std::exchange(o.map_size_, 0)),
      map_slot_(std::exchange(o.map_slot_, -1)),
      owned_(std::move(o.owned_)),
      data_(std::exchange(o.data_, nullptr)),
      stamp_(o.stamp_) {}

PdbFile& PdbFile::operator=(PdbFile&& o) noexcept {
    if (this != &o) {
        release();
        path_ = std::move(o.path_);
        header_ = std::exchange(o.header_, PdbHeader{});
        map_ = std::exchange(o.map_, nullptr);
        map_size_ = std::exchange(o.map_size_, 0);
        map_slot_ = std::exchange(o.map_slot_, -1);
        owned_ = std::move(o.owned_);
        data_ = std::exchange(o.data_, nullptr);
        stamp_ = o.stamp_;
    }
    return *this;
}

PdbFile::~PdbFile() {
    release();
}

void PdbFile::release() noexcept {
    base::mapped_files::remove(std::exchange(map_slot_, -1));
    if (map_ != nullptr) ::munmap(map_, map_size_);
    map_ = nullptr;
    map_size_ = 0;
    owned_.reset();
    data_ = nullptr;
}

std::string PdbFile::rewritten() const {
    if (map_ == nullptr) return "";
    const std::optional<base::FileIdentity> now = base::file_identity(path_);
    if (!now || !now->same_file(stamp_)) return "";
    if (now->size != stamp_.size)
        return "its size went from " + std::to_string(stamp_.size) + " to " +
               std::to_string(now->size) + " bytes";
    if (now->mtime_ns != stamp_.mtime_ns) return "it was modified";
    return "";
}

void convert_pdb(const std::string& in, const std::string& out, PdbEncoding enc, int zstd_level,
                 const std::atomic<bool>* cancel) {
    const PdbFile f = PdbFile::open(in, true);
    write_pdb(out, f.header(), f.data(), f.payload_size(), enc, zstd_level, base::Links::Follow,
              cancel);
}

PdbHeader write_table(const std::string& path, PdbHeader h, const TableEntries& e, PdbEncoding enc,
                      int zstd_level, const std::atomic<bool>* cancel, base::Links links) {
    h.layout = e.layout;
    h.entries = e.count;
    h.coding = e.coding;
    h.bits_per_entry = e.coding == EntryCoding::Compact ? 4 : 8;
    h.exceptions = e.coding == EntryCoding::Compact ? e.exceptions.size() : 0;
    h.exception_slots = exception_slots(h.exceptions);
    if (const std::string why = header_problem(h); !why.empty())
        throw UsageError(path + ": " + std::to_string(e.count) + " " + to_string(e.layout) +
                         " entries do not fit the header: " + why);
    const uint64_t want = e.coding == EntryCoding::Compact ? (e.count + 1) / 2 : e.count;
    if (e.bytes.size() != want)
        throw UsageError(path + ": " + std::to_string(e.bytes.size()) + " entry bytes, expected " +
                         std::to_string(want));
    PdbWriter w(path, h, enc, zstd_level, links);
    w.cancel_on(cancel);
    w.append(e.bytes.data(), e.bytes.size());
    if (e.coding == EntryCoding::Compact) {
        const std::vector<uint8_t> pad(nibble_bytes(e.count) - want, 0);
        w.append(pad.data(), pad.size());
        const std::vector<uint8_t> slots = exception_table_bytes(e.exceptions, path);
        w.append(slots.data(), slots.size());
    }
    return w.finish();
}

}  // namespace loyd::tables
