// Messages between ranks, field by field: a writer that appends little-endian integers and
// length-prefixed strings to a byte vector, and a reader that takes them back with every
// length checked.
//
// Contract: a message starts with a version byte and a kind byte (`WireWriter(version, kind)`,
// `WireReader::kind()`); the reader refuses another version, a field that runs past the end,
// a string longer than its limit and bytes left over (`finish()`) with FormatError naming
// the message (`what`) and the field. So a malformed or foreign message is an error, never an
// out-of-bounds read or an absurd allocation. Cost: one pass over the bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/little_endian.h"

namespace loyd::base {

class WireWriter {
public:
    WireWriter(uint8_t version, uint8_t kind) { bytes_ = {version, kind}; }
    WireWriter& u8(uint8_t v) {
        bytes_.push_back(v);
        return *this;
    }
    WireWriter& u32(uint32_t v) { return le(v, 4); }
    WireWriter& u64(uint64_t v) { return le(v, 8); }
    WireWriter& i32(int32_t v) { return le(static_cast<uint32_t>(v), 4); }
    WireWriter& f64(double v) {
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return le(bits, 8);
    }
    WireWriter& str(const std::string& s) {
        u32(static_cast<uint32_t>(s.size()));
        bytes_.insert(bytes_.end(), s.begin(), s.end());
        return *this;
    }
    WireWriter& raw(const uint8_t* p, size_t n) {
        bytes_.insert(bytes_.end(), p, p + n);
        return *this;
    }
    std::vector<uint8_t> take() { return std::move(bytes_); }

private:
    WireWriter& le(uint64_t v, int n) {
        append_le(bytes_, v, n);
        return *this;
    }
    std::vector<uint8_t> bytes_;
};

class WireReader {
public:
    // `what` names the message in errors ("solver message from rank 2").
    WireReader(const std::vector<uint8_t>& bytes, uint8_t version, std::string what)
        : b_(bytes), what_(std::move(what)) {
        need(2, "header");
        if (b_[0] != version)
            fail("version " + std::to_string(b_[0]) + ", expected " + std::to_string(version));
        kind_ = b_[1];
        at_ = 2;
    }
    uint8_t kind() const { return kind_; }
    uint8_t u8(const char* field) {
        need(1, field);
        return b_[at_++];
    }
    uint32_t u32(const char* field) { return static_cast<uint32_t>(le(4, field)); }
    uint64_t u64(const char* field) { return le(8, field); }
    int32_t i32(const char* field) { return static_cast<int32_t>(u32(field)); }
    double f64(const char* field) {
        const uint64_t bits = le(8, field);
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    std::string str(const char* field, size_t max_length) {
        const uint32_t n = u32(field);
        if (n > max_length)
            fail(std::string(field) + " of " + std::to_string(n) + " bytes (at most " +
                 std::to_string(max_length) + ")");
        need(n, field);
        std::string s(reinterpret_cast<const char*>(b_.data() + at_), n);
        at_ += n;
        return s;
    }
    const uint8_t* raw(size_t n, const char* field) {
        need(n, field);
        const uint8_t* p = b_.data() + at_;
        at_ += n;
        return p;
    }
    // The message must end here.
    void finish() const {
        if (at_ != b_.size()) fail(std::to_string(b_.size() - at_) + " bytes after the last field");
    }
    [[noreturn]] void fail(const std::string& why) const {
        throw FormatError(what_ + " (kind " + std::to_string(kind_) + "): " + why);
    }

private:
    void need(size_t n, const char* field) const {
        if (b_.size() - at_ < n) fail(std::string("ends inside ") + field);
    }
    uint64_t le(int n, const char* field) {
        need(static_cast<size_t>(n), field);
        const uint64_t v = load_le(b_.data() + at_, n);
        at_ += static_cast<size_t>(n);
        return v;
    }
    const std::vector<uint8_t>& b_;
    std::string what_;
    size_t at_ = 0;
    uint8_t kind_ = 0;
};

}  // namespace loyd::base
