#include "arena/results_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <vector>

#include <xxhash.h>

#include "core/bounded_json.h"
#include "core/bounded_file.h"
#include "core/json_error.h"
#include "core/quoted_input.h"
#include "env/game_state.h"
#include "env/notation.h"

namespace quax {

namespace {

std::string errno_text() { return std::strerror(errno); }

// What tells two games of a pair apart as samples: their length and where they ended, up to
// the board's symmetries (the network frame's: GameState::num_net_symmetries), so that games
// that are reflections of each other, or on torax translations, count once; the record itself
// where it does not replay. Strong players repeat games up to symmetry as well as exactly.
std::string game_identity(const GameResult& r) {
  ParsedRecord record;
  std::string error;
  std::unique_ptr<GameState> end;
  if (parse_record(r.record, &record, &error)) end = replay_record(r.spec, record, &error);
  if (!end) return "record " + r.record;
  const size_t floats = static_cast<size_t>(end->num_planes()) * static_cast<size_t>(end->size() * end->size());
  std::vector<float> planes(floats), image(floats);
  end->encode(planes.data());
  uint64_t least = UINT64_MAX;
  for (int s = 0; s < end->num_net_symmetries(); ++s) {
    end->transform_net_planes(s, planes.data(), image.data());
    least = std::min<uint64_t>(least, XXH3_64bits(image.data(), sizeof(float) * floats));
  }
  return "position " + std::to_string(end->move_number()) + " " + std::to_string(least);
}

// Throws std::runtime_error(what is wrong) when `j` is not a result line.
GameResult result_from_json(const nlohmann::json& j) {
  GameResult r;
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  const auto variant = parse_variant(j.at("variant").get<std::string>());
  if (!variant) throw std::runtime_error("unknown variant " + quoted_input(j.at("variant").get<std::string>()));
  r.spec = GameSpec{*variant, j.at("size").get<int>(), j.at("swap").get<bool>()};
  r.black = j.at("black").get<std::string>();
  r.white = j.at("white").get<std::string>();
  const std::string res = j.at("result").get<std::string>();
  if (res == "black") r.outcome = Outcome::kBlackWins;
  else if (res == "white") r.outcome = Outcome::kWhiteWins;
  else if (res == "draw") r.outcome = Outcome::kDraw;
  else throw std::runtime_error("result " + quoted_input(res) + " is not black, white or draw");
  r.moves = j.value("moves", 0);
  r.record = j.value("record", "");
  if (j.contains("seconds")) {
    const auto& t = j.at("seconds");
    r.seconds[0] = t.at("black").get<double>();
    r.seconds[1] = t.at("white").get<double>();
    r.chosen[0] = t.at("black_moves").get<int>();
    r.chosen[1] = t.at("white_moves").get<int>();
  }
  r.resigned = j.value("resigned", false);
  return r;
}

// The file's bytes; a missing file is empty. Anything but a regular file of at most
// kResultsFileLimit bytes is refused (read_regular_file).
std::string read_whole_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::status(path, ec))) return "";
  return read_regular_file(path, kResultsFileLimit, "results file");
}

// A descriptor appending to the results file, created when missing. Throws naming the file
// when it is not a regular file: a FIFO would block the open until a reader came (O_NONBLOCK
// refuses it instead) and a device such as /dev/full is no place for results.
int open_for_append(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd < 0) throw std::runtime_error("cannot write results file '" + path + "': " + errno_text());
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    std::string problem = regular_file_problem(path, UINTMAX_MAX, "results file");
    if (problem.empty()) problem = "'" + path + "' is not a regular results file";
    throw std::runtime_error("cannot write results file: " + problem);
  }
  return fd;
}

}  // namespace

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
    if (r.chosen[0] + r.chosen[1] > 0)
      j["seconds"] = {{"black", std::round(r.seconds[0] * 1000) / 1000}, {"white", std::round(r.seconds[1] * 1000) / 1000},
                      {"black_moves", r.chosen[0]}, {"white_moves", r.chosen[1]}};
    if (r.resigned) j["resigned"] = true;
    text += j.dump() + "\n";
  }
  const int fd = open_for_append(path);
  // One write: appends of one call are not interleaved with other writers' on Linux.
  const ssize_t written = ::write(fd, text.data(), text.size());
  const std::string write_error = written < 0 ? errno_text() : "short write (disk full?)";
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()))
    throw std::runtime_error("cannot write results file '" + path + "': " + write_error);
  if (!synced) throw std::runtime_error("cannot write results file '" + path + "': " + errno_text());
}

ResultsFileContents read_results_file(const std::string& path, const GameSpec& spec) {
  ResultsFileContents out;
  const std::string text = read_whole_file(path);
  out.ends_without_newline = !text.empty() && text.back() != '\n';
  size_t begin = 0;
  for (int line_no = 1; begin < text.size(); ++line_no) {
    size_t end = text.find('\n', begin);
    const bool last = end == std::string::npos || end + 1 == text.size();
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    try {
      GameResult r = result_from_json(parse_json(line, "the line"));
      if (r.spec == spec) out.results.push_back(std::move(r));
    } catch (const JsonError& e) {
      // The parser ran off the end of the line (e.byte counts from 1): the line stops inside
      // its JSON object. A last line without its newline that does not parse was cut too
      // (a write can stop at any byte; one that lost only its newline parses and counts).
      const bool runs_off_end = line[0] == '{' && e.byte > line.size();
      if (runs_off_end || (last && out.ends_without_newline))
        out.cut_lines.push_back(where + "a result line cut short (an interrupted write), set aside");
      else
        out.malformed.push_back(where + "malformed result line (" + std::string(e.what()) + ")");
    } catch (const std::exception& e) {
      out.malformed.push_back(where + "malformed result line (" + json_error_text(e) + ")");
    }
  }
  return out;
}

ResultsFileContents prepare_results_file(const std::string& path, const GameSpec& spec) {
  ResultsFileContents contents = read_results_file(path, spec);
  if (!contents.malformed.empty()) {
    std::string message = contents.malformed.front();
    if (contents.malformed.size() > 1)
      message += " (and " + std::to_string(contents.malformed.size() - 1) + " more malformed lines)";
    throw std::runtime_error(message);
  }
  const int fd = open_for_append(path);
  bool ok = true;
  std::string error;
  if (contents.ends_without_newline) {
    ok = ::write(fd, "\n", 1) == 1 && ::fsync(fd) == 0;
    if (!ok) error = errno_text();
  }
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot write results file '" + path + "': " + error);
  return contents;
}

std::vector<GameResult> load_results(const std::string& path, const GameSpec& spec) {
  ResultsFileContents contents = read_results_file(path, spec);
  if (!contents.malformed.empty()) throw std::runtime_error(contents.malformed.front());
  return std::move(contents.results);
}

Standings tally(const std::vector<std::string>& players, const std::vector<GameResult>& results, bool include_others,
                bool count_distinct) {
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
  std::map<std::pair<int, int>, std::set<std::pair<int, std::string>>> games_of_pair;  // (black, game_identity)
  std::map<std::string, std::string> identity_of_record;  // repeated records are replayed once
  struct Colours {
    int black, white;
    Outcome outcome;
  };
  std::vector<Colours> colours;  // of each counted game
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
    colours.push_back({b, w, r.outcome});
    if (!count_distinct) continue;
    auto known = identity_of_record.find(r.record);
    if (known == identity_of_record.end()) known = identity_of_record.emplace(r.record, game_identity(r)).first;
    games_of_pair[{i, j}].insert({b, known->second});
  }
  // Sized after the loop: include_others may have added players while it ran.
  s.games_as_black.assign(s.players.size(), 0);
  s.games_as_white.assign(s.players.size(), 0);
  s.wins_as_black.assign(s.players.size(), 0);
  s.wins_as_white.assign(s.players.size(), 0);
  for (const Colours& c : colours) {
    ++s.games_as_black[c.black];
    ++s.games_as_white[c.white];
    if (c.outcome == Outcome::kBlackWins) ++s.wins_as_black[c.black];
    if (c.outcome == Outcome::kWhiteWins) ++s.wins_as_white[c.white];
  }
  for (auto& [key, p] : pairs) {
    s.pairs.push_back(p);
    if (count_distinct) s.distinct_games.push_back(static_cast<int>(games_of_pair[key].size()));
  }
  return s;
}

}  // namespace quax
