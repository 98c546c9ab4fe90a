#include "rules/rules_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>

#include "core/bounded_file.h"
#include "core/quoted_input.h"
#include "env/game_registry.h"

namespace quax {

namespace {

constexpr std::uintmax_t kRulesFileLimit = 64 * 1024;

[[noreturn]] void refuse(const std::string& where, const std::string& why) { throw RulesFileError(where + ": " + why); }

std::string scalar(const YAML::Node& node, const std::string& where, const std::string& field) {
  if (!node.IsScalar()) refuse(where, field + ": expected a word, not a " + (node.IsSequence() ? "list" : "mapping"));
  return node.Scalar();
}

int integer(const YAML::Node& node, const std::string& where, const std::string& field) {
  const std::string text = scalar(node, where, field);
  try {
    size_t used = 0;
    const int value = std::stoi(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  refuse(where, field + ": " + quoted_input(text) + " is not a whole number");
}

bool on_off(const YAML::Node& node, const std::string& where, const std::string& field, const char* on,
            const char* off) {
  const std::string word = scalar(node, where, field);
  if (word == on) return true;
  if (word == off) return false;
  refuse(where, field + ": " + quoted_input(word) + " is neither " + on + " nor " + off);
}

// A word of a field's table, or an error listing the words.
template <class E>
E word(const YAML::Node& node, const std::string& where, const std::string& field, bool (*parse)(const std::string&, E*),
       std::string (*words)()) {
  const std::string text = scalar(node, where, field);
  E value;
  if (!parse(text, &value)) refuse(where, field + ": " + quoted_input(text) + " is not one of " + words());
  return value;
}

}  // namespace

Rules parse_rules(const std::string& text, const std::string& where) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    refuse(where, "not YAML: " + printable_line(e.msg) + " (line " + std::to_string(e.mark.line + 1) + ")");
  }
  if (!root.IsMap()) refuse(where, "expected a mapping of fields (name: ..., board: ..., sizes: ...)");
  Rules r;
  bool goal_given = false, sizes_given = false;
  std::optional<int> min_size, max_size;  // left out: the engine's range
  const std::map<std::string, std::function<void(const YAML::Node&)>> fields = {
      {"name", [&](const YAML::Node& n) { r.name = scalar(n, where, "name"); }},
      {"board", [&](const YAML::Node& n) { r.board = word(n, where, "board", parse_tiling, tiling_words); }},
      {"wrap", [&](const YAML::Node& n) { r.wrap = word(n, where, "wrap", parse_wrap, wrap_words); }},
      {"diagonal", [&](const YAML::Node& n) { r.diagonal = word(n, where, "diagonal", parse_diagonal, diagonal_words); }},
      {"fourth_point",
       [&](const YAML::Node& n) {
         r.fourth_point = word(n, where, "fourth_point", parse_fourth_point, fourth_point_words);
       }},
      {"goal",
       [&](const YAML::Node& n) {
         r.goal = word(n, where, "goal", parse_goal, goal_words);
         goal_given = true;
       }},
      {"stones_per_turn",
       [&](const YAML::Node& n) {
         if (!n.IsSequence()) refuse(where, "stones_per_turn: expected a list of counts, e.g. [1, 2]");
         if (n.size() > static_cast<size_t>(kMaxScheduleLength))
           refuse(where, "stones_per_turn: more than " + std::to_string(kMaxScheduleLength) + " counts");
         r.stones_per_turn.clear();
         for (const auto& c : n) r.stones_per_turn.push_back(integer(c, where, "stones_per_turn"));
       }},
      {"one_stone_per_quadrant",
       [&](const YAML::Node& n) {
         r.one_stone_per_quadrant = on_off(n, where, "one_stone_per_quadrant", "true", "false");
       }},
      {"pie_rule", [&](const YAML::Node& n) { r.pie_rule = on_off(n, where, "pie_rule", "on", "off"); }},
      {"sizes",
       [&](const YAML::Node& n) {
         if (!n.IsMap()) refuse(where, "sizes: expected {default: N, min: N, max: N}");
         for (const auto& kv : n) {
           const std::string key = scalar(kv.first, where, "sizes");
           if (key == "default") {
             r.default_size = integer(kv.second, where, "sizes: default");
             sizes_given = true;
           } else if (key == "min") {
             min_size = integer(kv.second, where, "sizes: min");
           } else if (key == "max") {
             max_size = integer(kv.second, where, "sizes: max");
           } else {
             refuse(where, "sizes: unknown field " + quoted_input(key) + " (default, min, max)");
           }
         }
       }},
  };
  for (const auto& kv : root) {
    const std::string key = scalar(kv.first, where, "a field name");
    const auto field = fields.find(key);
    if (field == fields.end()) {
      std::string known;
      for (const auto& f : fields) known += (known.empty() ? "" : ", ") + f.first;
      refuse(where, "unknown field " + quoted_input(key) + " (" + known + ")");
    }
    field->second(kv.second);
  }
  if (r.name.empty()) refuse(where, "name: missing (a lower-case word, e.g. name: twostep)");
  if (!sizes_given) refuse(where, "sizes: missing (at least {default: N})");
  // A triangle's goal is its three sides unless the file says otherwise.
  if (!goal_given && r.board == Tiling::kHexTriangle) r.goal = Goal::kThreeSides;
  int engine_min = 0, engine_max = 0;
  engine_size_range(r, &engine_min, &engine_max);
  r.min_size = min_size.value_or(engine_min);
  r.max_size = max_size.value_or(engine_max);
  const std::string why = check_rules(r);
  if (!why.empty()) refuse(where, why);
  return r;
}

Rules read_rules_file(const std::string& path) {
  try {
    return parse_rules(read_regular_file(path, kRulesFileLimit, "rules file"), path);
  } catch (const RulesFileError&) {
    throw;
  } catch (const std::exception& e) {
    throw RulesFileError(e.what());
  }
}

bool names_rules_file(const std::string& text) {
  auto ends_with = [&](const std::string& tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
  };
  return ends_with(".yaml") || ends_with(".yml") || text.find('/') != std::string::npos;
}

Variant variant_from_name_or_file(const std::string& text) {
  if (!names_rules_file(text)) {
    if (const auto v = parse_variant(text)) return *v;
    throw RulesFileError("unknown variant " + quoted_input(text) + " (known: " + variant_list() +
                         "; or a rules file, docs/VARIANTS.md)");
  }
  const Rules rules = read_rules_file(text);
  try {
    return register_rules(rules);
  } catch (const std::invalid_argument& e) {
    throw RulesFileError(text + ": " + e.what());
  }
}

std::vector<Variant> register_rules_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw RulesFileError(dir + ": not a directory of rules files");
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".yaml" || ext == ".yml") files.push_back(entry.path().string());
  }
  if (ec) throw RulesFileError(dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<Variant> out;
  for (const std::string& f : files) out.push_back(variant_from_name_or_file(f));
  return out;
}

}  // namespace quax
