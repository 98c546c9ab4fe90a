#include "arena/results_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace quax {

void append_results(const std::string& path, const std::vector<GameResult>& results) {
  std::string text;
  for (const auto& r : results) {
    nlohmann::json j = {{"black", r.black},
                        {"white", r.white},
                        {"result", outcome_name(r.outcome)},
                        {"moves", r.moves},
                        {"variant", variant_info(r.spec.variant).name},
                        {"size", r.spec.size},
                        {"swap", r.spec.swap},
                        {"record", r.record}};
    text += j.dump() + "\n";
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) throw std::runtime_error("cannot open results file " + path);
  // One write: appends of one call are not interleaved with other writers' on Linux.
  const ssize_t written = ::write(fd, text.data(), text.size());
  ::fsync(fd);
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size())) throw std::runtime_error("short write to results file " + path);
}

std::vector<GameResult> load_results(const std::string& path, const GameSpec& spec) {
  std::vector<GameResult> out;
  std::ifstream in(path);
  if (!in) return out;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    try {
      const auto j = nlohmann::json::parse(line);
      GameResult r;
      const auto variant = parse_variant(j.at("variant").get<std::string>());
      if (!variant) throw std::runtime_error("unknown variant");
      r.spec = GameSpec{*variant, j.at("size").get<int>(), j.at("swap").get<bool>()};
      if (r.spec != spec) continue;
      r.black = j.at("black").get<std::string>();
      r.white = j.at("white").get<std::string>();
      const std::string res = j.at("result").get<std::string>();
      if (res == "black") r.outcome = Outcome::kBlackWins;
      else if (res == "white") r.outcome = Outcome::kWhiteWins;
      else if (res == "draw") r.outcome = Outcome::kDraw;
      else throw std::runtime_error("result '" + res + "' is not black, white or draw");
      r.moves = j.value("moves", 0);
      r.record = j.value("record", "");
      out.push_back(std::move(r));
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ":" + std::to_string(line_no) + ": malformed result line (" + e.what() + ")");
    }
  }
  return out;
}

Standings tally(const std::vector<std::string>& players, const std::vector<GameResult>& results, bool include_others) {
  Standings s;
  s.players = players;
  std::map<std::string, int> index;
  for (size_t i = 0; i < players.size(); ++i) index[players[i]] = static_cast<int>(i);
  auto id = [&](const std::string& name) {
    auto it = index.find(name);
    if (it != index.end()) return it->second;
    if (!include_others) return -1;
    s.players.push_back(name);
    return index[name] = static_cast<int>(s.players.size() - 1);
  };
  std::map<std::pair<int, int>, PairRecord> pairs;
  std::vector<std::pair<int, int>> colours;
  for (const auto& r : results) {
    const int b = id(r.black), w = id(r.white);
    if (b < 0 || w < 0 || b == w) continue;
    const int i = std::min(b, w), j = std::max(b, w);
    auto& p = pairs[{i, j}];
    p.i = i;
    p.j = j;
    if (r.outcome == Outcome::kDraw) p.draws += 1;
    else if ((r.outcome == Outcome::kBlackWins) == (b == i)) p.wins_i += 1;
    else p.wins_j += 1;
    colours.emplace_back(b, w);
  }
  s.games_as_black.assign(s.players.size(), 0);
  s.games_as_white.assign(s.players.size(), 0);
  for (auto [b, w] : colours) {
    ++s.games_as_black[b];
    ++s.games_as_white[w];
  }
  for (auto& [key, p] : pairs) s.pairs.push_back(p);
  return s;
}

}  // namespace quax
