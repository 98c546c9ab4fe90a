#include "serve/board_server.h"

#include <httplib.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "arena/results_log.h"
#include "env/board_layout.h"
#include "mcts/baseline_agents.h"
#include "nets/players.h"
#include "serve/analysis.h"
#include "serve/catalogue.h"
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
constexpr double kAnalysisSliceSeconds = 0.25;  // between two analysis events
constexpr int kMaxBaselineCount = 200'000;      // uct playouts, mcts simulations: bounds a request's work
constexpr int kMaxSimulations = 100'000;
constexpr double kMaxSecondsPerMove = 60.0;

void reply(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

// Field readers: a missing field takes the fallback; a field of the wrong type or out of range
// is a 400 naming it.
const json* field(const json& body, const char* key) {
  auto it = body.find(key);
  return it == body.end() || it->is_null() ? nullptr : &*it;
}
std::string get_string(const json& body, const char* key, const std::string& fallback) {
  const json* v = field(body, key);
  if (!v) return fallback;
  if (!v->is_string()) throw HttpError{400, std::string("'") + key + "' must be a string"};
  return v->get<std::string>();
}
double get_number(const json& body, const char* key, double fallback, double lo, double hi) {
  const json* v = field(body, key);
  if (!v) return fallback;
  if (!v->is_number() || !(v->get<double>() >= lo && v->get<double>() <= hi))
    throw HttpError{400, std::string("'") + key + "' must be a number from " + json(lo).dump() + " to " + json(hi).dump()};
  return v->get<double>();
}
int get_int(const json& body, const char* key, int fallback, int lo, int hi) {
  const json* v = field(body, key);
  if (v && !v->is_number_integer()) throw HttpError{400, std::string("'") + key + "' must be an integer"};
  return static_cast<int>(get_number(body, key, fallback, lo, hi));
}
bool get_bool(const json& body, const char* key, bool fallback) {
  const json* v = field(body, key);
  if (!v) return fallback;
  if (!v->is_boolean()) throw HttpError{400, std::string("'") + key + "' must be true or false"};
  return v->get<bool>();
}

json parse_body(const httplib::Request& req) {
  auto body = json::parse(req.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) throw HttpError{400, "the request body is not a JSON object"};
  return body;
}

GameSpec spec_from(const json& body) {
  const std::string name = get_string(body, "variant", "");
  const auto variant = parse_variant(name);
  if (!variant) throw HttpError{400, "unknown variant '" + name + "' (known: " + variant_list() + ")"};
  GameSpec spec = default_spec(*variant);
  spec.size = get_int(body, "size", spec.size, 1, 1000);
  spec.swap = get_bool(body, "swap", spec.swap);
  if (std::string error = check_spec(spec); !error.empty()) throw HttpError{400, error};
  return spec;
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
                                   std::unique_ptr<Agent> engine) {
    std::lock_guard<std::mutex> lock(mu_);
    auto session = std::make_shared<GameSession>("g" + std::to_string(++last_id_), spec, std::move(opponent),
                                                 engine_seat, std::move(engine));
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

// LibTorch's intra-op threads, once per HTTP worker thread: requests run side by side.
void one_torch_thread() {
  static thread_local bool done = (set_torch_threads(1), true);
  (void)done;
}

}  // namespace

struct BoardServer::Impl {
  BoardServerOptions options;
  httplib::Server http;
  Catalogue catalogue;
  GameStore games;
  std::atomic<int> analyses{0};
  std::mutex layouts_mu;
  std::map<std::pair<int, int>, json> layouts;  // (variant, size) -> layout_json
  std::atomic<uint64_t> seeds{1};

  explicit Impl(BoardServerOptions o)
      : options(std::move(o)), catalogue(options.model_dirs, options.runs_dir), games(options.max_games) {}

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
      reply(res, e.status, {{"error", e.message}});
    } catch (const std::exception& e) {
      std::string what = e.what();
      reply(res, 500, {{"error", what.substr(0, what.find('\n'))}});
    }
  }

  // The engine a game-creation body names (null for "none"), and its description.
  std::unique_ptr<Agent> make_engine(const json& body, const GameSpec& spec, std::string* description) {
    const std::string opponent = get_string(body, "opponent", "none");
    if (opponent == "none") return nullptr;
    std::string error;
    PlayerDescription parsed;
    if (parse_player_description(opponent, &parsed, &error) && parsed.kind == PlayerDescription::Kind::kBaseline) {
      const auto colon = opponent.find(':');
      if (colon != std::string::npos && std::atol(opponent.c_str() + colon + 1) > kMaxBaselineCount)
        throw HttpError{400, "'" + opponent + "': at most " + std::to_string(kMaxBaselineCount) + " here"};
      auto agent = make_baseline_agent(opponent, seeds++, &error);
      if (!agent) throw HttpError{400, error};
      *description = opponent;
      return agent;
    }
    const CatalogueModel* model = catalogue.find_model(opponent);
    if (!model) throw HttpError{400, "unknown opponent '" + opponent + "': random, uct:<playouts>, mcts:<sims> or a served model (GET /api/players)"};
    if (model->spec.variant != spec.variant)
      throw HttpError{400, model->name + " plays " + variant_info(model->spec.variant).name + ", not " + variant_info(spec.variant).name};
    const int sims = get_int(body, "sims", 200, 1, kMaxSimulations);
    const double seconds = get_number(body, "seconds", 0.0, 0.0, kMaxSecondsPerMove);
    *description = model->path + (seconds > 0 ? ":time=" + json(seconds).dump() : ":sims=" + std::to_string(sims));
    auto agent = make_player(*description, spec, seeds++, &error);
    if (!agent) throw HttpError{400, error};
    return agent;
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
        for (const auto& m : catalogue.models())
          models.push_back({{"path", m.path}, {"name", m.name}, {"variant", variant_info(m.spec.variant).name},
                            {"sizes", m.sizes}, {"step", m.step}});
        reply(res, 200, {{"baselines", {"random", "uct:200", "uct:1000", "uct:5000", "mcts:500"}}, {"models", models}});
      });
    });

    http.Post("/api/games", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        const json body = parse_body(req);
        const GameSpec spec = spec_from(body);
        const std::string human = get_string(body, "human", "black");
        if (human != "black" && human != "white" && human != "both")
          throw HttpError{400, "'human' must be black, white or both"};
        std::string description;
        auto engine = human == "both" ? nullptr : make_engine(body, spec, &description);
        std::optional<Player> seat;
        if (engine) seat = human == "black" ? Player::kWhite : Player::kBlack;
        auto session = games.add(spec, description, seat, std::move(engine));
        reply(res, 201, view(*session));
      });
    });
    http.Post("/api/replay", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        const json body = parse_body(req);
        const GameSpec spec = spec_from(body);
        GameSession trial("", spec, "", std::nullopt, nullptr);
        if (std::string error = trial.load_record(get_string(body, "record", "")); !error.empty())
          throw HttpError{400, error};
        auto session = games.add(spec, "", std::nullopt, nullptr);
        {
          auto lock = session->lock();
          session->load_record(get_string(body, "record", ""));
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
    http.Post(game + "/play", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        auto session = games.get(req.matches[1]);
        const json body = parse_body(req);
        {
          auto lock = session->lock();
          int action = -1;
          if (field(body, "action")) {
            action = get_int(body, "action", -1, 0, session->state().num_actions() - 1);
          } else {
            std::string error;
            action = session->state().parse_action(get_string(body, "move", ""), &error);
            if (action < 0) throw HttpError{400, error};
          }
          if (session->engine_to_move()) throw HttpError{409, "it is the engine's turn"};
          if (std::string error = session->play(action); !error.empty()) throw HttpError{400, error};
        }
        reply(res, 200, view(*session));
      });
    });
    http.Post(game + "/engine", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        auto session = games.get(req.matches[1]);
        {
          auto lock = session->lock();
          if (std::string error = session->engine_move(); !error.empty()) throw HttpError{409, error};
        }
        reply(res, 200, view(*session));
      });
    });
    http.Post(game + "/goto", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] {
        auto session = games.get(req.matches[1]);
        const json body = parse_body(req);
        {
          auto lock = session->lock();
          const int ply = get_int(body, "ply", -1, 0, static_cast<int>(session->history().size()));
          if (std::string error = session->go_to(ply); !error.empty()) throw HttpError{400, error};
        }
        reply(res, 200, view(*session));
      });
    });
    http.Post(game + "/undo", [this](const httplib::Request& req, httplib::Response& res) {
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
        if (path.empty() || !catalogue.is_served_path(path)) throw HttpError{400, "'" + path + "' is not a file in a served directory"};
        json query{{"variant", req.get_param_value("variant")}};
        if (req.has_param("size")) query["size"] = query_int(req, "size", 0, 1, 1000);
        if (req.has_param("swap")) query["swap"] = req.get_param_value("swap") == "true";
        const GameSpec spec = spec_from(query);
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec)) throw HttpError{404, "no results file '" + path + "'"};
        const ResultsFileContents contents = read_results_file(path, spec);
        json list = json::array();
        for (size_t i = 0; i < contents.results.size(); ++i) {
          const GameResult& r = contents.results[i];
          list.push_back({{"index", i}, {"black", r.black}, {"white", r.white}, {"winner", outcome_name(r.outcome)},
                          {"variant", variant_info(r.spec.variant).name}, {"size", r.spec.size}, {"swap", r.spec.swap},
                          {"moves", r.moves}, {"record", r.record}});
        }
        reply(res, 200, {{"games", list}, {"skipped_lines", contents.cut_lines.size() + contents.malformed.size()}});
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
        if (!catalogue.read_run(req.matches[1], &run, &error)) throw HttpError{404, error};
        reply(res, 200, run);
      });
    });

    http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
      if (res.body.empty()) reply(res, res.status, {{"error", "no such path: " + req.method + " " + req.path}});
    });
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
      reply(res, 500, {{"error", "internal error"}});
    });
  }

  void serve_file(const std::string& name, httplib::Response& res) {
    if (!options.web_dir.empty()) {
      std::ifstream in(std::filesystem::path(options.web_dir) / name, std::ios::binary);
      if (!in) return reply(res, 404, {{"error", "no such file: " + name}});
      std::ostringstream data;
      data << in.rdbuf();
      return res.set_content(data.str(), content_type(name));
    }
    for (const WebAsset& asset : web_assets())
      if (name == asset.name) return res.set_content(reinterpret_cast<const char*>(asset.data), asset.size, content_type(name));
    reply(res, 404, {{"error", "no such file: " + name}});
  }

  // Server-sent events of a search of the game's position (README: GET .../analysis).
  void analysis(const httplib::Request& req, httplib::Response& res) {
    handle(res, [&] {
      auto session = games.get(req.matches[1]);
      const int sims = query_int(req, "sims", 400, 1, kMaxSimulations);
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
        if (!model) throw HttpError{400, "no served model '" + req.get_param_value("model") + "'"};
      } else {
        PlayerDescription d;
        if (parse_player_description(opponent, &d, nullptr) && d.kind == PlayerDescription::Kind::kModel)
          model = catalogue.find_model(d.model_path);
        if (!model) model = catalogue.first_model(variant);
        if (!model) throw HttpError{400, std::string("no model of ") + variant_info(variant).name + " to analyze with (serve one with --models)"};
      }
      std::shared_ptr<const InferenceModel> inference;
      try {
        inference = catalogue.inference_model(*model, position->spec());
      } catch (const std::exception& e) {
        throw HttpError{400, e.what()};
      }
      if (analyses.fetch_add(1) >= options.max_analyses) {
        --analyses;
        throw HttpError{503, "too many analyses at once (" + std::to_string(options.max_analyses) + ")"};
      }
      auto search = std::make_shared<PositionAnalysis>(*position, inference, sims);
      res.set_header("Cache-Control", "no-cache");
      res.set_chunked_content_provider(
          "text/event-stream",
          [search](size_t, httplib::DataSink& sink) {
            one_torch_thread();
            const std::string event = "data: " + search->step(kAnalysisSliceSeconds).dump() + "\n\n";
            if (!sink.is_writable() || !sink.write(event.data(), event.size())) return false;  // the client left
            if (search->done()) sink.done();
            return true;
          },
          [this](bool) { --analyses; });
    });
  }
};

BoardServer::BoardServer(BoardServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  const int threads = impl_->options.threads;
  impl_->http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  impl_->http.set_payload_max_length(kMaxBodyBytes);
  impl_->http.set_keep_alive_timeout(2);
  impl_->http.set_read_timeout(10);
  impl_->routes();
}

BoardServer::~BoardServer() = default;

int BoardServer::bind(std::string* error) {
  const auto& o = impl_->options;
  int port = o.port;
  if (port == 0) {
    port = impl_->http.bind_to_any_port(o.host);
  } else if (!impl_->http.bind_to_port(o.host, port)) {
    port = -1;
  }
  if (port < 0) *error = "cannot listen on " + o.host + ":" + std::to_string(o.port) + " (in use, or not an address here)";
  return port;
}

bool BoardServer::run() { return impl_->http.listen_after_bind(); }

void BoardServer::stop() { impl_->http.stop(); }

size_t BoardServer::games_in_memory() const { return impl_->games.size(); }

}  // namespace quax
