// The engine of the static page (scripts/build_site.sh): env/, mcts/ and the browser board's
// game views (serve/views.h, serve/game_session.h) compiled to WebAssembly with emscripten, and
// a small embind API over them. No rule and no search is written again here: the page's
// JavaScript (site/web/page_backend.js) answers the calls app.js makes to the server's /api
// with the functions below, and runs the network (ONNX Runtime Web) on the leaves a search
// hands out, batch by batch, as run_searches (mcts/search_agent.h) does natively:
//
//   h = search_start(game, "engine" | "analysis", sims)   // a tree at the game's position
//   while (!search_done(h)) {
//     n = search_collect(h)             // n pending leaves, planes in search_planes(h)
//     ... JS evaluates n positions, writes logits and values ...
//     search_deliver(h, n)              // backs them up
//   }
//   search_finish(h)                     // engine: plays the move; analysis: the report
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "env/board_layout.h"
#include "env/game_state.h"
#include "env/notation.h"
#include "env/rng.h"
#include "env/types.h"
#include "mcts/agent.h"
#include "mcts/play_levels.h"
#include "mcts/search_limits.h"
#include "mcts/search_schema.h"
#include "mcts/search_settings.h"
#include "mcts/search_tree.h"
#include "serve/game_session.h"
#include "serve/json_fields.h"
#include "serve/views.h"

namespace quax {
namespace {

using nlohmann::json;

struct ApiError {
  int status;
  std::string message;
};

// As nets/players.h's kPlayerLeavesPerBatch: a model player's leaves per evaluator batch.
constexpr int kPlayerLeavesPerBatch = 4;
// As serve/analysis.cpp: the analysis panel's leaves per batch.
constexpr int kAnalysisLeavesPerBatch = 8;
constexpr size_t kMaxGames = 64;
// As the server's bounds of a timed move and mcts/search_agent.cpp's budget of a timed search.
constexpr double kMinSeconds = 0.001, kMaxSecondsPerMove = 60.0;
constexpr int kTimedSearchBudget = 50'000'000;

// The page's engine: a model of the site's catalogue, its search settings and the name the
// view shows. The search itself runs step-wise from JavaScript; choose_action is never called.
class PageModelAgent final : public Agent {
 public:
  PageModelAgent(std::string name, std::string model, const SearchSettings& s, double seconds)
      : name_(std::move(name)), model_(std::move(model)), settings_(s), seconds_(seconds) {}
  std::string name() const override { return name_; }
  int choose_action(const GameState&) override { throw std::logic_error("the page searches step-wise"); }
  const std::string& model() const { return model_; }
  const SearchSettings& settings() const { return settings_; }
  // > 0: each move searches this long (the page's clock ends the search), not a count.
  double seconds() const { return seconds_; }

 private:
  std::string name_, model_;
  SearchSettings settings_;
  double seconds_;
};

std::string clip(const std::string& s) { return s.size() > 60 ? s.substr(0, 60) + "..." : s; }

// The request's field readers and its game, the server's own (serve/json_fields.h).
using Fields = JsonFields<ApiError>;

GameSpec spec_from(const json& body) { return Fields::game_spec(body, clip); }

// A model of the site (models.json beside the page): name, variant, the sizes it has ONNX
// files for, and its level table (its own, from its description, else the default one).
struct SiteModel {
  std::string name;
  Variant variant;
  std::vector<int> sizes;
  int step = 0;
  LevelTable levels = default_level_table();
};

// The level table of a model description's "levels" (nets/model_levels.h's layout:
// {"table": [{"sims", "temperature", ...} x 10]}); refused as check_level_table refuses.
LevelTable level_table_from(const json& levels, const std::string& model) {
  const json* table = json_field(levels, "table");
  if (!table || !table->is_array() || table->size() != kMaxPlayLevel - kMinPlayLevel + 1)
    throw std::runtime_error(model + ": 'levels' must hold a table of 10 entries");
  LevelTable out{};
  for (size_t i = 0; i < table->size(); ++i) {
    const json& e = (*table)[i];
    if (!e.is_object() || !e.contains("sims") || !e["sims"].is_number_integer() || !e.contains("temperature") ||
        !e["temperature"].is_number())
      throw std::runtime_error(model + ": level " + std::to_string(i + 1) + " needs an integer 'sims' and a number 'temperature'");
    out[i] = {e["sims"].get<int>(), e["temperature"].get<float>()};
  }
  if (std::string error = check_level_table(out); !error.empty()) throw std::runtime_error(model + ": " + error);
  return out;
}

struct PageSearch {
  int game_id = 0;
  bool engine = false;
  // An engine search of a fixed budget ends once its move is settled, as run_search's does
  // (mcts/search_agent.h); a timed one is stopped by JS at its time.
  bool stop_when_settled = false;
  std::unique_ptr<SearchTree> tree;
  std::vector<float> planes, logits, values;
  size_t actions = 0, plane_floats = 0;
  std::vector<int> history;  // the game's history at the start (an engine move checks it is unchanged)
  int ply = 0;
};

class PageEngine {
 public:
  // models: the site's models.json, [{"name", "variant", "sizes", "step", "description"}].
  std::string set_models(const std::string& text) {
    try {
      const json list = json::parse(text);
      if (!list.is_array()) throw std::runtime_error("models.json must be an array");
      std::vector<SiteModel> models;
      for (const json& m : list) {
        SiteModel s;
        s.name = Fields::get_string(m, "name", "");
        const auto variant = parse_variant(Fields::get_string(m, "variant", ""));
        if (s.name.empty() || !variant) throw std::runtime_error("a model without a name or a known variant");
        s.variant = *variant;
        if (const json* sizes = json_field(m, "sizes"))
          for (const json& n : *sizes) s.sizes.push_back(n.get<int>());
        s.step = Fields::get_int(m, "step", 0, 0, 2'000'000'000);
        if (const json* d = json_field(m, "description"); d && json_field(*d, "levels")) s.levels = level_table_from((*d)["levels"], s.name);
        models.push_back(std::move(s));
      }
      models_ = std::move(models);
      return "";
    } catch (const ApiError& e) {
      return "models.json: " + e.message;
    } catch (const std::exception& e) {
      return std::string("models.json: ") + e.what();
    }
  }

  // One request as the server answers it: {"status": N, "body": ...}.
  std::string request(const std::string& method, const std::string& path, const std::string& body_text) {
    json out;
    try {
      json body = json::object();
      if (!body_text.empty()) {
        body = json::parse(body_text, nullptr, false);
        if (body.is_discarded()) throw ApiError{400, "the request body is not JSON"};
      }
      auto [status, answer] = route(method, path, body);
      out = {{"status", status}, {"body", std::move(answer)}};
    } catch (const ApiError& e) {
      out = {{"status", e.status}, {"body", {{"error", e.message}}}};
    } catch (const std::exception& e) {
      out = {{"status", 500}, {"body", {{"error", std::string(e.what())}}}};
    }
    return out.dump();
  }

  // ---- step-wise search -------------------------------------------------------------------

  // A search at game `id`'s position: "engine" with the game's engine settings, "analysis"
  // with `sims` simulations of `model` (as serve/analysis.cpp). Returns a handle, or throws.
  int search_start(int id, const std::string& kind, int sims) {
    GameSession& game = get(id);
    if (game.state().is_over()) throw ApiError{409, "the game is over"};
    auto s = std::make_unique<PageSearch>();
    s->game_id = id;
    SearchSettings settings;
    int budget = 0;
    if (kind == "engine") {
      if (!game.engine_to_move()) throw ApiError{409, "it is not the engine's turn"};
      settings = engine_of(id).settings();
      if (engine_of(id).seconds() > 0) budget = kTimedSearchBudget;  // JS stops it at its time
      s->engine = true;
      s->stop_when_settled = settings.stop_when_settled && budget == 0;
    } else if (kind == "player") {  // a model player of `sims` simulations, as nets/players.cpp makes one
      settings = play_settings(SearchSettings{});
      settings.leaves_per_batch = kPlayerLeavesPerBatch;
      settings.simulations = std::clamp(sims, 1, kMaxServedSimulations);
    } else {
      settings.simulations = std::clamp(sims, 1, kMaxServedSimulations);
      settings.leaves_per_batch = kAnalysisLeavesPerBatch;
    }
    s->tree = std::make_unique<SearchTree>(game.spec());
    s->tree->set_root(game.state());
    s->history = game.history();
    s->ply = game.ply();
    s->actions = static_cast<size_t>(game.state().num_actions());
    s->plane_floats = static_cast<size_t>(game.state().num_planes()) * game.spec().size * game.spec().size;
    s->tree->start_search(settings, budget > 0 ? budget : settings.simulations, settings.dirichlet_fraction > 0.0f, &rng_);
    const int h = next_search_++;
    searches_[h] = std::move(s);
    return h;
  }

  // Collects the next batch: returns the number of leaves pending (0 after terminal hits only),
  // their planes in search_planes(h) [n, C, N, N] (network frame).
  int search_collect(int h) {
    PageSearch& s = search(h);
    if (finished(s)) return 0;
    const int n = s.tree->collect();
    s.planes.resize(std::max<size_t>(1, n * s.plane_floats));
    s.logits.assign(std::max<size_t>(1, n * s.actions), 0.0f);
    s.values.assign(std::max(1, n), 0.0f);
    for (int i = 0; i < n; ++i) s.tree->pending_state(i).encode(s.planes.data() + i * s.plane_floats);
    return n;
  }
  uintptr_t search_planes(int h) { return reinterpret_cast<uintptr_t>(search(h).planes.data()); }
  uintptr_t search_logits(int h) { return reinterpret_cast<uintptr_t>(search(h).logits.data()); }
  uintptr_t search_values(int h) { return reinterpret_cast<uintptr_t>(search(h).values.data()); }
  int search_actions(int h) { return static_cast<int>(search(h).actions); }
  int search_plane_floats(int h) { return static_cast<int>(search(h).plane_floats); }
  // Backs up the n leaves of the last collect with the logits and values JS wrote.
  void search_deliver(int h, int n) {
    PageSearch& s = search(h);
    if (n != s.tree->num_pending()) throw std::runtime_error("deliver: " + std::to_string(n) + " outputs for " +
                                                             std::to_string(s.tree->num_pending()) + " leaves");
    for (int i = 0; i < n; ++i) s.tree->deliver(i, s.logits.data() + i * s.actions, s.values[i]);
  }
  bool search_done(int h) { return finished(search(h)); }
  int search_simulations(int h) { return search(h).tree->simulations_done(); }

  // What the tree holds, as serve/analysis.cpp's PositionAnalysis::step reports it.
  std::string search_report(int h) {
    const SearchTree& tree = *search(h).tree;
    auto children = tree.root_children();
    json prior = json::array(), top = json::array();
    for (const auto& c : children) prior.push_back({c.action, c.prior});
    std::stable_sort(children.begin(), children.end(), [](const auto& a, const auto& b) { return a.visits > b.visits; });
    for (size_t i = 0; i < children.size() && i < 10 && children[i].visits > 0; ++i)
      top.push_back({{"action", children[i].action},
                     {"move", tree.root_state().action_to_string(children[i].action)},
                     {"visits", children[i].visits},
                     {"q", children[i].q},
                     {"prior", children[i].prior}});
    return json{{"simulations", tree.simulations_done()},
                {"value", tree.root_value()},
                {"prior", std::move(prior)},
                {"top", std::move(top)},
                {"best", children.empty() ? -1 : children[0].action},
                {"done", tree.done()}}
        .dump();
  }

  // The search's move (temperature 0, as SearchAgent plays), board frame.
  int search_choice(int h) { return search(h).tree->choose_action(0.0f, rng_); }

  // An engine search done: plays its move in the game if the game did not change meanwhile.
  // Returns the request answer as request() does ({"status", "body": the view}).
  std::string search_play(int h) {
    json out;
    try {
      PageSearch& s = search(h);
      GameSession& game = get(s.game_id);
      if (!s.engine) throw ApiError{400, "an analysis plays no move"};
      if (game.history() != s.history || game.ply() != s.ply)
        throw ApiError{409, "the game changed while the engine searched: its move was not played"};
      const int action = s.tree->choose_action(0.0f, rng_);
      if (std::string error = game.play(action); !error.empty()) throw ApiError{500, error};
      out = {{"status", 200}, {"body", view(game)}, {"action", action}};
    } catch (const ApiError& e) {
      out = {{"status", e.status}, {"body", {{"error", e.message}}}};
    }
    return out.dump();
  }

  void search_free(int h) { searches_.erase(h); }

  // The model an engine game plays, "" for none.
  std::string engine_model(int id) {
    auto it = engines_.find(id);
    return it == engines_.end() ? "" : it->second->model();
  }

  // The search settings of game `id`'s engine (tests: a level's simulations and temperature).
  std::string engine_settings(int id) {
    auto it = engines_.find(id);
    if (it == engines_.end()) return "null";
    const SearchSettings& s = it->second->settings();
    return json{{"simulations", s.simulations}, {"seconds", it->second->seconds()}, {"prior_temperature", s.prior_temperature},
                {"leaves_per_batch", s.leaves_per_batch}, {"dirichlet_fraction", s.dirichlet_fraction}}
        .dump();
  }

  // ---- the rules alone (tests: the wasm rules against native) ----------------------------

  // A game of `variant`/`size`/`swap` played by `actions` (JSON array); for each position the
  // legal actions, the player to move and a checksum of the planes, then the outcome.
  std::string trace(const std::string& variant, int size, bool swap, const std::string& actions_text) {
    json out;
    try {
      GameSpec spec = spec_from(json{{"variant", variant}, {"size", size}, {"swap", swap}});
      auto st = new_game(spec);
      json plies = json::array();
      const json actions = json::parse(actions_text);
      std::vector<float> planes;
      auto describe_position = [&] {
        std::vector<int> legal;
        st->legal_actions(&legal);
        planes.assign(static_cast<size_t>(st->num_planes()) * spec.size * spec.size, 0.0f);
        double sum = 0, weighted = 0;
        if (!st->is_over()) {
          st->encode(planes.data());
          for (size_t i = 0; i < planes.size(); ++i) {
            sum += planes[i];
            weighted += planes[i] * static_cast<double>(i % 9973);
          }
        }
        plies.push_back({{"legal", legal},
                         {"key", std::to_string(st->position_key())},
                         {"to_move", st->is_over() ? json(nullptr) : json(player_name(st->to_move()))},
                         {"planes", {sum, weighted}}});
      };
      describe_position();
      for (const json& a : actions) {
        if (std::string why = st->why_illegal(a.get<int>()); !why.empty()) throw ApiError{400, why};
        st->apply(a.get<int>());
        describe_position();
      }
      out = {{"plies", std::move(plies)},
             {"outcome", st->is_over() ? json(outcome_name(st->outcome())) : json(nullptr)},
             {"record", record_text(spec, actions.get<std::vector<int>>())}};
    } catch (const ApiError& e) {
      out = {{"error", e.message}};
    } catch (const std::exception& e) {
      out = {{"error", e.what()}};
    }
    return out.dump();
  }

 private:
  std::pair<int, json> route(const std::string& method, const std::string& path, const json& body) {
    if (method == "GET" && path == "/api/variants") return {200, variants()};
    if (method == "GET" && path == "/api/players") return {200, players()};
    if (method == "POST" && path == "/api/games") return {201, create_game(body)};
    if (method == "POST" && path == "/api/replay") return {201, replay(body)};
    const std::string prefix = "/api/games/";
    if (path.rfind(prefix, 0) == 0) {
      std::string rest = path.substr(prefix.size());
      std::string action;
      if (auto slash = rest.find('/'); slash != std::string::npos) {
        action = rest.substr(slash + 1);
        rest = rest.substr(0, slash);
      }
      const int id = parse_id(rest);
      if (action.empty() && method == "GET") return {200, view(get(id))};
      if (action.empty() && method == "DELETE") {
        if (!games_.erase(id)) throw ApiError{404, "no game '" + clip(rest) + "'"};
        engines_.erase(id);
        return {204, nullptr};
      }
      GameSession& game = get(id);
      if (method == "POST" && action == "play") {
        int a = -1;
        if (json_field(body, "action")) {
          a = Fields::get_int(body, "action", -1, 0, game.state().num_actions() - 1);
        } else {
          std::string error;
          a = game.state().parse_action(Fields::get_string(body, "move", ""), &error);
          if (a < 0) throw ApiError{400, error};
        }
        if (game.engine_to_move()) throw ApiError{409, "it is the engine's turn"};
        if (std::string error = game.play(a); !error.empty()) throw ApiError{400, error};
        return {200, view(game)};
      }
      if (method == "POST" && action == "goto") {
        const int ply = Fields::get_int(body, "ply", -1, 0, static_cast<int>(game.history().size()));
        if (std::string error = game.go_to(ply); !error.empty()) throw ApiError{400, error};
        return {200, view(game)};
      }
      if (method == "POST" && action == "undo") {
        game.undo();
        return {200, view(game)};
      }
    }
    if (path.rfind("/api/runs", 0) == 0 || path.rfind("/api/balance", 0) == 0 || path.rfind("/api/results", 0) == 0)
      throw ApiError{404, "the static page has no training runs, balance reports or results files: run `quax serve` for them"};
    throw ApiError{404, "no route " + method + " " + clip(path)};
  }

  static int parse_id(const std::string& text) {
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw ApiError{404, "no game '" + clip(text) + "'"};
    return std::stoi(text);
  }

  GameSession& get(int id) {
    auto it = games_.find(id);
    if (it == games_.end()) throw ApiError{404, "no game '" + std::to_string(id) + "'"};
    return *it->second;
  }

  const PageModelAgent& engine_of(int id) {
    auto it = engines_.find(id);
    if (it == engines_.end()) throw ApiError{409, "this game has no engine"};
    return *it->second;
  }

  PageSearch& search(int h) {
    auto it = searches_.find(h);
    if (it == searches_.end()) throw std::runtime_error("no search " + std::to_string(h));
    return *it->second;
  }
  // The budget is spent, or the engine's move can no longer change.
  static bool finished(const PageSearch& s) {
    return s.tree->done() || (s.stop_when_settled && s.tree->simulations_done() > 0 &&
                               s.tree->move_settled(s.tree->simulations_left()));
  }

  const json& layout_of(const GameSpec& spec) {
    auto key = std::make_pair(static_cast<int>(spec.variant), spec.size);
    auto it = layouts_.find(key);
    if (it == layouts_.end()) it = layouts_.emplace(key, layout_json(board_layout(spec))).first;
    return it->second;
  }

  json view(GameSession& game) { return game_view(game, layout_of(game.spec())); }

  json variants() const {
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
    return out;
  }

  json players() const {
    json models = json::array();
    int count = 0;
    const VariantInfo* all = all_variants(&count);
    for (const auto& m : models_) {
      json plays = json::array();
      for (int i = 0; i < count; ++i)
        if (rules_of(all[i].variant) == rules_of(m.variant)) plays.push_back(all[i].name);
      models.push_back({{"path", m.name}, {"name", m.name}, {"variant", variant_info(m.variant).name},
                        {"plays", plays}, {"sizes", m.sizes}, {"step", m.step}});
    }
    json levels = json::array();
    for (int l = kMinPlayLevel; l <= kMaxPlayLevel; ++l) levels.push_back({{"level", l}, {"name", play_level_name(l)}});
    return {{"baselines", json::array()}, {"models", models}, {"levels", levels}};
  }

  const SiteModel* find_model(const std::string& name) const {
    for (const auto& m : models_)
      if (m.name == name) return &m;
    return nullptr;
  }

  int add(std::unique_ptr<GameSession> game, std::unique_ptr<PageModelAgent> engine_settings, int id) {
    if (games_.size() >= kMaxGames) {  // the oldest game goes, as the server's bounded list
      engines_.erase(games_.begin()->first);
      games_.erase(games_.begin());
    }
    if (engine_settings) engines_[id] = std::move(engine_settings);
    games_[id] = std::move(game);
    return id;
  }

  json create_game(const json& body) {
    const GameSpec spec = spec_from(body);
    const std::string human = Fields::get_string(body, "human", "black");
    if (human != "black" && human != "white" && human != "both") throw ApiError{400, "'human' must be black, white or both"};
    const std::string opponent = Fields::get_string(body, "opponent", "none");
    const int id = next_game_++;
    if (human == "both" || opponent == "none") {
      add(std::make_unique<GameSession>(std::to_string(id), spec, "", std::nullopt, nullptr), nullptr, id);
      return view(get(id));
    }
    const SiteModel* model = find_model(opponent);
    if (!model) throw ApiError{400, "unknown opponent '" + clip(opponent) + "': a model of this page (its list of models)"};
    if (rules_of(model->variant) != rules_of(spec.variant))
      throw ApiError{400, model->name + " plays " + variant_info(model->variant).name + ", not " + variant_info(spec.variant).name};
    if (std::find(model->sizes.begin(), model->sizes.end(), spec.size) == model->sizes.end()) {
      std::string sizes;
      for (int n : model->sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(n);
      throw ApiError{400, model->name + " has no network for size " + std::to_string(spec.size) + " in this page (sizes " + sizes + ")"};
    }
    const int sims = Fields::get_int(body, "sims", 200, 1, kMaxServedSimulations);
    const double seconds = Fields::get_number(body, "seconds", 0.0, 0.0, kMaxSecondsPerMove);
    const int level = Fields::get_int(body, "level", 0, 0, kMaxPlayLevel);
    if (seconds > 0 && seconds < kMinSeconds)
      throw ApiError{400, "'seconds' must be 0 (a count of sims) or a number from " + json(kMinSeconds).dump() + " to " +
                              json(kMaxSecondsPerMove).dump()};
    // As model_player_description and set_player_search_size (nets/players.cpp).
    SearchSettings settings = play_settings(SearchSettings{});
    settings.leaves_per_batch = kPlayerLeavesPerBatch;
    std::string description = model->name;
    double timed = 0;
    if (level > 0) {  // a level is the search's size: sims and seconds do not apply (as the server)
      settings = at_level(settings, level, model->levels);
      description += ":level=" + std::to_string(level);
    } else if (seconds > 0) {
      timed = seconds;
      description += ":time=" + json(seconds).dump();
    } else {
      settings.simulations = sims;
      description += ":sims=" + std::to_string(sims);
    }
    if (std::string error = check_settings(settings); !error.empty()) throw ApiError{400, error};
    const Player seat = human == "black" ? Player::kWhite : Player::kBlack;
    add(std::make_unique<GameSession>(std::to_string(id), spec, description, seat,
                                      std::make_unique<PageModelAgent>(description, model->name, settings, timed)),
        nullptr, id);
    engines_[id] = std::make_unique<PageModelAgent>(description, model->name, settings, timed);
    return view(get(id));
  }

  json replay(const json& body) {
    const GameSpec spec = spec_from(body);
    auto game = std::make_unique<GameSession>("", spec, "", std::nullopt, nullptr);
    if (std::string error = game->load_record(Fields::get_string(body, "record", "")); !error.empty()) throw ApiError{400, error};
    const int id = next_game_++;
    auto session = std::make_unique<GameSession>(std::to_string(id), spec, "", std::nullopt, nullptr);
    session->load_record(Fields::get_string(body, "record", ""));
    add(std::move(session), nullptr, id);
    return view(get(id));
  }

  std::vector<SiteModel> models_;
  std::map<int, std::unique_ptr<GameSession>> games_;
  std::map<int, std::unique_ptr<PageModelAgent>> engines_;
  std::map<int, std::unique_ptr<PageSearch>> searches_;
  std::map<std::pair<int, int>, json> layouts_;
  int next_game_ = 1, next_search_ = 1;
  Rng rng_{20261128};
};

PageEngine& engine() {
  static PageEngine e;
  return e;
}

// Errors of the step-wise API come back as {"error": ...} from a last-error call, so that JS
// sees the message (emscripten without exception support aborts on a throw).
std::string last_error;

template <typename R, typename F>
R catching(R fallback, F&& f) {
  try {
    last_error.clear();
    return f();
  } catch (const ApiError& e) {
    last_error = e.message;
  } catch (const std::exception& e) {
    last_error = e.what();
  }
  return fallback;
}

}  // namespace
}  // namespace quax

using namespace quax;

EMSCRIPTEN_BINDINGS(quax_page) {
  emscripten::function("setModels", +[](std::string text) { return engine().set_models(text); });
  emscripten::function("request", +[](std::string method, std::string path, std::string body) {
    return engine().request(method, path, body);
  });
  emscripten::function("searchStart", +[](int id, std::string kind, int sims) {
    return catching(0, [&] { return engine().search_start(id, kind, sims); });
  });
  emscripten::function("searchCollect", +[](int h) { return catching(-1, [&] { return engine().search_collect(h); }); });
  emscripten::function("searchPlanes", +[](int h) { return catching<double>(0, [&] { return double(engine().search_planes(h)); }); });
  emscripten::function("searchLogits", +[](int h) { return catching<double>(0, [&] { return double(engine().search_logits(h)); }); });
  emscripten::function("searchValues", +[](int h) { return catching<double>(0, [&] { return double(engine().search_values(h)); }); });
  emscripten::function("searchPlaneFloats", +[](int h) { return catching(0, [&] { return engine().search_plane_floats(h); }); });
  emscripten::function("searchActions", +[](int h) { return catching(0, [&] { return engine().search_actions(h); }); });
  emscripten::function("searchDeliver", +[](int h, int n) {
    return catching(false, [&] {
      engine().search_deliver(h, n);
      return true;
    });
  });
  emscripten::function("searchDone", +[](int h) { return catching(true, [&] { return engine().search_done(h); }); });
  emscripten::function("searchSimulations", +[](int h) { return catching(0, [&] { return engine().search_simulations(h); }); });
  emscripten::function("searchReport", +[](int h) { return catching(std::string(), [&] { return engine().search_report(h); }); });
  emscripten::function("searchChoice", +[](int h) { return catching(-1, [&] { return engine().search_choice(h); }); });
  emscripten::function("searchPlay", +[](int h) { return catching(std::string(), [&] { return engine().search_play(h); }); });
  emscripten::function("searchFree", +[](int h) { engine().search_free(h); });
  emscripten::function("engineModel", +[](int id) { return engine().engine_model(id); });
  emscripten::function("engineSettings", +[](int id) { return engine().engine_settings(id); });
  emscripten::function("lastError", +[]() { return last_error; });
  emscripten::function("trace", +[](std::string variant, int size, bool swap, std::string actions) {
    return engine().trace(variant, size, swap, actions);
  });
}
