#include "solver/output/json_writer.h"

#include <nlohmann/json.hpp>

#include "solver/output/report.h"

namespace loyd::solver {

JsonObject::JsonObject(std::string& out, bool script_safe) : out_(out), script_safe_(script_safe) {
    out_ += '{';
}

void JsonObject::key(std::string_view k) {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += '"';
    out_ += k;
    out_ += "\":";
}

JsonObject& JsonObject::text(std::string_view k, std::string_view bytes) {
    key(k);
    append_json_string(out_, bytes, script_safe_);
    return *this;
}

JsonObject& JsonObject::value(std::string_view k, const Json& v) {
    key(k);
    append_json(out_, v, script_safe_);
    return *this;
}

JsonObject& JsonObject::fixed(std::string_view k, double v, int digits) {
    key(k);
    append_fixed(out_, v, digits);
    return *this;
}

JsonObject& JsonObject::boolean(std::string_view k, bool v) {
    key(k);
    out_ += v ? "true" : "false";
    return *this;
}

JsonObject& JsonObject::null(std::string_view k) {
    key(k);
    out_ += "null";
    return *this;
}

JsonObject& JsonObject::json_text(std::string_view k, std::string_view json) {
    key(k);
    out_ += json;
    return *this;
}

JsonObject& JsonObject::lines(std::string_view k, const std::vector<Json>& items) {
    key(k);
    out_ += '[';
    for (size_t i = 0; i < items.size(); ++i) {
        out_ += i ? ",\n" : "\n";
        append_json(out_, items[i], script_safe_);
    }
    out_ += "\n]";
    return *this;
}

JsonObject JsonObject::object(std::string_view k) {
    key(k);
    return JsonObject(out_, script_safe_);
}

void JsonObject::close() {
    out_ += '}';
}

}  // namespace loyd::solver
