#include "serve/board_server.h"

#include <httplib.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "core/bounded_file.h"
#include "core/bounded_json.h"
#include "env/board_layout.h"
#include "mcts/baseline_agents.h"
#include "mcts/play_levels.h"
#include "mcts/search_limits.h"
#include "mcts/search_schema.h"
#include "nets/net_evaluator.h"
#include "nets/players.h"
#include "serve/analysis.h"
#include "serve/balance_reports.h"
#include "serve/catalogue.h"
#include "serve/http_server.h"
#include "serve/json_fields.h"
#include "serve/results_answer.h"
#include "serve/search_budget.h"
#include "serve/search_json.h"
#include "serve/served_folder.h"
#include "serve/views.h"
#include "serve/web_assets.h"

namespace quax {
namespace {

using nlohmann::json;

// Thrown inside a handler: the reply's status and its one-line error.
struct HttpError {
  int status;
  std::string message;
};

constexpr size_t kMaxBodyBytes = 1 << 20;
constexpr std::uintmax_t kServedResultsLimit = 32 * kMiB;  // parsed, a results file costs a few times its size
constexpr size_t kMaxEcho = 80;         // characters of a request's input quoted back in an error
constexpr size_t kMaxErrorChars = 400;  // an error line, whatever it quotes
constexpr double kAnalysisSliceSeconds = 0.25;  // between two analysis events
constexpr int kMaxBaselineCount = 200'000;      // uct playouts, mcts simulations: bounds a request's work
constexpr double kMaxSecondsPerMove = 60.0;

// `text` as an error quotes it: at most kMaxEcho characters, the rest counted, never the
// whole of an input a client sent.
std::string clip(const std::string& text, size_t max = kMaxEcho) {
  if (text.size() <= max) return text;
  return text.substr(0, max) + "... (" + std::to_string(text.size()) + " bytes)";
}

// An error line, clipped (nets/net_evaluator.h: the cause of an error inside a model).
std::string one_line(const std::string& message) { return clip(torch_error_line(message), kMaxErrorChars); }

void reply(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

// The request's field readers and its game (serve/json_fields.h, the static page's too): a field
// of the wrong type or out of range is a 400 naming it.
using Fields = JsonFields<HttpError>;

// The body as a JSON object, its nesting bounded (core/bounded_json.h: a body nested 100,000
// deep would overflow the stack where it is copied or written out).
json parse_body(const std::string& text) {
  json body;
  try {
    body = parse_json(text, "the request body");
  } catch (const JsonError& e) {
    // Nested too deep (byte 0): that line; not JSON (an empty body too): the usual one.
    throw HttpError{400, e.byte == 0 && !text.empty() ? e.what() : "the request body is not a JSON object"};
  }
  if (!body.is_object()) throw HttpError{400, "the request body is not a JSON object"};
  return body;
}

GameSpec spec_from(const json& body) {
  return Fields::game_spec(body, [](const std::string& name) { return clip(name); });
}

int legal_count(const GameState& state) {
  std::vector<int> legal;
  state.legal_actions(&legal);
  return static_cast<int>(legal.size());
}

int query_int(const httplib::Request& req, const char* key, int fallback, int lo, int hi) {
  if (!req.has_param(key)) return fallback;
  const std::string text = req.get_param_value(key);
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < lo || v > hi)
    throw HttpError{400, std::string("'") + key + "' must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi)};
  return static_cast<int>(v);
}

const char* content_type(const std::string& path) {
  auto ends = [&](const char* ext) {
    const std::string e(ext);
    return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  return "application/octet-stream";
}

// The games in memory, the least recently used dropped beyond the limit.
class GameStore {
 public:
  explicit GameStore(size_t limit) : limit_(limit) {}

  std::shared_ptr<GameSession> add(const GameSpec& spec, std::string opponent, std::optional<Player> engine_seat,
                                   std::unique_ptr<Agent> engine, int engine_simulations = 0) {
    std::lock_guard<std::mutex> lock(mu_);
    auto session = std::make_shared<GameSession>("g" + std::to_string(++last_id_), spec, std::move(opponent),
                                                 engine_seat, std::move(engine), engine_simulations);
    lru_.push_front(session);
    index_[session->id()] = lru_.begin();
    while (lru_.size() > limit_) {
      index_.erase(lru_.back()->id());
      lru_.pop_back();  // a request still using it keeps it alive until it ends
    }
    return session;
  }
  std::shared_ptr<GameSession> get(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(id);
    if (it == index_.end()) throw HttpError{404, "no game '" + id + "' (it may have been dropped: at most " + std::to_string(limit_) + " are kept)"};
    lru_.splice(lru_.begin(), lru_, it->second);
    return *it->second;
  }
  bool remove(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(id);
    if (it == index_.end()) return false;
    lru_.erase(it->second);
    index_.erase(it);
    return true;
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return lru_.size();
  }

 private:
  mutable std::mutex mu_;
  size_t limit_;
  uint64_t last_id_ = 0;
  std::list<std::shared_ptr<GameSession>> lru_;  // most recently used first
  std::unordered_map<std::string, std::list<std::shared_ptr<GameSession>>::iterator> index_;
};

// `text` with every `internal` written as `shown`.
std::string replace_all(std::string text, const std::string& internal, const std::string& shown) {
  for (size_t at = text.find(internal); !internal.empty() && at != std::string::npos; at = text.find(internal, at + shown.size()))
    text.replace(at, internal.size(), shown);
  return text;
}

std::string body_too_large() { return "the request body is more than the " + size_text(kMaxBodyBytes) + " limit"; }

// The HTTP layer's limits (serve/http_server.h): its defaults, but for the worker threads and
// the body's limit, which are this server's.
HttpLimits http_limits(const BoardServerOptions& options) {
  HttpLimits limits;
  limits.threads = options.threads;
  limits.max_body_bytes = kMaxBodyBytes;
  return limits;
}

std::string request_too_slow(const HttpLimits& limits) {
  return "the request's head and body did not arrive within " + std::to_string(limits.request_seconds) + " s";
}

// The request's body, read through `reader` and never past kMaxBodyBytes: a chunked body is
// counted as it arrives and refused (413) once over the limit, as cpp-httplib refuses a
// Content-Length over it (a request with neither has an empty body: serve/http_server.h). A
// body cut at the request's deadline is a 408.
std::string read_body(const httplib::ContentReader& reader, const httplib::Response& res, const HttpServer& http) {
  std::string body;
  bool over = false;
  const bool ok = reader([&](const char* data, size_t n) {
    if (body.size() + n > kMaxBodyBytes) return !(over = true);
    body.append(data, n);
    return true;
  });
  if (over || res.status == 413) throw HttpError{413, body_too_large()};
  if (!ok && HttpServer::request_timed_out()) throw HttpError{408, request_too_slow(http.limits())};
  if (!ok) throw HttpError{400, "the request body could not be read (a malformed chunked body, or it stopped)"};
  return body;
}

// LibTorch's intra-op threads, once per HTTP worker thread: requests run side by side.
void one_torch_thread() {
  static thread_local bool done = (set_torch_threads(1), true);
  (void)done;
}

}  // namespace

struct BoardServer::Impl {
  BoardServerOptions options;
  HttpServer http;
  ServedFolder web;  // --web: the page's files
  Catalogue catalogue;
  GameStore games;
  std::atomic<int> analyses{0};
  SearchBudget search_memory;
  BalanceReports balance;
  ResultsAnswers results{kServedResultsLimit};
  std::mutex layouts_mu;
  std::map<std::pair<int, int>, json> layouts;  // (variant, size) -> layout_json
  std::atomic<uint64_t> seeds{1};

  explicit Impl(BoardServerOptions o)
      : options(std::move(o)),
        http(http_limits(options)),
        web(options.web_dir),
        catalogue(options.model_dirs, options.runs_dir, options.device),
        games(options.max_games),
        search_memory(static_cast<std::uint64_t>(options.memory_mb) * kMiB),
        balance(options.balance_dirs) {}

  // The budget of a search of `simulations` on a position with `legal` actions; throws a 503
  // when it does not fit now.
  SearchBudget::Reservation reserve(int legal, int simulations) {
    SearchBudget::Reservation held;
    if (simulations <= 0) return held;  // random: no tree
    std::string why;
    if (!search_memory.reserve(search_memory_bytes(legal, simulations), &held, &why)) throw HttpError{503, why};
    return held;
  }

  const json& layout_of(const GameSpec& spec) {
    std::lock_guard<std::mutex> lock(layouts_mu);
    auto key = std::make_pair(static_cast<int>(spec.variant), spec.size);
    auto it = layouts.find(key);
    if (it == layouts.end()) it = layouts.emplace(key, layout_json(board_layout(spec))).first;
    return it->second;
  }

  json view(GameSession& session) {
    auto lock = session.lock();
    return game_view(session, layout_of(session.spec()));
  }

  // Runs a handler, turning HttpError and any exception into a JSON error reply.
  template <typename F>
  void handle(httplib::Response& res, F&& body) {
    one_torch_thread();
    try {
      body();
    } catch (const HttpError& e) {
      reply(res, e.status, {{"error", one_line(e.message)}});
    } catch (const std::exception& e) {
      reply(res, 500, {{"error", one_line(e.what())}});
    }
  }

  // The engine a game-creation body names (null for "none"), its description, and the
  // simulations (playouts) one of its moves may run, for the memory a move reserves: a timed
  // model player counts as the most a move may have here, kMaxServedSimulations (the clock, not
  // a count, ends its search); 0 for an engine without a tree (random).
  std::unique_ptr<Agent> make_engine(const json& body, const GameSpec& spec, std::string* description,
                                     int* simulations) {
    const std::string opponent = Fields::get_string(body, "opponent", "none");
    if (opponent == "none") return nullptr;
    std::string error;
    PlayerDescription parsed;
    if (parse_player_description(opponent, &parsed, &error) && parsed.kind == PlayerDescription::Kind::kBaseline) {
      const auto colon = opponent.find(':');
      const long count = colon == std::string::npos ? 0 : std::atol(opponent.c_str() + colon + 1);  // random: 0
      if (count > kMaxBaselineCount)
        throw HttpError{400, "'" + clip(opponent) + "': at most " + std::to_string(kMaxBaselineCount) + " here"};
      auto agent = make_baseline_agent(opponent, seeds++, &error);
      if (!agent) throw HttpError{400, error};
      *description = opponent;
      *simulations = static_cast<int>(count);
      return agent;
    }
    const CatalogueModel* model = catalogue.find_model(opponent);
    if (!model) throw HttpError{400, "unknown opponent '" + clip(opponent) + "': random, uct:<playouts>, mcts:<sims> or a served model (GET /api/players)"};
    if (rules_of(model->spec.variant) != rules_of(spec.variant))
      throw HttpError{400, model->name + " plays " + variant_info(model->spec.variant).name + ", not " + variant_info(spec.variant).name};
    const int sims = Fields::get_int(body, "sims", 200, 1, kMaxServedSimulations);
    const double seconds = Fields::get_number(body, "seconds", 0.0, 0.0, kMaxSecondsPerMove);
    // A level (mcts/play_levels.h) is the model's search size and move rule: sims and seconds
    // then do not apply.
    const int level = Fields::get_int(body, "level", 0, 0, kMaxPlayLevel);
    if (seconds > 0 && seconds < kMinPlayerSeconds)
      throw HttpError{400, "'seconds' must be 0 (a count of sims) or a number from " + json(kMinPlayerSeconds).dump() +
                               " to " + json(kMaxSecondsPerMove).dump()};
    PlayerSearchSize size;
    if (level > 0) size.level = level;
    else if (seconds > 0) size.seconds = seconds;
    else size.sims = sims;
    PlayerDescription player = model_player_description(model->path);
    if (!set_player_search_size(&player, size, &error))
      throw HttpError{400, model->name + ": " + replace_all(error, model->path, model->name)};
    *description = player.text;
    if (const json* search = json_field(body, "search")) {
      if (std::string e = set_search_keys(*search, &player.search); !e.empty()) throw HttpError{400, e};
      if (search->contains("simulations")) {
        if (level > 0 || seconds > 0)
          throw HttpError{400, "'simulations' sets the search's size: give it without 'level' or 'seconds'"};
        // The schema allows kMaxSimulations; one engine move here is bounded as 'sims' is
        // (kMaxServedSimulations: the time and memory one request may take, docs/SECURITY.md).
        if (player.search.simulations > kMaxServedSimulations)
          throw HttpError{400, bad_search_value("simulations", "at most " + std::to_string(kMaxServedSimulations) + " here")};
        // The description names the search's size, for the view.
        *description = model->path + ":sims=" + std::to_string(player.search.simulations);
        player.text = *description;
      }
    }
    *simulations = player.seconds > 0 ? kMaxServedSimulations : player.search.simulations;
    auto agent = make_player(player, spec, seeds++, &error, options.device);
    // The player string is this server's own making: the client is told of the model it named.
    if (!agent) throw HttpError{400, model->name + ": " + replace_all(error, *description, model->name)};
    return agent;
  }

  // A POST route: `handler` gets the body, read by read_body (a body over the limit is
  // answered 413 before the handler runs).
  template <typename F>
  void post(const std::string& pattern, F handler) {
    http.Post(pattern, [this, handler](const httplib::Request& req, httplib::Response& res,
                                       const httplib::ContentReader& reader) {
      std::string text;
      bool read = false;
      handle(res, [&] {
        text = read_body(reader, res, http);
        read = true;
      });
      if (read) handler(req, res, text);
    });
  }

  void routes() {
    http.Get("/", [this](const httplib::Request& req, httplib::Response& res) { serve_file("index.html", res); });
    http.Get(R"(/([A-Za-z0-9_\-]+\.(html|js|css|svg|png)))", [this](const httplib::Request& req, httplib::Response& res) {
      serve_file(req.matches[1], res);
    });

    http.Get("/api/variants", [this](const httplib::Request&, httplib::Response& res) {
      handle(res, [&] {
        int count = 0;
        const VariantInfo* all = all_variants(&count);
        json out = json::array();
        for (int i = 0; i < count; ++i) {
          json sizes = json::array();
          for (int n = all[i].min_size; n <= all[i].max_size; ++n)
            if (check_spec({all[i].variant, n, all[i].swap_by_default}).empty()) sizes.push_back(n);
          out.push_back({{"name", all[i].name}, {"default_size", all[i].default_size}, {"min_size", all[i].min_size},
                         {"max_size", all[i].max_size}, {"swap", all[i].swap_by_default}, {"sizes", sizes}});
        }
        reply(res, 200, out);
      });
    });
    http.Get("/api/players", [this](const httplib::Request&, httplib::Response& res) {
      handle(res, [&] {
        json models = json::array();
        for (const auto& m : catalogue.models()) {
          // The variants it plays: its own and those of the same rules (link: quax's model).
          json plays = json::array();
          int count = 0;
          const VariantInfo* all = all_variants(&count);
          for (int i = 0; i < count; ++i)
            if (rules_of(all[i].variant) == rules_of(m.spec.variant)) plays.push_back(all[i].name);
          models.push_back({{"path", m.path}, {"name", m.name}, {"variant", variant_info(m.spec.variant).name},
                            {"plays", plays}, {"sizes", m.sizes}, {"step", m.step}});
        }
        json levels = json::array();
        for (int l = kMinPlayLevel; l <= kMaxPlayLevel; ++l) levels.push_back({{"level", l}, {"name", play_level_name(l)}});
        reply(res, 200, {{"baselines", {"random", "uct:200", "uct:1000", "uct:5000", "mcts:500"}},
                         {"models", models},
                         {"levels", levels}});
      });
    });

    post("/api/games", [this](const httplib::Request& req, httplib::Response& res, const std::string& text) {
      handle(res, [&] {
        const json body = parse_body(text);
        const GameSpec spec = spec_from(body);
        const std::string human = Fields::get_string(body, "human", "black");
        if (human != "black" && human != "white" && human != "both")
          throw HttpError{400, "'human' must be black, white or both"};
        std::string description;
        int simulations = 0;
        auto engine = human == "both" ? nullptr : make_engine(body, spec, &description, &simulations);
        std::optional<Player> seat;
        if (engine) seat = human == "black" ? Player::kWhite : Player::kBlack;
        auto session = games.add(spec, description, seat, std::move(engine), simulations);
        reply(res, 201, view(*session));
      });
    });
    post("/api/replay", [this](const httplib::Request& req, httplib::Response& res, const std::string& text) {
      handle(res, [&] {
        const json body = parse_body(text);
        const GameSpec spec = spec_from(body);
        GameSession trial("", spec, "", std::nullopt, nullptr);
        if (std::string error = trial.load_record(Fields::get_string(body, "record", "")); !error.empty())
          throw HttpError{400, error};
        auto session = games.add(spec, "", std::nullopt, nullptr);
        {
          auto lock = session->lock();
          session->load_record(Fields::get_string(body, "record", ""));
        }
        reply(res, 201, view(*session));
      });
    });
    const std::string game = R"(/api/games/([A-Za-z0-9]{1,32}))";
    http.Get(game, [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] { reply(res, 200, view(*games.get(req.matches[1]))); });
    });
    http.Delete(game, [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        if (!games.remove(req.matches[1])) throw HttpError{404, "no game '" + std::string(req.matches[1]) + "'"};
        res.status = 204;
      });
    });
    post(game + "/play", [this](const httplib::Request& req, httplib::Response& res, const std::string& text) {
      handle(res, [&] {
        auto session = games.get(req.matches[1]);
        const json body = parse_body(text);
        {
          auto lock = session->lock();
          int action = -1;
          if (json_field(body, "action")) {
            action = Fields::get_int(body, "action", -1, 0, session->state().num_actions() - 1);
          } else {
            std::string error;
            action = session->state().parse_action(Fields::get_string(body, "move", ""), &error);
            if (action < 0) throw HttpError{400, error};
          }
          if (session->engine_to_move()) throw HttpError{409, "it is the engine's turn"};
          if (std::string error = session->play(action); !error.empty()) throw HttpError{400, error};
        }
        reply(res, 200, view(*session));
      });
    });
    post(game + "/engine", [this](const httplib::Request& req, httplib::Response& res, const std::string&) {
      handle(res, [&] {
        auto session = games.get(req.matches[1]);
        SearchBudget::Reservation held;  // the engine's tree, freed by engine_move when it ends
        {
          auto lock = session->lock();
          if (session->engine_to_move()) held = reserve(legal_count(session->state()), session->engine_simulations());
        }
        // Takes the game's lock itself, and not while it searches: the game's readers answer meanwhile.
        if (std::string error = session->engine_move(); !error.empty()) throw HttpError{409, error};
        reply(res, 200, view(*session));
      });
    });
    post(game + "/goto", [this](const httplib::Request& req, httplib::Response& res, const std::string& text) {
      handle(res, [&] {
        auto session = games.get(req.matches[1]);
        const json body = parse_body(text);
        {
          auto lock = session->lock();
          const int ply = Fields::get_int(body, "ply", -1, 0, static_cast<int>(session->history().size()));
          if (std::string error = session->go_to(ply); !error.empty()) throw HttpError{400, error};
        }
        reply(res, 200, view(*session));
      });
    });
    post(game + "/undo", [this](const httplib::Request& req, httplib::Response& res, const std::string&) {
      handle(res, [&] {
        auto session = games.get(req.matches[1]);
        {
          auto lock = session->lock();
          session->undo();
        }
        reply(res, 200, view(*session));
      });
    });
    http.Get(game + "/analysis", [this](const httplib::Request& req, httplib::Response& res) { analysis(req, res); });

    http.Get("/api/results", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        const std::string path = req.get_param_value("path");
        if (path.empty()) throw HttpError{400, "'path' names no results file"};
        // Resolved, links and all, inside the runs directory; read there.
        const std::string resolved = catalogue.runs_folder().resolve(path);
        if (resolved.empty())
          throw HttpError{403, "'" + clip(path) + "' is not under the runs directory (--runs " + clip(options.runs_dir) + ")"};
        json query{{"variant", req.get_param_value("variant")}};
        if (req.has_param("size")) query["size"] = query_int(req, "size", 0, 1, 1000);
        if (req.has_param("swap")) query["swap"] = req.get_param_value("swap") == "true";
        const GameSpec spec = spec_from(query);
        std::error_code ec;
        if (!std::filesystem::exists(resolved, ec)) throw HttpError{404, "no results file '" + clip(path) + "'"};
        std::shared_ptr<const std::string> answer;
        try {
          answer = results.answer(resolved, spec);
        } catch (const std::exception& e) {
          throw HttpError{400, e.what()};
        }
        // Served from the shared answer, not a copy per request.
        res.status = 200;
        res.set_content_provider(answer->size(), "application/json",
                                 [answer](size_t offset, size_t length, httplib::DataSink& sink) {
                                   return sink.write(answer->data() + offset, length);
                                 });
      });
    });
    http.Get("/api/runs", [this](const httplib::Request&, httplib::Response& res) {
      handle(res, [&] {
        json list = json::array();
        for (const auto& name : catalogue.runs())
          list.push_back({{"name", name}, {"path", (std::filesystem::path(options.runs_dir) / name).string()}});
        reply(res, 200, list);
      });
    });
    http.Get(R"(/api/runs/([A-Za-z0-9_.\-]{1,200}))", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        json run;
        std::string error;
        if (!catalogue.read_run(req.matches[1], &run, &error))
          throw HttpError{404, "no run '" + clip(req.matches[1]) + "' in " + clip(options.runs_dir)};
        reply(res, 200, run);
      });
    });

    // The Balance tab: the reports of `quax balance` under the served balance directories.
    // A request names a listed report, never a path.
    http.Get("/api/balance", [this](const httplib::Request&, httplib::Response& res) {
      handle(res, [&] {
        json list = json::array();
        for (const auto& entry : balance.list()) list.push_back({{"name", entry.name}, {"path", entry.dir}});
        reply(res, 200, {{"reports", list}, {"dirs", balance.dirs()}});
      });
    });
    const std::string report = R"(/api/balance/([A-Za-z0-9_.\-]{1,200}))";
    http.Get(report, [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        json answer;
        std::string error;
        if (!balance.read(req.matches[1], &answer, &error)) throw HttpError{404, clip(error, kMaxErrorChars)};
        reply(res, 200, answer);
      });
    });
    http.Get(report + "/openings.svg", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        std::string svg, error;
        if (!balance.map_svg(req.matches[1], &svg, &error)) throw HttpError{404, clip(error, kMaxErrorChars)};
        // Shown in an <img>, where an SVG runs no script; opened alone, it may not either.
        res.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
        res.set_header("X-Content-Type-Options", "nosniff");
        res.set_content(svg, "image/svg+xml");
      });
    });
    http.Get("/api/balance-compare", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        const std::string list = req.get_param_value("reports");
        std::vector<std::string> names;
        for (size_t start = 0; start <= list.size() && !list.empty();) {
          const size_t comma = std::min(list.find(',', start), list.size());
          names.push_back(list.substr(start, comma - start));
          if (names.size() > kMaxComparedReports) break;  // refused below, without splitting the rest
          start = comma + 1;
        }
        json answer;
        std::string error;
        if (!balance.compare(names, &answer, &error)) throw HttpError{400, clip(error, kMaxErrorChars)};
        reply(res, 200, answer);
      });
    });

    // Bodies of any method without a route are read like the API's (bounded), then refused:
    // cpp-httplib would otherwise read a chunked one whole before answering 404.
    const auto refuse = [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
      handle(res, [&] {
        read_body(reader, res, http);
        throw HttpError{404, "no such path: " + clip(req.method + " " + req.path)};
      });
    };
    http.Post(".*", refuse);
    http.Put(".*", refuse);
    http.Patch(".*", refuse);
    // PRI (HTTP/2's preface) has no content-reader route in cpp-httplib: refused before its
    // body is read.
    http.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
      if (req.method != "PRI") return httplib::Server::HandlerResponse::Unhandled;
      reply(res, 400, {{"error", "HTTP/2 is not served here"}});
      return httplib::Server::HandlerResponse::Handled;
    });

    // The statuses cpp-httplib answers by itself, before any route, with one line saying what
    // is wrong (the request is quoted clipped).
    http.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      std::string error;
      if (res.status == 400 && HttpServer::request_timed_out()) res.status = 408;  // its head was cut at the deadline
      switch (res.status) {
        case 400: error = "malformed HTTP request"; break;
        case 408: error = request_too_slow(http.limits()); break;
        case 404: error = "no such path: " + clip(req.method + " " + req.path); break;
        case 413: error = body_too_large(); break;
        case 414: error = "the request line is longer than " + std::to_string(CPPHTTPLIB_REQUEST_URI_MAX_LENGTH) + " bytes"; break;
        case 415: error = "unsupported Content-Encoding (send the body uncompressed)"; break;
        case 416: error = "malformed Range header"; break;
        default: error = "HTTP status " + std::to_string(res.status); break;
      }
      reply(res, res.status, {{"error", error}});
    });
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
      reply(res, 500, {{"error", "internal error"}});
    });
  }

  void serve_file(const std::string& name, httplib::Response& res) {
    if (!options.web_dir.empty()) {
      const std::string path = (std::filesystem::path(options.web_dir) / name).string();
      std::string data;
      try {
        data = web.read(path, kWebFileLimit, "web file");
      } catch (const std::exception& e) {
        std::fprintf(stderr, "quax serve: %s\n", one_line(e.what()).c_str());
        return reply(res, 404, {{"error", "no such file: " + clip(name)}});
      }
      return res.set_content(data, content_type(name));
    }
    for (const WebAsset& asset : web_assets())
      if (name == asset.name) return res.set_content(reinterpret_cast<const char*>(asset.data), asset.size, content_type(name));
    reply(res, 404, {{"error", "no such file: " + clip(name)}});
  }

  // Server-sent events of a search of the game's position (README: GET .../analysis).
  void analysis(const httplib::Request& req, httplib::Response& res) {
    handle(res, [&] {
      auto session = games.get(req.matches[1]);
      const int sims = query_int(req, "sims", 400, 1, kMaxServedSimulations);
      std::unique_ptr<GameState> position;
      std::string opponent;
      {
        auto lock = session->lock();
        position = session->state().clone();
        opponent = session->opponent();
      }
      if (position->is_over()) throw HttpError{400, "the game is over: nothing to analyze"};
      const Variant variant = position->spec().variant;
      const CatalogueModel* model = nullptr;
      if (req.has_param("model")) {
        model = catalogue.find_model(req.get_param_value("model"));
        if (!model) throw HttpError{400, "no served model '" + clip(req.get_param_value("model")) + "'"};
      } else {
        PlayerDescription d;
        if (parse_player_description(opponent, &d, nullptr) && d.kind == PlayerDescription::Kind::kModel)
          model = catalogue.find_model(d.model_path);
        if (!model) model = catalogue.best_model(position->spec());
        if (!model) throw HttpError{400, std::string("no model of ") + variant_info(variant).name + " to analyze with (serve one with --models)"};
      }
      std::shared_ptr<const InferenceModel> inference;
      try {
        inference = catalogue.inference_model(*model, position->spec());
      } catch (const std::exception& e) {
        throw HttpError{400, e.what()};
      }
      // The search and its share of the memory budget live as long as the stream.
      struct Stream {
        SearchBudget::Reservation held;
        std::unique_ptr<PositionAnalysis> search;
        std::string game;
      };
      auto stream = std::make_shared<Stream>();
      stream->held = reserve(legal_count(*position), sims);
      stream->game = session->id();
      if (analyses.fetch_add(1) >= options.max_analyses) {
        --analyses;
        throw HttpError{503, "too many analyses at once (" + std::to_string(options.max_analyses) + ")"};
      }
      try {
        stream->search = std::make_unique<PositionAnalysis>(*position, inference, sims);
      } catch (...) {
        --analyses;
        throw;
      }
      res.set_header("Cache-Control", "no-cache");
      res.set_chunked_content_provider(
          "text/event-stream",
          [stream](size_t, httplib::DataSink& sink) {
            // Runs outside handle(), where cpp-httplib does not catch: an exception of the
            // search (a model that fails on this board) ends the stream with an error event
            // and one log line, not the server.
            std::string event;
            bool failed = false;
            try {
              one_torch_thread();
              event = "data: " + stream->search->step(kAnalysisSliceSeconds).dump() + "\n\n";
            } catch (const std::exception& e) {
              const std::string what = one_line(e.what());
              std::fprintf(stderr, "quax serve: the analysis of game %s failed: %s\n", stream->game.c_str(), what.c_str());
              event = "data: " + json{{"error", "the analysis failed: " + what}, {"done", true}}.dump() + "\n\n";
              failed = true;
            }
            if (!sink.is_writable() || !sink.write(event.data(), event.size())) return false;  // the client left
            if (failed || stream->search->done()) sink.done();
            return true;
          },
          [this](bool) { --analyses; });
    });
  }
};

BoardServer::BoardServer(BoardServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  impl_->routes();
}

BoardServer::~BoardServer() = default;

int BoardServer::bind(std::string* error) {
  const auto& o = impl_->options;
  errno = 0;
  const int port = impl_->http.bind_port(o.host, o.port);
  if (port < 0) {
    if (errno == EADDRINUSE)
      *error = "port " + std::to_string(o.port) + " is in use";
    else
      *error = "cannot listen on " + o.host + ":" + std::to_string(o.port) + " (not an address of this machine?)";
  }
  return port;
}

bool BoardServer::run() { return impl_->http.listen_after_bind(); }

void BoardServer::stop() { impl_->http.stop(); }

size_t BoardServer::games_in_memory() const { return impl_->games.size(); }

}  // namespace quax
