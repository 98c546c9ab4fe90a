// The fields of a JSON request as the browser board reads them, one set of readers and error
// lines for both of its engines: the server (serve/board_server.cpp) and the static page's
// WebAssembly engine (site/engine/page_engine.cpp), so that a request is refused in the same
// words by either. Header-only: the page compiles it without the rest of serve/.
//
// A missing or null field takes the caller's fallback; a field of the wrong type or out of range
// throws Error{400, "'<key>' must be ..."}. Error is the caller's own exception type: an
// aggregate of an int status and a std::string message (the server's HttpError, the page's
// ApiError), which its handler turns into the reply.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "env/types.h"

namespace quax {

// The field `key` of `body`, or nullptr where body is not an object, has no such key or holds
// null there.
inline const nlohmann::json* json_field(const nlohmann::json& body, const char* key) {
  if (!body.is_object()) return nullptr;
  auto it = body.find(key);
  return it == body.end() || it->is_null() ? nullptr : &*it;
}

template <class Error>
struct JsonFields {
  using json = nlohmann::json;

  static std::string get_string(const json& body, const char* key, const std::string& fallback) {
    const json* v = json_field(body, key);
    if (!v) return fallback;
    if (!v->is_string()) throw refusal(key, "a string");
    return v->get<std::string>();
  }

  // A number from lo to hi, both included.
  static double get_number(const json& body, const char* key, double fallback, double lo, double hi) {
    const json* v = json_field(body, key);
    if (!v) return fallback;
    if (!v->is_number() || !(v->get<double>() >= lo && v->get<double>() <= hi))
      throw refusal(key, "a number from " + json(lo).dump() + " to " + json(hi).dump());
    return v->get<double>();
  }

  // An integer from lo to hi, both included (1.0 is not one; a value past int64 is out of range).
  static int get_int(const json& body, const char* key, int fallback, int lo, int hi) {
    const json* v = json_field(body, key);
    if (!v) return fallback;
    if (!v->is_number_integer() || !(v->get<double>() >= lo && v->get<double>() <= hi))
      throw refusal(key, "an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<int>(v->get<int64_t>());
  }

  static bool get_bool(const json& body, const char* key, bool fallback) {
    const json* v = json_field(body, key);
    if (!v) return fallback;
    if (!v->is_boolean()) throw refusal(key, "true or false");
    return v->get<bool>();
  }

  // The game `body` names: "variant" (required), "size" and "swap" (the variant's defaults
  // where missing), checked by check_spec. quote(name) is how the caller's errors echo a
  // client's input (clipped, never whole).
  template <class Quote>
  static GameSpec game_spec(const json& body, Quote quote) {
    const std::string name = get_string(body, "variant", "");
    const auto variant = parse_variant(name);
    if (!variant) throw Error{400, "unknown variant '" + quote(name) + "' (known: " + variant_list() + ")"};
    GameSpec spec = default_spec(*variant);
    spec.size = get_int(body, "size", spec.size, 1, 1000);
    spec.swap = get_bool(body, "swap", spec.swap);
    if (std::string error = check_spec(spec); !error.empty()) throw Error{400, error};
    return spec;
  }

 private:
  static Error refusal(const char* key, const std::string& what) {
    return Error{400, std::string("'") + key + "' must be " + what};
  }
};

}  // namespace quax
