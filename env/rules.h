// A variant's rules in a designer's words (docs/VARIANTS.md): the board, how a cross-cut is
// settled, the goal, how many stones a turn, the pie rule and the sizes. Every shipped variant
// states its rules this way (env/variants/), a rules file says the same in YAML
// (rules/rules_file.h), and the registry derives the engine's facts (VariantInfo) from them.
//
// What the engines can play is narrower than what the words can say: check_rules() refuses a
// combination no engine plays, naming the field and why, so a file never reaches a game class
// that would play it wrongly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace quax {

// The board a variant is played on (docs/RULES.md): what draws it and how big "size" is.
enum class BoardShape : int8_t {
  kSquare,    // N x N cells (the quax family, quikquax)
  kTorus,     // N x N cells wrapping both ways (torax)
  kOctagons,  // the 4.8.8 board: N x N octagons and the squares between them (stymie)
  kRhombus,   // N x N hexagons (hex, quadhex)
  kTriangle,  // hexagons on a triangle of side N (y, quady, quady2)
};

// How two diagonal neighbours of one colour connect on the square grids.
enum class LinkRule : int8_t {
  kNone,       // never: only orthogonal neighbours connect (quadrex; the hexagonal boards)
  kChosen,     // a link move of the mover's (quax, link, torax)
  kAutomatic,  // a link made by the stone that forms the pair, first come first linked (quickway)
  kDiagonal,   // always, and a placement that completes a checkerboard is illegal (crossway)
};

// The tiling the board's cells make, as a rules file names it (`board:`).
enum class Tiling : int8_t { kSquare, kOctagons, kHexRhombus, kHexTriangle };
// How the square board's edges meet (`wrap:`).
enum class Wrap : int8_t { kNone, kCylinder, kTorus };
// A 2x2 block holding two stones of each colour on its diagonals (a cross-cut) and three of
// its cells filled: what happens to the fourth (`fourth_point:`).
enum class FourthPoint : int8_t {
  kAllowed,    // either player may fill it, or not (quax, quickway)
  kImposed,    // it is filled at once for the player whose diagonal it blocks (quadrex's cascade)
  kForbidden,  // nobody may fill it: no checkerboard (crossway)
};
// What a player connects to win (`goal:`).
enum class Goal : int8_t {
  kOppositeEdges,         // their two opposite sides
  kThreeSides,            // all three sides of the triangle (y)
  kQuadrants,             // the board and its four quadrants as five games, three of them win
  kQuadrantsOfQuadrants,  // the quadrants split again (quady2)
};

// The largest count of stones one turn may ask for, and the longest schedule written out
// before its last count repeats.
inline constexpr int kMaxStonesPerTurn = 8;
inline constexpr int kMaxScheduleLength = 8;

struct Rules {
  std::string name;  // lower case: a letter, then letters, digits, '-' or '_'; at most 32
  Tiling board = Tiling::kSquare;
  Wrap wrap = Wrap::kNone;
  // Square boards only; the octagons and the hexagonal boards have no diagonal neighbours.
  LinkRule diagonal = LinkRule::kNone;
  FourthPoint fourth_point = FourthPoint::kAllowed;
  Goal goal = Goal::kOppositeEdges;
  // The stones of turn 1, 2, ...; the last count repeats. {1}: one stone a turn.
  std::vector<int> stones_per_turn{1};
  // The stones of one turn go in different quadrants (quikquax).
  bool one_stone_per_quadrant = false;
  bool pie_rule = true;  // on by default in a new game (it may be switched where the rules allow it)
  int default_size = 0, min_size = 0, max_size = 0;

  bool operator==(const Rules& o) const;
  bool operator!=(const Rules& o) const { return !(*this == o); }
};

// Empty when some engine plays `rules` exactly, else one line naming the first field at fault
// and why, e.g. "fourth_point: forbidden needs diagonal: always (crossway's rule); ...".
std::string check_rules(const Rules& rules);

// True when two rule sets play the same game whatever their names, sizes and default pie
// rule (link and quax): a model of one plays the other.
bool same_game_rules(const Rules& a, const Rules& b);

// The sizes some engine plays these rules at (whatever the rules' own sizes say), for a rules
// file that leaves min or max out.
void engine_size_range(const Rules& rules, int* min_size, int* max_size);

// The schedule as written with its repeated tail dropped ([1, 2, 2] plays as [1, 2], [1, 1] as
// [1]), so that equal games have equal rules.
std::vector<int> shortest_schedule(std::vector<int> counts);

// The stones of turn `turn` (0 based) under `rules`.
int stones_in_turn(const Rules& rules, int turn);

// The rules as a rules file says them, every field in a fixed order, so that equal rules give
// equal text: what models and shards carry (`quax variants --rules NAME` prints it).
std::string rules_text(const Rules& rules);

// The first field in which `a` and `b` differ, as "fourth_point: allowed, not imposed" (a's
// value, then b's); empty when they are equal.
std::string rules_difference(const Rules& a, const Rules& b);

// The words of the rules files, for readers and messages: value <-> name of each field.
const char* tiling_name(Tiling t);
const char* wrap_name(Wrap w);
const char* diagonal_name(LinkRule d);
const char* fourth_point_name(FourthPoint f);
const char* goal_name(Goal g);
// The accepted words of a field, "none, link, automatic, always"; false when `word` is none.
bool parse_tiling(const std::string& word, Tiling* out);
bool parse_wrap(const std::string& word, Wrap* out);
bool parse_diagonal(const std::string& word, LinkRule* out);
bool parse_fourth_point(const std::string& word, FourthPoint* out);
bool parse_goal(const std::string& word, Goal* out);
std::string tiling_words();
std::string wrap_words();
std::string diagonal_words();
std::string fourth_point_words();
std::string goal_words();

}  // namespace quax
