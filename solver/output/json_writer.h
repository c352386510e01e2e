// One JSON object written into a string field by field, in the order the fields are added: how
// the solver writes its records (output/records.h, the commands' summaries, the play engine's
// answers) with a fixed field order and number format.
//
// Strings and nested values (arrays, objects) go through nlohmann-json (json_text.h's
// append_json: its escaping, the house escapes on top); `text` takes any bytes and writes them
// as valid UTF-8 (append_json_string: a string with nothing to escape is written as it is, the
// same text). Integers, true, false and null are written as nlohmann-json writes them.
// `fixed` writes a number with a fixed count of decimals (seconds as 0.000012, never 1.2e-05,
// and 21.500 as 21.500), which nlohmann-json has no way to write. `lines` writes an array one
// element per line (the replay page's instances). Keys are the program's own names (ASCII
// letters, digits and '_'), written as they are.
//
// Every method appends to the string given at construction; `close` ends the object (a nested
// object must be closed before its parent gets another field). With `script_safe` every string
// is written script-safe (json_text.h), so the object can sit inside an HTML <script>.
#pragma once

#include <charconv>
#include <concepts>
#include <string>
#include <string_view>
#include <vector>

#include "solver/output/json_text.h"

namespace loyd::solver {

class JsonObject {
public:
    explicit JsonObject(std::string& out, bool script_safe = false);

    JsonObject& text(std::string_view key, std::string_view bytes);
    JsonObject& value(std::string_view key, const Json& v);
    JsonObject& fixed(std::string_view key, double v, int digits);
    JsonObject& boolean(std::string_view key, bool v);
    JsonObject& null(std::string_view key);
    template <std::integral T>
    JsonObject& number(std::string_view key, T v);
    // A value already written as JSON text (by another JsonObject, or append_json).
    JsonObject& json_text(std::string_view key, std::string_view json);
    JsonObject& lines(std::string_view key, const std::vector<Json>& items);
    // A nested object under `key`, written into the same string.
    JsonObject object(std::string_view key);
    void close();

private:
    void key(std::string_view k);

    std::string& out_;
    bool script_safe_;
    bool first_ = true;
};

template <std::integral T>
JsonObject& JsonObject::number(std::string_view k, T v) {
    static_assert(!std::same_as<T, bool>, "a bool is written by boolean()");
    key(k);
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    out_.append(buf, static_cast<size_t>(end - buf));
    return *this;
}

}  // namespace loyd::solver
