// Typed errors thrown by the loyd library.
//
// The library never prints or exits: it throws one of these, and the programs map
// them to exit codes (see README.md). Every message names the file, field or input
// line it is about, so it can be printed as is on one line.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace loyd {

// Length of the well-formed UTF-8 sequence (RFC 3629) at text[i], or 0 when none starts there.
inline size_t utf8_length(std::string_view text, size_t i) {
    const auto at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b = at(i);
    if (b < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
    if (b >= 0xC2 && b <= 0xDF)
        n = 2;
    else if (b >= 0xE0 && b <= 0xEF)
        n = 3, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4)
        n = 4, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (i + n > text.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (size_t k = 2; k < n; ++k)
        if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
    return n;
}

// `text` on one printable line: control characters written as \n, \r, \t or \xHH (a NUL as
// \x00), so a message quoting hostile input is neither cut short nor split nor able to drive
// a terminal; a byte that starts no well-formed UTF-8 sequence (0x9b is a terminal's CSI) as
// \xHH; the C1 controls U+0080..U+009F, the line and paragraph separators U+2028 and U+2029
// and the invisible byte order mark as \u0085, \u2028, \ufeff and so on. Other UTF-8 text
// is kept as it is.
inline std::string one_line(const std::string& text) {
    static constexpr char kHex[] = "0123456789abcdef";
    const auto u = [](unsigned cp) {
        std::string e = "\\u";
        for (int shift = 12; shift >= 0; shift -= 4) e += kHex[(cp >> shift) & 15];
        return e;
    };
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const size_t n = utf8_length(text, i);
        if (c >= 0x20 && c < 0x7f) {
            out += text[i];
        } else if (c == '\n' || c == '\r' || c == '\t') {
            out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
        } else if (n <= 1) {  // an ASCII control, DEL, or a byte of no UTF-8 sequence
            out += std::string{'\\', 'x', kHex[c >> 4], kHex[c & 15]};
            i += 1;
            continue;
        } else {
            unsigned cp = c & (0xFF >> (n + 1));
            for (size_t k = 1; k < n; ++k)
                cp = cp << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3F);
            if ((cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF)
                out += u(cp);
            else
                out.append(text, i, n);
            i += n;
            continue;
        }
        ++i;
    }
    return out;
}

// `text` cut to at most `max` bytes for quoting in a message, with "..." when cut: never inside
// a UTF-8 sequence (a character cut in half would make the message invalid UTF-8).
inline std::string clipped(const std::string& text, size_t max) {
    if (text.size() <= max) return text;
    size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    return text.substr(0, n) + "...";
}

// Base of every error the library throws on purpose; its message is one line (one_line).
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& what) : std::runtime_error(one_line(what)) {}
};

// A file could not be opened, read, written, mapped or renamed; code() is the errno value the
// system call gave (ENOENT, EACCES, ...), 0 when none did (a file of the wrong kind, a short read).
struct IoError : Error {
    explicit IoError(const std::string& what, int code = 0) : Error(what), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

// A file or text was read but its content is wrong (bad header, checksum, manifest).
struct FormatError : Error {
    using Error::Error;
};

// The caller asked for something that makes no sense (bad board, goal, pattern, option value).
struct UsageError : Error {
    using Error::Error;
};

// A search or build hit a node, time or memory limit before it finished.
struct LimitError : Error {
    using Error::Error;
};

// Work stopped by the caller's cancel flag (the programs set it on SIGINT and SIGTERM), on
// this process or, over ranks, on another: the programs exit 130 for it on every rank.
struct CancelledError : LimitError {
    using LimitError::LimitError;
};

// A resource another process holds (a folder another build is writing into).
struct BusyError : Error {
    using Error::Error;
};

}  // namespace loyd
