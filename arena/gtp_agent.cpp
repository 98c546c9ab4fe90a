#include "arena/gtp_agent.h"

#include <sstream>
#include <stdexcept>

#include "core/quoted_input.h"
#include "env/game_state.h"
#include "env/move_text.h"

namespace quax {

std::vector<std::string> split_gtp_setup(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ';');) {
    const size_t first = part.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    out.push_back(part.substr(first, part.find_last_not_of(" \t") - first + 1));
  }
  return out;
}

GtpAgent::GtpAgent(const GameSpec& spec, const GtpOpponent& opponent) : spec_(spec), opponent_(opponent) {
  if (spec.swap)
    throw std::invalid_argument("a program over GTP plays games without the pie rule (programs write the swap "
                                "differently): play it with the pie rule off");
  process_ = std::make_unique<GtpProcess>(opponent_.name, opponent_.command, opponent_.stderr_path);
  identity_ = process_->ask("name", opponent_.move_seconds) + " " + process_->ask("version", opponent_.move_seconds);
  for (const auto& command : opponent_.setup) process_->ask(command, opponent_.move_seconds);
}

void GtpAgent::reset() {
  moves_.clear();
  sent_ = 0;
  cleared_ = false;
}

void GtpAgent::inform_action(const GameState& before, int action) {
  moves_.push_back(player_name(before.to_move()) + " " + before.action_to_string(action));
}

int GtpAgent::choose_action(const GameState& state) {
  if (moves_.size() != static_cast<size_t>(state.move_number()))
    throw GtpProcessError(opponent_.name + ": told " + std::to_string(moves_.size()) + " moves of a game at move " +
                          std::to_string(state.move_number()) + " (only the arena's games tell a program the moves)");
  if (!cleared_) {
    process_->ask("clear_board", opponent_.move_seconds);
    cleared_ = true;
  }
  for (; sent_ < moves_.size(); ++sent_) process_->ask("play " + moves_[sent_], opponent_.move_seconds);
  const std::string command = "genmove " + player_name(state.to_move());
  std::istringstream answer(process_->ask(command, opponent_.move_seconds));
  std::string word;
  answer >> word;
  word = lower_case(word);
  if (word.empty()) throw GtpProcessError(opponent_.name + ": no move in its answer to '" + command + "'");
  if (word == "resign") return kResignAction;
  std::string error;
  const int action = state.parse_action(word, &error);
  if (action < 0)
    throw GtpProcessError(opponent_.name + ": answered '" + command + "' with " + quoted_input(word) + ": " + error);
  if (const auto why = state.why_illegal(action); !why.empty())
    throw GtpProcessError(opponent_.name + ": answered '" + command + "' with the illegal move " + quoted_input(word) +
                          ": " + why);
  sent_ = moves_.size() + 1;  // its own move is on its board; inform_action adds it to moves_
  return action;
}

}  // namespace quax
