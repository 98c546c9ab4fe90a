#include "command/gtp_engine.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>
#include <stdexcept>

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

}  // namespace

const std::vector<std::string>& GtpEngine::commands() {
  static const std::vector<std::string> kCommands = {
      "protocol_version", "name",      "version",     "known_command", "list_commands",
      "quit",             "variant",   "boardsize",   "pie",           "clear_board",
      "play",             "genmove",   "undo",        "showboard",     "legal_moves",
      "to_move",          "winner",    "list_stones", "list_links",
  };
  return kCommands;
}

GtpEngine::GtpEngine(const GameSpec& spec, std::unique_ptr<Agent> agent) : agent_(std::move(agent)) { reset(spec); }

void GtpEngine::set_agent(std::unique_ptr<Agent> agent) { agent_ = std::move(agent); }

void GtpEngine::reset(const GameSpec& spec) {
  spec_ = spec;
  state_ = new_game(spec_);
  actions_.clear();
  if (agent_) agent_->reset();
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
  Reply reply{false, "missing command after id " + id};
  if (!tokens.empty()) {
    const std::string command = lower(tokens[0]);
    tokens.erase(tokens.begin());
    reply = dispatch(command, tokens);
    if (command == "quit" && reply.ok) *quit = true;
  }
  std::string out = (reply.ok ? "=" : "?") + id;
  // Multi-line answers (showboard, list_commands) start on their own line.
  if (reply.text.find('\n') != std::string::npos)
    out += "\n" + reply.text;
  else
    out += " " + reply.text;
  return out + "\n\n";
}

void GtpEngine::run(std::istream& in, std::ostream& out) {
  bool quit = false;
  for (std::string line; !quit && std::getline(in, line);) {
    const std::string answer = handle_line(line, &quit);
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
  if (command == "name") return ok("quax");
  if (command == "version") return ok("0.1");
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
  if (command == "genmove") return cmd_genmove(args);
  if (command == "undo") {
    if (auto e = want(0, "none"); !e.empty()) return fail(e);
    return cmd_undo();
  }
  if (command == "showboard") return ok(state_->board_text());
  if (command == "legal_moves") {
    std::vector<int> legal;
    state_->legal_actions(&legal);
    std::vector<std::string> names;
    for (int a : legal) names.push_back(state_->action_to_string(a));
    return ok(join(names, " "));
  }
  if (command == "to_move") return ok(player_name(state_->to_move()));
  if (command == "winner") return ok(outcome_name(state_->outcome()));
  if (command == "list_stones" || command == "list_links") {
    if (auto e = want(1, "a color"); !e.empty()) return fail(e);
    return cmd_list(args, command == "list_links");
  }
  return fail("unknown command '" + command + "'");
}

GtpEngine::Reply GtpEngine::cmd_variant(const std::vector<std::string>& args) {
  if (args.empty()) return {true, variant_info(spec_.variant).name};
  if (args.size() != 1) return {false, "variant takes one name (" + variant_list() + ")"};
  const auto v = parse_variant(args[0]);
  if (!v) return {false, "unknown variant '" + args[0] + "' (known: " + variant_list() + ")"};
  // The board size stays; the pie rule becomes the variant's default.
  GameSpec spec = default_spec(*v);
  spec.size = spec_.size;
  if (auto e = check_spec(spec); !e.empty()) return {false, e};
  reset(spec);
  return {true, ""};
}

GtpEngine::Reply GtpEngine::cmd_boardsize(const std::vector<std::string>& args) {
  if (args.empty()) return {true, std::to_string(spec_.size)};
  if (args.size() != 1 || !all_digits(args[0]) || args[0].size() > 4)
    return {false, "boardsize takes one number, e.g. boardsize 11"};
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
  if (!p) return "unknown color '" + color + "' (black or white)";
  if (state_->is_over()) return "game is over";
  if (*p != state_->to_move()) return "it is " + player_name(state_->to_move()) + "'s turn, not " + player_name(*p) + "'s";
  return "";
}

GtpEngine::Reply GtpEngine::cmd_play(const std::vector<std::string>& args) {
  if (args.size() != 2) return {false, "play takes a color and a move, e.g. play black c5"};
  if (auto e = check_turn(args[0]); !e.empty()) return {false, e};
  std::string error;
  const int action = state_->parse_action(args[1], &error);
  if (action < 0) return {false, error};
  if (auto why = state_->why_illegal(action); !why.empty()) return {false, "illegal move: " + why};
  state_->apply(action);
  actions_.push_back(action);
  return {true, ""};
}

GtpEngine::Reply GtpEngine::cmd_genmove(const std::vector<std::string>& args) {
  if (args.size() != 1) return {false, "genmove takes a color, e.g. genmove white"};
  if (auto e = check_turn(args[0]); !e.empty()) return {false, e};
  if (!agent_) return {false, "no player is set"};
  int action = -1;
  try {
    action = agent_->choose_action(*state_);
  } catch (const std::exception& e) {  // e.g. a model asked to play another variant or size
    return {false, e.what()};
  }
  if (auto why = state_->why_illegal(action); !why.empty())
    return {false, "player " + agent_->name() + " chose an illegal move: " + why};
  const std::string name = state_->action_to_string(action);
  state_->apply(action);
  actions_.push_back(action);
  return {true, name};
}

GtpEngine::Reply GtpEngine::cmd_undo() {
  if (actions_.empty()) return {false, "nothing to undo"};
  std::vector<int> keep(actions_.begin(), actions_.end() - 1);
  reset(spec_);
  for (int a : keep) state_->apply(a);
  actions_ = std::move(keep);
  return {true, ""};
}

GtpEngine::Reply GtpEngine::cmd_list(const std::vector<std::string>& args, bool links) {
  const auto p = parse_player(args[0]);
  if (!p) return {false, "unknown color '" + args[0] + "' (black or white)"};
  return {true, join(links ? state_->links_of(*p) : state_->stones_of(*p), " ")};
}

}  // namespace quax
