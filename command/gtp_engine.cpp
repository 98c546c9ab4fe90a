#include "command/gtp_engine.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "core/quoted_input.h"

namespace quax {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

// GTP 2 section 3.1: drop control characters but tab and newline, tabs become spaces,
// everything after '#' is a comment.
std::string clean_line(const std::string& line) {
  std::string out;
  for (char ch : line) {
    if (ch == '#') break;
    if (ch == '\t') ch = ' ';
    if (static_cast<unsigned char>(ch) < 32 || ch == 127) continue;
    out += ch;
  }
  return out;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A number of seconds as GTP's time commands write them (integers; decimals accepted too).
bool parse_seconds(const std::string& s, double* out) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

// A move name that is one cell ("c5"): what HexGui can mark on its board.
bool is_cell_name(const std::string& name) {
  size_t i = 0;
  while (i < name.size() && std::isalpha(static_cast<unsigned char>(name[i]))) ++i;
  const size_t letters = i;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  return letters > 0 && i > letters && i == name.size();
}

// The result as one GTP answer's text: no empty line inside it (an empty line ends an answer)
// and no newline at its end.
std::string answer_text(const std::string& text) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

// What HexGui's analysis menu offers (its AnalyzeDefinition: "type/label/command", %m the
// colour to move): pspairs draws each pair's text on its cell, var the moves in turn.
constexpr const char* kHexguiAnalyzeCommands =
    "pspairs/Visits/quax-visits %m\n"
    "pspairs/Values/quax-values %m\n"
    "var/Principal variation/quax-pv %m";

}  // namespace

const std::vector<std::string>& GtpEngine::commands() {
  static const std::vector<std::string> kCommands = {
      "protocol_version", "name",      "version",     "known_command", "list_commands",
      "quit",             "variant",   "boardsize",   "pie",           "clear_board",
      "play",             "genmove",   "undo",        "showboard",     "legal_moves",
      "to_move",          "winner",    "list_stones", "list_links",    "final_score",
      "reg_genmove",      "time_settings", "time_left", "hexgui-analyze_commands",
      "quax-visits",      "quax-values", "quax-pv",
  };
  return kCommands;
}

GtpEngine::GtpEngine(const GameSpec& spec, std::unique_ptr<GtpPlayer> player) : player_(std::move(player)) {
  reset(spec);
}

void GtpEngine::reset(const GameSpec& spec) {
  spec_ = spec;
  state_ = new_game(spec_);
  actions_.clear();
  hexgui_swap_at_ = -1;
  if (player_) player_->reset();
}

void GtpEngine::apply(int action) {
  const bool swap = state_->action_to_string(action) == "swap";
  state_->apply(action);
  actions_.push_back(action);
  // HexGui keeps its board after its swap; only hex's rhombus needs the mirror (HexGui's Y
  // board recolours the stone in place and hands the move over, as the engine does).
  if (swap && swap_word_ == "swap-pieces" && spec_.variant == Variant::kHex)
    hexgui_swap_at_ = static_cast<int>(actions_.size()) - 1;
}

Player GtpEngine::across(Player p) const { return hexgui_frame() ? opponent(p) : p; }

Outcome GtpEngine::across(Outcome o) const {
  if (!hexgui_frame()) return o;
  if (o == Outcome::kBlackWins) return Outcome::kWhiteWins;
  if (o == Outcome::kWhiteWins) return Outcome::kBlackWins;
  return o;
}

int GtpEngine::across(int action) const {
  const int n = spec_.size;
  if (!hexgui_frame() || action < 0 || action >= n * n) return action;
  return (action % n) * n + action / n;  // (x, y) -> (y, x), as the engine's swap mirrors
}

std::unique_ptr<GameState> GtpEngine::client_view() const {
  if (!hexgui_frame()) return state_->clone();
  GameSpec spec = spec_;
  spec.swap = false;  // the swap is spent; HexGui's board never had it
  auto view = new_game(spec);
  for (int i = 0; i < static_cast<int>(actions_.size()); ++i)
    if (i != hexgui_swap_at_) view->apply(i > hexgui_swap_at_ ? across(actions_[i]) : actions_[i]);
  return view;
}

std::string GtpEngine::handle_line(const std::string& raw, bool* quit) {
  std::istringstream words(clean_line(raw));
  std::vector<std::string> tokens;
  for (std::string w; words >> w;) tokens.push_back(w);
  if (tokens.empty()) return "";
  std::string id;
  if (all_digits(tokens[0])) {
    id = tokens[0];
    tokens.erase(tokens.begin());
  }
  Reply reply{false, "missing command after id " + quoted_input(id)};
  if (!tokens.empty()) {
    const std::string command = lower(tokens[0]);
    tokens.erase(tokens.begin());
    reply = dispatch(command, tokens);
    if (command == "quit" && reply.ok) *quit = true;
  }
  // "= " and the first line together, also for a multi-line result (see the header).
  return (reply.ok ? "=" : "?") + id + " " + answer_text(reply.text) + "\n\n";
}

namespace {

// The next line of `in` (without its '\n') into *line; false at the end of input. A line of
// more than kGtpLineLimit bytes is read to its end but not kept: *too_long is set and *line
// holds its first kGtpLineLimit bytes, so that a client sending without newlines cannot make
// the engine hold more.
bool read_bounded_line(std::istream& in, std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (;;) {
    const int ch = buf->sbumpc();
    if (ch == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (ch == '\n') return true;
    if (line->size() < kGtpLineLimit)
      line->push_back(static_cast<char>(ch));
    else
      *too_long = true;
  }
}

}  // namespace

void GtpEngine::run(std::istream& in, std::ostream& out) {
  bool quit = false;
  std::string line;
  bool too_long = false;
  while (!quit && read_bounded_line(in, &line, &too_long)) {
    const std::string answer =
        too_long ? "? line longer than " + std::to_string(kGtpLineLimit / 1024) + " KB refused\n\n" : handle_line(line, &quit);
    if (!answer.empty()) out << answer << std::flush;
  }
}

GtpEngine::Reply GtpEngine::dispatch(const std::string& command, const std::vector<std::string>& args) {
  auto want = [&](size_t n, const char* usage) -> std::string {
    if (args.size() == n) return "";
    return command + " takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + " (" + usage + "), got " +
           std::to_string(args.size());
  };
  auto ok = [](std::string text) { return Reply{true, std::move(text)}; };
  auto fail = [](std::string text) { return Reply{false, std::move(text)}; };

  if (command == "protocol_version") return ok("2");
  if (command == "name") return ok(player_ ? "quax (" + player_->label(spec_) + ")" : "quax");
  if (command == "version") {
    const auto step = player_ ? player_->model_step(spec_) : std::nullopt;
    return ok(step ? "0.1 (model step " + std::to_string(*step) + ")" : "0.1");
  }
  if (command == "quit") return ok("");
  if (command == "known_command") {
    if (auto e = want(1, "a command name"); !e.empty()) return fail(e);
    const auto& all = commands();
    return ok(std::find(all.begin(), all.end(), lower(args[0])) != all.end() ? "true" : "false");
  }
  if (command == "list_commands") return ok(join(commands(), "\n"));
  if (command == "variant") return cmd_variant(args);
  if (command == "boardsize") return cmd_boardsize(args);
  if (command == "pie") return cmd_pie(args);
  if (command == "clear_board") {
    if (auto e = want(0, "none"); !e.empty()) return fail(e);
    reset(spec_);
    return ok("");
  }
  if (command == "play") return cmd_play(args);
  if (command == "genmove" || command == "reg_genmove") return cmd_genmove(args, command == "genmove");
  if (command == "final_score") {
    if (auto e = want(0, "none"); !e.empty()) return fail(e);
    return cmd_final_score();
  }
  if (command == "time_settings") return cmd_time_settings(args);
  if (command == "time_left") return cmd_time_left(args);
  if (command == "hexgui-analyze_commands") {
    swap_word_ = "swap-pieces";  // only HexGui asks this
    return ok(kHexguiAnalyzeCommands);
  }
  if (command == "quax-visits" || command == "quax-values" || command == "quax-pv") return cmd_analysis(command, args);
  if (command == "undo") {
    if (auto e = want(0, "none"); !e.empty()) return fail(e);
    return cmd_undo();
  }
  if (command == "showboard") return ok(client_view()->board_text());
  if (command == "legal_moves") {
    const auto view = client_view();
    std::vector<int> legal;
    view->legal_actions(&legal);
    std::vector<std::string> names;
    for (int a : legal) names.push_back(view->action_to_string(a));
    return ok(join(names, " "));
  }
  // From the engine's own position across the frame (not client_view(), which replays what
  // the client said): a wrong mirror shows here as a wrong winner.
  if (command == "to_move") return ok(player_name(across(state_->to_move())));
  if (command == "winner") return ok(outcome_name(across(state_->outcome())));
  if (command == "list_stones" || command == "list_links") {
    if (auto e = want(1, "a color"); !e.empty()) return fail(e);
    return cmd_list(args, command == "list_links");
  }
  return fail("unknown command " + quoted_input(command));
}

GtpEngine::Reply GtpEngine::cmd_variant(const std::vector<std::string>& args) {
  if (args.empty()) return {true, variant_info(spec_.variant).name};
  if (args.size() > 2) return {false, "variant takes a name and optionally a size (" + variant_list() + ")"};
  const auto v = parse_variant(args[0]);
  if (!v) return {false, "unknown variant " + quoted_input(args[0]) + " (known: " + variant_list() + ")"};
  // The pie rule becomes the variant's default.
  GameSpec spec = default_spec(*v);
  if (args.size() == 2) {
    if (!all_digits(args[1]) || args[1].size() > 4) return {false, "variant takes a size as a number, e.g. variant quikquax 6"};
    spec.size = std::stoi(args[1]);
    if (auto e = check_spec(spec); !e.empty()) return {false, e};
    reset(spec);
    return {true, ""};
  }
  // The board size stays where the variant allows it; else the nearest size it allows, said
  // in the reply, so that a client need not know every variant's size rules to switch.
  spec.size = spec_.size;
  std::string note;
  if (auto why = check_spec(spec); !why.empty()) {
    spec.size = nearest_valid_size(*v, spec_.size);
    note = "size " + std::to_string(spec.size) + " (" + why + ")";
  }
  if (auto e = check_spec(spec); !e.empty()) return {false, e};
  reset(spec);
  return {true, note};
}

GtpEngine::Reply GtpEngine::cmd_boardsize(const std::vector<std::string>& args) {
  if (args.empty()) return {true, std::to_string(spec_.size)};
  auto number = [](const std::string& a) { return all_digits(a) && a.size() <= 4; };
  if (args.size() > 2 || !std::all_of(args.begin(), args.end(), number))
    return {false, "boardsize takes one number, e.g. boardsize 11 (or width and height, equal: boardsize 11 11)"};
  // HexGui sends width and height; every board here has one size.
  if (args.size() == 2 && std::stoi(args[0]) != std::stoi(args[1]))
    return {false, "boardsize " + args[0] + " " + args[1] + " refused: " + variant_info(spec_.variant).name +
                       " boards are N x N (width and height equal)"};
  GameSpec spec = spec_;
  spec.size = std::stoi(args[0]);
  if (auto e = check_spec(spec); !e.empty()) return {false, e};
  reset(spec);
  return {true, ""};
}

GtpEngine::Reply GtpEngine::cmd_pie(const std::vector<std::string>& args) {
  if (args.empty()) return {true, spec_.swap ? "on" : "off"};
  const std::string a = args.size() == 1 ? lower(args[0]) : "";
  if (a != "on" && a != "off") return {false, "pie takes on or off"};
  GameSpec spec = spec_;
  spec.swap = a == "on";
  if (auto e = check_spec(spec); !e.empty()) return {false, e};
  reset(spec);
  return {true, ""};
}

std::string GtpEngine::check_turn(const std::string& color) const {
  const auto p = parse_player(color);
  if (!p) return "unknown color " + quoted_input(color) + " (black or white)";
  if (state_->is_over()) return "game is over";
  const Player mover = across(state_->to_move());  // in the client's words
  if (*p != mover) return "it is " + player_name(mover) + "'s turn, not " + player_name(*p) + "'s";
  return "";
}

GtpEngine::Reply GtpEngine::cmd_play(const std::vector<std::string>& args) {
  if (args.size() != 2) return {false, "play takes a color and a move, e.g. play black c5"};
  if (auto e = check_turn(args[0]); !e.empty()) return {false, e};
  std::string error;
  std::string move = args[1];
  // HexGui's word for the swap; answers use it from then on.
  if (lower(move) == "swap-pieces") {
    move = "swap";
    swap_word_ = "swap-pieces";
  }
  int action = state_->parse_action(move, &error);
  if (action < 0) return {false, error};
  if (hexgui_frame() && is_cell_name(state_->action_to_string(action))) {
    // The refusal names the cell as HexGui shows it.
    if (auto why = client_view()->why_illegal(action); !why.empty()) return {false, "illegal move: " + why};
    action = across(action);
  }
  if (auto why = state_->why_illegal(action); !why.empty()) return {false, "illegal move: " + why};
  apply(action);
  return {true, ""};
}

std::string GtpEngine::move_name(int action) const {
  const std::string name = state_->action_to_string(across(action));
  return name == "swap" ? swap_word_ : name;
}

GtpEngine::Reply GtpEngine::cmd_genmove(const std::vector<std::string>& args, bool play) {
  const std::string command = play ? "genmove" : "reg_genmove";
  if (args.size() != 1) return {false, command + " takes a color, e.g. " + command + " white"};
  if (auto e = check_turn(args[0]); !e.empty()) return {false, e};
  if (!player_) return {false, "no player is set"};
  const int mover = static_cast<int>(state_->to_move());
  std::vector<int> legal;
  state_->legal_actions(&legal);
  const double seconds = clock_.budget(mover, GtpClock::moves_left(static_cast<int>(legal.size())));
  const auto start = std::chrono::steady_clock::now();
  int action = -1;
  try {
    action = player_->choose(*state_, seconds);
  } catch (const std::exception& e) {  // e.g. a model asked to play another variant or size
    return {false, e.what()};
  }
  // The whole move counts against the clock, not only the search.
  clock_.spend(mover, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), seconds);
  if (auto why = state_->why_illegal(action); !why.empty())
    return {false, "player " + player_->label(spec_) + " chose an illegal move: " + why};
  const std::string name = move_name(action);
  if (play) apply(action);
  return {true, name};
}

GtpEngine::Reply GtpEngine::cmd_final_score() {
  switch (across(state_->outcome())) {
    case Outcome::kBlackWins: return {true, "B+"};
    case Outcome::kWhiteWins: return {true, "W+"};
    case Outcome::kDraw: return {true, "0"};
    default: return {false, "game is not over (no score before the end)"};
  }
}

GtpEngine::Reply GtpEngine::cmd_time_settings(const std::vector<std::string>& args) {
  const std::string usage = "time_settings takes main time, byo-yomi time and byo-yomi stones, e.g. time_settings 300 0 0";
  double main = 0, byoyomi = 0;
  if (args.size() != 3 || !parse_seconds(args[0], &main) || !parse_seconds(args[1], &byoyomi) || !all_digits(args[2]) ||
      args[2].size() > 6)
    return {false, usage};
  if (auto e = clock_.set(main, byoyomi, std::stoi(args[2])); !e.empty()) return {false, e};
  if (player_) player_->prepare(spec_);
  return {true, ""};
}

GtpEngine::Reply GtpEngine::cmd_time_left(const std::vector<std::string>& args) {
  const std::string usage = "time_left takes a colour, seconds and stones, e.g. time_left white 120 0";
  double seconds = 0;
  if (args.size() != 3 || !parse_seconds(args[1], &seconds) || !all_digits(args[2]) || args[2].size() > 6)
    return {false, usage};
  const auto p = parse_player(args[0]);
  if (!p) return {false, "unknown color " + quoted_input(args[0]) + " (black or white)"};
  const int side = static_cast<int>(across(*p));  // the engine's colour of the client's
  if (auto e = clock_.set_left(side, seconds, std::stoi(args[2])); !e.empty()) return {false, e};
  if (player_) player_->prepare(spec_);
  return {true, ""};
}

GtpEngine::Reply GtpEngine::cmd_analysis(const std::string& command, const std::vector<std::string>& args) {
  if (args.size() > 1) return {false, command + " takes at most a colour, the player to move"};
  if (state_->is_over()) return {false, "game is over"};
  if (args.size() == 1)
    if (auto e = check_turn(args[0]); !e.empty()) return {false, e};
  if (!player_) return {false, "no player is set"};
  GtpAnalysis analysis;
  std::string error;
  if (!player_->analyse(*state_, kAnalysisSims, &analysis, &error)) return {false, error};
  const bool hexgui = swap_word_ == "swap-pieces";
  std::string out;
  auto add = [&out](const std::string& item) { out += (out.empty() ? "" : " ") + item; };
  if (command == "quax-pv") {
    // HexGui marks each move of the line on a cell: the line stops before anything else.
    auto walk = state_->clone();
    for (int a : analysis.pv) {
      const std::string name = walk->action_to_string(across(a));
      if (hexgui && !is_cell_name(name)) break;
      add(name == "swap" ? swap_word_ : name);
      walk->apply(a);
      if (walk->is_over()) break;
    }
    return {true, out};
  }
  // pspairs: "cell text" pairs for the moves the search visited (HexGui draws the text on
  // the cell, so only cells where the client is HexGui).
  for (const auto& c : analysis.children) {
    if (c.visits <= 0) continue;
    const std::string name = move_name(c.action);
    if (hexgui && !is_cell_name(name)) continue;
    if (command == "quax-visits") {
      add(name + " " + std::to_string(c.visits));
    } else {
      char value[16];
      std::snprintf(value, sizeof value, "%.2f", c.q);
      add(name + " " + value);
    }
  }
  return {true, out};
}

GtpEngine::Reply GtpEngine::cmd_undo() {
  if (actions_.empty()) return {false, "nothing to undo"};
  // The game is replayed without its last move. The player keeps its tree: its next search
  // keeps what lies below the position it is asked about, or starts afresh (SearchTree::reroot).
  std::vector<int> keep(actions_.begin(), actions_.end() - 1);
  auto replayed = new_game(spec_);
  for (int a : keep) replayed->apply(a);
  state_ = std::move(replayed);
  actions_ = std::move(keep);
  if (hexgui_swap_at_ >= static_cast<int>(actions_.size())) hexgui_swap_at_ = -1;
  return {true, ""};
}

GtpEngine::Reply GtpEngine::cmd_list(const std::vector<std::string>& args, bool links) {
  const auto p = parse_player(args[0]);
  if (!p) return {false, "unknown color " + quoted_input(args[0]) + " (black or white)"};
  const auto view = client_view();
  return {true, join(links ? view->links_of(*p) : view->stones_of(*p), " ")};
}

}  // namespace quax
