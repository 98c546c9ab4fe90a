#include "env/notation.h"
#include "core/quoted_input.h"
#include "env/move_text.h"

#include <algorithm>
#include <cctype>

namespace quax {

namespace {

bool is_separator(char ch) { return ch == ',' || std::isspace(static_cast<unsigned char>(ch)); }

std::vector<std::string> split_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_separator(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !is_separator(text[i])) ++i;
    if (i > start) tokens.emplace_back(text.substr(start, i - start));
  }
  return tokens;
}

}  // namespace

bool parse_record(std::string_view text, ParsedRecord* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  ParsedRecord record;
  std::vector<std::string> tokens = split_tokens(text);
  if (tokens.empty()) return fail("the record is empty");
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string t = lower_case(tokens[i]);
    if (t != "resigns") continue;
    if (i == 0) return fail("'resigns' must follow a player name (e.g. 'Black resigns')");
    const auto who = parse_player(tokens[i - 1]);
    if (!who) return fail(quoted_input(tokens[i - 1]) + " is not a player name (before 'resigns')");
    if (i + 1 != tokens.size()) return fail(quoted_input(tokens[i - 1] + " resigns") + " must end the record");
    record.resigned = *who;
    tokens.resize(i - 1);
    break;
  }
  record.moves = std::move(tokens);
  *out = std::move(record);
  return true;
}

std::unique_ptr<GameState> replay_record(const GameSpec& spec, const ParsedRecord& record, std::string* error,
                                         std::vector<int>* actions) {
  auto state = new_game(spec);
  if (actions) actions->clear();
  for (size_t i = 0; i < record.moves.size(); ++i) {
    const std::string& move = record.moves[i];
    const std::string ply = "ply " + std::to_string(i + 1);
    const std::string where = ply + " (move " + quoted_input(move) + "): ";
    std::string why;
    const std::vector<int> turn = state->parse_record_token(move, &why);
    if (turn.empty()) {
      // The parser's reason quotes the move already: once is enough for a hostile token.
      if (error) *error = ply + ": " + why;
      return nullptr;
    }
    for (int action : turn) {  // one action, or a turn written as one token (Torax's auction)
      why = state->why_illegal(action);
      if (!why.empty()) {
        if (error) *error = where + why;
        return nullptr;
      }
      state->apply(action);
      if (actions) actions->push_back(action);
    }
  }
  if (record.resigned != Player::kNone && state->is_over()) {
    if (error)
      *error = player_name(record.resigned) + " resigns after the game ended at ply " +
               std::to_string(state->move_number()) + " (winner: " + outcome_name(state->outcome()) + ")";
    return nullptr;
  }
  return state;
}

std::string record_text(const GameSpec& spec, const std::vector<int>& actions) {
  auto state = new_game(spec);
  std::string out;
  for (int a : actions) {
    const auto form = state->record_form(a);
    if (form != GameState::RecordForm::kImplied) {
      if (!out.empty() && form == GameState::RecordForm::kToken) out += ' ';
      out += state->action_to_string(a);
    }
    state->apply(a);
  }
  return out;
}

}  // namespace quax
