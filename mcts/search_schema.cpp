#include "mcts/search_schema.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "core/quoted_input.h"
#include "mcts/search_limits.h"

namespace quax {

namespace {

using Kind = SearchField::Kind;

SearchField integer(const char* key, int SearchSettings::*member, double lo, double hi, const char* doc) {
  SearchField f{key, Kind::kInteger, lo, hi, doc};
  f.integer = member;
  return f;
}

SearchField number(const char* key, float SearchSettings::*member, double lo, double hi, const char* doc) {
  SearchField f{key, Kind::kNumber, lo, hi, doc};
  f.number = member;
  return f;
}

SearchField boolean(const char* key, bool SearchSettings::*member, const char* doc) {
  SearchField f{key, Kind::kBoolean, 0, 0, doc};
  f.boolean = member;
  return f;
}

// strtod/strtoll accept leading blanks and stop at the first character they cannot use; a
// value is the whole text or nothing.
bool whole_text(std::string_view text, const char* end, const std::string& copy) {
  return !text.empty() && !std::isspace(static_cast<unsigned char>(text.front())) && end == copy.c_str() + copy.size();
}

}  // namespace

const std::vector<SearchField>& search_fields() {
  // The ranges are those configs have always had; check_settings (mcts/search_settings.h)
  // adds the rules a range cannot say (c_puct > 0, fpu_reduction >= 0).
  static const std::vector<SearchField> fields = {
      SearchField{"rule", Kind::kRule, 0, 0,
                  "puct (Dirichlet noise, visit targets) or gumbel (sequential halving, completed-Q targets)"},
      integer("simulations", &SearchSettings::simulations, 1, kMaxSimulations, "per move (full searches)"),
      number("c_puct", &SearchSettings::c_puct, 0, 100, "exploration constant of PUCT"),
      number("fpu_reduction", &SearchSettings::fpu_reduction, -10, 10,
             "first-play urgency: an unvisited child is valued this far below its parent"),
      number("root_fpu_reduction", &SearchSettings::root_fpu_reduction, -10, 10, "the same at the root"),
      number("dirichlet_alpha_total", &SearchSettings::dirichlet_alpha_total, 0, 1000,
             "alpha = this / number of legal actions"),
      number("dirichlet_fraction", &SearchSettings::dirichlet_fraction, 0, 1,
             "share of Dirichlet noise in the root priors (self-play); 0 = none"),
      boolean("reuse_tree", &SearchSettings::reuse_tree, "keep the last search's subtree at the next position searched (PUCT)"),
      boolean("stop_when_settled", &SearchSettings::stop_when_settled,
              "end a search for a move once the simulations left cannot change the move (PUCT; play, not self-play)"),
      number("forced_playouts_k", &SearchSettings::forced_playouts_k, 0, 100,
             "KataGo's forced playouts and policy target pruning with this k (self-play, PUCT with noise); 0 = off"),
      integer("leaves_per_batch", &SearchSettings::leaves_per_batch, 1, 256,
              "leaves one tree adds to a batch (virtual loss between them)"),
      number("virtual_loss", &SearchSettings::virtual_loss, 0, 100, "visits of virtual loss per pending leaf"),
      integer("gumbel_m", &SearchSettings::gumbel_m, 1, 4096, "Gumbel: actions sampled at the root"),
      number("gumbel_c_visit", &SearchSettings::gumbel_c_visit, 0, 1e6, "Gumbel: sigma's c_visit"),
      number("gumbel_c_scale", &SearchSettings::gumbel_c_scale, 0, 1e6, "Gumbel: sigma's c_scale"),
      boolean("gumbel_noise", &SearchSettings::gumbel_noise,
              "Gumbel: sample the root actions with Gumbel noise (off: top-m by prior)"),
  };
  return fields;
}

const SearchField* find_search_field(std::string_view key) {
  for (const auto& f : search_fields())
    if (key == f.key) return &f;
  return nullptr;
}

std::string search_field_expected(const SearchField& field) {
  switch (field.kind) {
    case Kind::kInteger: return fmt::format("an integer in [{}, {}]", field.lo, field.hi);
    case Kind::kNumber: return fmt::format("a number in [{}, {}]", field.lo, field.hi);
    case Kind::kBoolean: return "true or false";
    case Kind::kRule: return "puct or gumbel";
  }
  return {};
}

std::string set_search_integer(SearchSettings* s, const SearchField& field, long long value) {
  if (!(value >= field.lo && value <= field.hi)) return "expected " + search_field_expected(field);
  s->*field.integer = static_cast<int>(value);
  return {};
}

std::string set_search_number(SearchSettings* s, const SearchField& field, double value) {
  // Compared as the member's float, as configs always have (1e-50 is 0, not below 0).
  const float v = static_cast<float>(value);
  if (!(v >= field.lo && v <= field.hi)) return "expected " + search_field_expected(field);
  s->*field.number = v;
  return {};
}

void set_search_boolean(SearchSettings* s, const SearchField& field, bool value) { s->*field.boolean = value; }

std::string set_search_rule(SearchSettings* s, std::string_view name) {
  if (name == "puct") s->root_rule = RootRule::kPuct;
  else if (name == "gumbel") s->root_rule = RootRule::kGumbel;
  else return "expected puct or gumbel, got " + quoted_input(name);
  return {};
}

std::string set_search_field(SearchSettings* s, const SearchField& field, std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  switch (field.kind) {
    case Kind::kInteger: {
      const long long v = std::strtoll(copy.c_str(), &end, 10);
      if (!whole_text(text, end, copy) || errno == ERANGE) return "expected an integer";
      return set_search_integer(s, field, v);
    }
    case Kind::kNumber: {
      const double v = std::strtod(copy.c_str(), &end);
      if (!whole_text(text, end, copy)) return "expected a number";
      return set_search_number(s, field, v);
    }
    case Kind::kBoolean:
      if (text != "true" && text != "false") return "expected true or false";
      set_search_boolean(s, field, text == "true");
      return {};
    case Kind::kRule: return set_search_rule(s, text);
  }
  return {};
}

std::string search_field_text(const SearchSettings& s, const SearchField& field) {
  switch (field.kind) {
    case Kind::kInteger: return fmt::format("{}", s.*field.integer);
    case Kind::kNumber: return fmt::format("{}", s.*field.number);
    case Kind::kBoolean: return s.*field.boolean ? "true" : "false";
    case Kind::kRule: return s.root_rule == RootRule::kGumbel ? "gumbel" : "puct";
  }
  return {};
}

std::string bad_search_value(std::string_view key, std::string_view error) {
  return fmt::format("bad value for '{}': {}", key, error);
}

SearchSettings play_settings(SearchSettings s) {
  s.dirichlet_fraction = 0.0f;
  s.gumbel_noise = false;
  return s;
}

}  // namespace quax
