#include "env/rules.h"

#include "core/quoted_input.h"

#include <algorithm>
#include <utility>

namespace quax {

namespace {

// One table per field: its values in the order the enum declares them, with their words.
template <class E>
struct Word {
  E value;
  const char* word;
};

constexpr Word<Tiling> kTilings[] = {{Tiling::kSquare, "square"},
                                     {Tiling::kOctagons, "octagons"},
                                     {Tiling::kHexRhombus, "hex-rhombus"},
                                     {Tiling::kHexTriangle, "hex-triangle"}};
constexpr Word<Wrap> kWraps[] = {{Wrap::kNone, "none"}, {Wrap::kCylinder, "cylinder"}, {Wrap::kTorus, "torus"}};
constexpr Word<LinkRule> kDiagonals[] = {{LinkRule::kNone, "none"},
                                         {LinkRule::kChosen, "link"},
                                         {LinkRule::kAutomatic, "automatic"},
                                         {LinkRule::kDiagonal, "always"}};
constexpr Word<FourthPoint> kFourthPoints[] = {
    {FourthPoint::kAllowed, "allowed"}, {FourthPoint::kImposed, "imposed"}, {FourthPoint::kForbidden, "forbidden"}};
constexpr Word<Goal> kGoals[] = {{Goal::kOppositeEdges, "opposite-edges"},
                                 {Goal::kThreeSides, "three-sides"},
                                 {Goal::kQuadrants, "quadrants"},
                                 {Goal::kQuadrantsOfQuadrants, "quadrants-of-quadrants"}};

template <class E, size_t N>
const char* word_of(const Word<E> (&table)[N], E value) {
  for (const auto& w : table)
    if (w.value == value) return w.word;
  return "?";
}

template <class E, size_t N>
bool value_of(const Word<E> (&table)[N], const std::string& word, E* out) {
  for (const auto& w : table)
    if (word == w.word) {
      *out = w.value;
      return true;
    }
  return false;
}

template <class E, size_t N>
std::string words_of(const Word<E> (&table)[N]) {
  std::string out;
  for (const auto& w : table) out += (out.empty() ? "" : ", ") + std::string(w.word);
  return out;
}

bool is_square_tiling(const Rules& r) { return r.board == Tiling::kSquare; }
bool several_stones(const Rules& r) { return r.stones_per_turn != std::vector<int>{1}; }

// The sizes an engine plays for these rules, and the form they must take.
struct SizeRange {
  int min, max;
  int modulus = 1, remainder = 0;
};

SizeRange engine_sizes(const Rules& r) {
  switch (r.board) {
    case Tiling::kOctagons: return {3, 12};
    case Tiling::kHexRhombus: return r.goal == Goal::kQuadrants ? SizeRange{6, 26, 2, 0} : SizeRange{3, 26};
    case Tiling::kHexTriangle:
      if (r.goal == Goal::kQuadrants) return {5, 25, 2, 1};
      if (r.goal == Goal::kQuadrantsOfQuadrants) return {5, 25, 4, 1};
      return {3, 26};
    case Tiling::kSquare:
      if (r.one_stone_per_quadrant) return {4, 26, 2, 0};
      return {3, 26};
  }
  return {3, 26};
}

std::string schedule_text(const std::vector<int>& counts) {
  std::string out;
  for (int c : counts) out += (out.empty() ? "" : ", ") + std::to_string(c);
  return "[" + out + "]";
}

std::string check_name(const std::string& name) {
  if (name.empty()) return "name: missing (a lower-case word, e.g. name: twostep)";
  if (name.size() > 32) return "name: " + quoted_input(name) + " is longer than 32 characters";
  if (name[0] < 'a' || name[0] > 'z') return "name: " + quoted_input(name) + " must start with a lower-case letter";
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
      return "name: " + quoted_input(name) + " may hold only lower-case letters, digits, '-' and '_'";
  return "";
}

std::string check_cross_cut(const Rules& r) {
  if (!is_square_tiling(r)) {
    if (r.diagonal != LinkRule::kNone)
      return std::string("diagonal: ") + tiling_name(r.board) + " boards have no diagonal neighbours: leave it out";
    if (r.fourth_point != FourthPoint::kAllowed)
      return std::string("fourth_point: ") + tiling_name(r.board) + " boards have no cross-cuts: leave it out";
    return "";
  }
  const LinkRule d = r.diagonal;
  const FourthPoint f = r.fourth_point;
  if (r.wrap == Wrap::kTorus) {
    if (d != LinkRule::kChosen || f != FourthPoint::kAllowed)
      return "diagonal: the torus is played with diagonal: link and fourth_point: allowed only (torax)";
    return "";
  }
  if (f == FourthPoint::kForbidden && d != LinkRule::kDiagonal)
    return "fourth_point: forbidden is played with diagonal: always only (crossway)";
  if (d == LinkRule::kDiagonal && f != FourthPoint::kForbidden)
    return "fourth_point: with diagonal: always both diagonals of a filled cross-cut would connect; it must be forbidden";
  if (f == FourthPoint::kImposed && d != LinkRule::kNone)
    return "fourth_point: imposed is played with diagonal: none only (quadrex's cascade)";
  if (d == LinkRule::kNone && f == FourthPoint::kAllowed)
    return "fourth_point: allowed with diagonal: none lets the board fill with neither side connected, and no "
           "engine scores that draw: use imposed";
  return "";
}

std::string check_goal(const Rules& r) {
  const Goal g = r.goal;
  switch (r.board) {
    case Tiling::kSquare:
    case Tiling::kOctagons:
      if (g != Goal::kOppositeEdges)
        return std::string("goal: ") + goal_name(g) + " is not played on " + tiling_name(r.board) +
               " boards (opposite-edges)";
      return "";
    case Tiling::kHexRhombus:
      if (g != Goal::kOppositeEdges && g != Goal::kQuadrants)
        return std::string("goal: ") + goal_name(g) + " is not played on hex-rhombus boards (opposite-edges, quadrants)";
      return "";
    case Tiling::kHexTriangle:
      if (g == Goal::kOppositeEdges)
        return "goal: a triangle has no opposite edges (three-sides, quadrants, quadrants-of-quadrants)";
      return "";
  }
  return "";
}

std::string check_turns(const Rules& r) {
  const auto& s = r.stones_per_turn;
  if (s.empty() || static_cast<int>(s.size()) > kMaxScheduleLength)
    return "stones_per_turn: give 1 to " + std::to_string(kMaxScheduleLength) + " counts, e.g. [1, 2]";
  if (shortest_schedule(s) != s)
    return "stones_per_turn: " + schedule_text(s) + " repeats its last count; write " +
           schedule_text(shortest_schedule(s));
  for (int c : s)
    if (c < 1 || c > kMaxStonesPerTurn)
      return "stones_per_turn: " + std::to_string(c) + " is outside 1.." + std::to_string(kMaxStonesPerTurn);
  if (several_stones(r)) {
    if (!is_square_tiling(r) || r.wrap != Wrap::kNone)
      return std::string("stones_per_turn: several stones a turn are played on the plain square board only, not ") +
             (r.wrap == Wrap::kTorus ? "the torus" : tiling_name(r.board));
    if (r.diagonal == LinkRule::kChosen || r.diagonal == LinkRule::kDiagonal)
      return std::string("stones_per_turn: several stones a turn are played with diagonal: automatic or none only, "
                         "not ") +
             diagonal_name(r.diagonal) + " (link moves and crossway's passes take turns of their own)";
  }
  if (r.one_stone_per_quadrant) {
    if (!several_stones(r)) return "one_stone_per_quadrant: needs several stones a turn (stones_per_turn)";
    if (*std::max_element(s.begin(), s.end()) > 4)
      return "one_stone_per_quadrant: a turn of more than 4 stones cannot put each in another quadrant";
  }
  return "";
}

std::string check_pie_rule(const Rules& r) {
  if (!r.pie_rule) return "";
  if (r.wrap == Wrap::kTorus) return "pie_rule: on, but the torus opens with the auction, which replaces it";
  if (several_stones(r))
    return "pie_rule: on, but turns of " + schedule_text(r.stones_per_turn) +
           " stones have no swap to offer: set it off";
  return "";
}

std::string check_sizes(const Rules& r) {
  const SizeRange e = engine_sizes(r);
  const std::string range = std::to_string(e.min) + ".." + std::to_string(e.max);
  if (r.min_size < e.min || r.min_size > e.max)
    return "sizes: min " + std::to_string(r.min_size) + " is outside " + range + ", the sizes these rules are played at";
  if (r.max_size < r.min_size || r.max_size > e.max)
    return "sizes: max " + std::to_string(r.max_size) + " is outside " + std::to_string(r.min_size) + ".." +
           std::to_string(e.max);
  if (r.default_size < r.min_size || r.default_size > r.max_size)
    return "sizes: default " + std::to_string(r.default_size) + " is outside min..max (" +
           std::to_string(r.min_size) + ".." + std::to_string(r.max_size) + ")";
  if (r.default_size % e.modulus != e.remainder)
    return "sizes: default " + std::to_string(r.default_size) + " is not of the form " + std::to_string(e.modulus) +
           "k+" + std::to_string(e.remainder) + " these rules need";
  return "";
}

}  // namespace

bool Rules::operator==(const Rules& o) const {
  return name == o.name && same_game_rules(*this, o) && pie_rule == o.pie_rule && default_size == o.default_size &&
         min_size == o.min_size && max_size == o.max_size;
}

std::string check_rules(const Rules& r) {
  for (const std::string& why : {check_name(r.name), check_cross_cut(r), check_goal(r), check_turns(r)})
    if (!why.empty()) return why;
  if (r.wrap == Wrap::kCylinder) return "wrap: no engine plays a cylinder board yet (none, torus)";
  if (r.wrap == Wrap::kTorus && r.board != Tiling::kSquare) return "wrap: the torus needs board: square";
  for (const std::string& why : {check_pie_rule(r), check_sizes(r)})
    if (!why.empty()) return why;
  return "";
}

bool same_game_rules(const Rules& a, const Rules& b) {
  return a.board == b.board && a.wrap == b.wrap && a.diagonal == b.diagonal && a.fourth_point == b.fourth_point &&
         a.goal == b.goal && a.stones_per_turn == b.stones_per_turn &&
         a.one_stone_per_quadrant == b.one_stone_per_quadrant;
}

void engine_size_range(const Rules& rules, int* min_size, int* max_size) {
  const SizeRange e = engine_sizes(rules);
  *min_size = e.min;
  *max_size = e.max;
}

std::vector<int> shortest_schedule(std::vector<int> counts) {
  while (counts.size() > 1 && counts[counts.size() - 1] == counts[counts.size() - 2]) counts.pop_back();
  return counts;
}

int stones_in_turn(const Rules& rules, int turn) {
  const auto& s = rules.stones_per_turn;
  return s[std::min<size_t>(static_cast<size_t>(turn), s.size() - 1)];
}

namespace {

// (field, value) pairs in the order of rules_text.
std::vector<std::pair<std::string, std::string>> fields_of(const Rules& r) {
  return {{"name", r.name},
          {"board", tiling_name(r.board)},
          {"wrap", wrap_name(r.wrap)},
          {"diagonal", diagonal_name(r.diagonal)},
          {"fourth_point", fourth_point_name(r.fourth_point)},
          {"goal", goal_name(r.goal)},
          {"stones_per_turn", schedule_text(r.stones_per_turn)},
          {"one_stone_per_quadrant", r.one_stone_per_quadrant ? "true" : "false"},
          {"pie_rule", r.pie_rule ? "on" : "off"},
          {"sizes", "{default: " + std::to_string(r.default_size) + ", min: " + std::to_string(r.min_size) +
                        ", max: " + std::to_string(r.max_size) + "}"}};
}

}  // namespace

std::string rules_text(const Rules& rules) {
  std::string out;
  for (const auto& [field, value] : fields_of(rules)) out += field + ": " + value + "\n";
  return out;
}

std::string rules_difference(const Rules& a, const Rules& b) {
  const auto fa = fields_of(a), fb = fields_of(b);
  for (size_t i = 0; i < fa.size(); ++i)
    if (fa[i].second != fb[i].second) return fa[i].first + ": " + fa[i].second + ", not " + fb[i].second;
  return "";
}

const char* tiling_name(Tiling t) { return word_of(kTilings, t); }
const char* wrap_name(Wrap w) { return word_of(kWraps, w); }
const char* diagonal_name(LinkRule d) { return word_of(kDiagonals, d); }
const char* fourth_point_name(FourthPoint f) { return word_of(kFourthPoints, f); }
const char* goal_name(Goal g) { return word_of(kGoals, g); }
bool parse_tiling(const std::string& word, Tiling* out) { return value_of(kTilings, word, out); }
bool parse_wrap(const std::string& word, Wrap* out) { return value_of(kWraps, word, out); }
bool parse_diagonal(const std::string& word, LinkRule* out) { return value_of(kDiagonals, word, out); }
bool parse_fourth_point(const std::string& word, FourthPoint* out) { return value_of(kFourthPoints, word, out); }
bool parse_goal(const std::string& word, Goal* out) { return value_of(kGoals, word, out); }
std::string tiling_words() { return words_of(kTilings); }
std::string wrap_words() { return words_of(kWraps); }
std::string diagonal_words() { return words_of(kDiagonals); }
std::string fourth_point_words() { return words_of(kFourthPoints); }
std::string goal_words() { return words_of(kGoals); }

}  // namespace quax
