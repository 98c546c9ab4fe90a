#include "serve/views.h"

#include <cctype>

#include "env/notation.h"
#include "serve/variant_facts.h"

namespace quax {
namespace {

using nlohmann::json;

json point(const LayoutPoint& p) { return json::array({p.x, p.y}); }

json polygon(const std::vector<LayoutPoint>& points) {
  json out = json::array();
  for (const auto& p : points) out.push_back(point(p));
  return out;
}

json segments(const std::vector<LayoutSegment>& list) {
  json out = json::array();
  for (const auto& s : list) out.push_back(json::array({point(s[0]), point(s[1])}));
  return out;
}

const char* kind_name(LayoutItem::Kind k) {
  switch (k) {
    case LayoutItem::Kind::kLink: return "link";
    case LayoutItem::Kind::kSquare: return "square";
    default: return "cell";
  }
}

// The game's own status line (GameState::status_line(), the terminal's too) capitalised, with
// the engine named when it is to move: "Black to move, swap available (uct:1000)", "Draw".
std::string status_line(const GameSession& s) {
  std::string line = s.state().status_line();
  if (!line.empty()) line[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(line[0])));
  if (s.engine_to_move()) line += " (" + s.opponent() + ")";
  return line;
}

}  // namespace

json layout_json(const BoardLayout& layout) {
  json items = json::array();
  for (const auto& item : layout.items) {
    json j{{"action", item.action}, {"kind", kind_name(item.kind)}, {"center", point(item.center)}, {"label", item.label}};
    if (item.kind == LayoutItem::Kind::kLink)
      j["segments"] = segments(item.segments);
    else
      j["polygon"] = polygon(item.polygon);
    items.push_back(std::move(j));
  }
  json goals = json::array();
  for (const auto& [player, edges] : layout.goals) goals.push_back({{"player", player_name(player)}, {"segments", segments(edges)}});
  json marks = json::array();
  for (const auto& cell : layout.shaded_cells) marks.push_back({{"kind", "shade"}, {"polygon", polygon(cell)}});
  json games = json::array();
  for (const auto& game : layout.games)
    games.push_back({{"level", game.level}, {"center", point(game.center)}, {"sides", segments(game.sides)}});
  json coordinates = json::array();
  for (const auto& label : layout.coordinates) coordinates.push_back({{"text", label.text}, {"x", label.at.x}, {"y", label.at.y}});
  return {{"width", layout.width}, {"height", layout.height}, {"items", std::move(items)}, {"goals", std::move(goals)},
          {"marks", std::move(marks)}, {"games", std::move(games)}, {"wrap", layout.wrap},
          {"coordinates", std::move(coordinates)}};
}

json game_view(const GameSession& s, const json& layout) {
  const GameState& st = s.state();
  const GameSpec& spec = s.spec();
  // The history with each ply's notation and mover, read off a replay from the start.
  json history = json::array();
  std::vector<Player> movers;
  auto walk = new_game(spec);
  for (int action : s.history()) {
    const Player mover = walk->to_move();
    history.push_back({{"action", action}, {"move", walk->action_to_string(action)}, {"player", player_name(mover)}});
    movers.push_back(mover);
    walk->apply(action);
  }
  const int ply = s.ply();
  json last = json::array();
  int turn_actions = 0;
  if (ply > 0) {
    const Player p = movers[ply - 1];
    for (int i = ply - 1; i >= 0 && movers[i] == p; --i) last.push_back(s.history()[i]);
    if (p == st.to_move()) turn_actions = static_cast<int>(last.size());
  }
  std::vector<int> legal;
  st.legal_actions(&legal);
  const int spatial = st.spatial_planes() * st.size() * st.size();
  json extras = json::array();
  for (int a = spatial; a < st.num_actions(); ++a)
    extras.push_back({{"action", a}, {"name", st.action_to_string(a)}, {"legal", st.is_legal(a)}});
  json occupied = json::array();
  for (Player p : {Player::kBlack, Player::kWhite}) {
    std::vector<std::string> pieces = st.stones_of(p);
    const auto links = st.links_of(p);
    pieces.insert(pieces.end(), links.begin(), links.end());
    for (const auto& name : pieces) {
      std::string error;
      const int a = st.parse_action(name, &error);
      if (a >= 0) occupied.push_back({{"action", a}, {"player", player_name(p)}});
    }
  }
  json chain = json::array();
  if (st.is_over()) {
    const auto own = st.final_ownership();
    for (size_t cell = 0; cell < own.size(); ++cell)
      if (own[cell].on_chain) chain.push_back(cell);
  }
  const auto seat = s.engine_seat();
  const std::vector<int> played(s.history().begin(), s.history().begin() + ply);
  return {{"id", s.id()},
          {"variant", variant_info(spec.variant).name},
          {"size", spec.size},
          {"swap", spec.swap},
          {"title", describe(spec)},
          {"opponent", s.opponent().empty() ? "none" : s.opponent()},
          {"human", seat ? player_name(opponent(*seat)) : "both"},
          {"engine_to_move", s.engine_to_move()},
          {"ply", ply},
          {"plies", s.history().size()},
          {"history", std::move(history)},
          {"record", record_text(spec, played)},
          {"to_move", st.is_over() ? json(nullptr) : json(player_name(st.to_move()))},
          {"winner", st.is_over() ? json(outcome_name(st.outcome())) : json(nullptr)},
          {"status", status_line(s)},
          {"move_help", st.move_help()},
          {"points", points_json(st)},
          {"auction", auction_json(st)},
          {"turn_actions", turn_actions},
          {"legal", legal},
          {"extras", std::move(extras)},
          {"occupied", std::move(occupied)},
          {"last", std::move(last)},
          {"chain", std::move(chain)},
          {"layout", layout}};
}

}  // namespace quax
