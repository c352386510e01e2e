// The play page's engine: loyd's library compiled to WebAssembly (solver/play/wasm.cmake), run
// in the page's Web Worker (solver/play/worker.js).
//
// A C interface of strings: every entry point takes UTF-8 text and returns a JSON text
// {"ok":VALUE} or {"error":MESSAGE,"kind":KIND} (KIND: usage, format, io, limit, memory,
// internal), valid until the next call. Options come as lines "name=value" (requests.h names).
// Nothing thrown ever leaves an entry point: the library's errors become their message, a
// failed allocation says the page ran out of memory, anything else is an internal error.
// One thread: the worker calls one entry point at a time.
#include <emscripten/emscripten.h>

#include <charconv>
#include <new>
#include <string>

#include "loyd/base/error.h"
#include "loyd/base/version.h"
#include "solver/output/json_text.h"
#include "solver/output/json_writer.h"
#include "solver/play/requests.h"
#include "solver/play/table_sets.h"
#include "solver/run/input.h"

namespace {

using loyd::play::Options;

loyd::play::TableSets& sets() {
    static loyd::play::TableSets held;
    return held;
}

const char* reply(std::string text) {
    static std::string out;
    out = std::move(text);
    return out.c_str();
}

const char* failure(const char* kind, const std::string& message) {
    std::string out;
    loyd::solver::JsonObject o(out);
    o.text("error", message).text("kind", kind);
    o.close();
    return reply(std::move(out));
}

// {"ok": what()} (what() returns JSON text) or the error `what` threw.
template <class F>
const char* guarded(F&& what) {
    try {
        std::string out;
        loyd::solver::JsonObject o(out);
        o.json_text("ok", what());
        o.close();
        return reply(std::move(out));
    } catch (const loyd::UsageError& e) {
        return failure("usage", e.what());
    } catch (const loyd::FormatError& e) {
        return failure("format", e.what());
    } catch (const loyd::IoError& e) {
        return failure("io", e.what());
    } catch (const loyd::LimitError& e) {
        return failure("limit", e.what());
    } catch (const loyd::Error& e) {
        return failure("usage", e.what());
    } catch (const std::bad_alloc&) {
        return failure("memory",
                       "the page ran out of memory (the browser gives a page at most 4 GB; "
                       "lower the node limit, or use IDA*, which needs almost none)");
    } catch (const std::exception& e) {
        return failure("internal", std::string("internal error: ") + e.what());
    }
}

// "name=value" lines; a line without '=' is refused.
Options options_of(const char* text) {
    Options o;
    std::string s = text ? text : "";
    size_t at = 0;
    while (at < s.size()) {
        size_t end = s.find('\n', at);
        if (end == std::string::npos) end = s.size();
        const std::string line = s.substr(at, end - at);
        at = end + 1;
        if (line.empty()) continue;
        const size_t eq = line.find('=');
        if (eq == std::string::npos) throw loyd::UsageError("bad option line '" + line + "'");
        o[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return o;
}

uint64_t seed_of(const char* text) {
    const std::string s = text ? text : "";
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
        throw loyd::UsageError("bad --seed '" + s + "' (expected a number 0 to 2^64-1)");
    return v;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* loyd_version() {
    return guarded([] { return loyd::solver::json_quote(loyd::kVersion); });
}

EMSCRIPTEN_KEEPALIVE const char* loyd_solve(const char* text, const char* options) {
    return guarded(
        [&] { return loyd::play::solve_json(sets(), text ? text : "", options_of(options)); });
}

EMSCRIPTEN_KEEPALIVE const char* loyd_board(const char* text, const char* options) {
    return guarded([&] { return loyd::play::board_json(text ? text : "", options_of(options)); });
}

EMSCRIPTEN_KEEPALIVE const char* loyd_scramble(const char* options, const char* seed) {
    return guarded([&] { return loyd::play::scramble_json(options_of(options), seed_of(seed)); });
}

EMSCRIPTEN_KEEPALIVE const char* loyd_load_embedded(const char* dir) {
    return guarded(
        [&] { return loyd::play::set_json(sets().load_embedded(dir ? dir : ""), true); });
}

EMSCRIPTEN_KEEPALIVE const char* loyd_load_upload(const char* dir) {
    return guarded([&] { return loyd::play::set_json(sets().load_upload(dir ? dir : ""), false); });
}

// The longest text an entry point takes, in UTF-8 bytes: the command line's longest input line.
// The glue copies each argument onto the engine's 4 MiB stack, so the worker refuses longer
// text before calling.
EMSCRIPTEN_KEEPALIVE int loyd_max_text() {
    return static_cast<int>(loyd::solver::kMaxLine);
}

EMSCRIPTEN_KEEPALIVE const char* loyd_sets() {
    return guarded([] { return loyd::play::sets_json(sets()); });
}

}  // extern "C"
