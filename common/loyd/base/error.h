// Typed errors thrown by the loyd library.
//
// The library never prints or exits: it throws one of these, and the programs map
// them to exit codes (see README.md). Every message names the file, field or input
// line it is about, so it can be printed as is on one line.
#pragma once

#include <stdexcept>
#include <string>

namespace loyd {

// `text` on one printable line: control characters (a NUL, a line break, ...) written as
// \0, \n, \r, \t or \xHH, so a message quoting hostile input is neither cut short nor split;
// a byte order mark, invisible, as \ufeff.
inline std::string one_line(const std::string& text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == 0xef && text.compare(i, 3, "\xef\xbb\xbf") == 0) {
            out += "\\ufeff";
            i += 2;
        } else if (c >= 0x20 && c != 0x7f) {
            out += text[i];
        } else if (c == 0) {
            out += "\\0";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else {
            out += std::string{'\\', 'x', kHex[c >> 4], kHex[c & 15]};
        }
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

// A resource another process holds (a folder another build is writing into).
struct BusyError : Error {
    using Error::Error;
};

}  // namespace loyd
