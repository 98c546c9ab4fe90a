// The pie rule a model was trained with (issue 29): a model trained with it that plays a game
// without it (`arena --swap off`, gtp's `pie off`) opens where a swap would gain nothing,
// untested moves in that game. It plays, with one warning line naming the file and both
// settings, once per model in a process; the other way round too. Its card says which.
#include <gtest/gtest.h>
#include <torch/script.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "nets/model_agent.h"
#include "nets/model_card.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::string shipped(const std::string& name) { return std::string(QUAX_SOURCE_DIR) + "/checkpoints/" + name; }

// A copy of the shipped model `name` at `<temp dir>/<out>` with its description edited by
// `edit`: a path of its own, so that the warnings given once per model in this process by
// other tests do not hide this test's.
std::string model_copy(const std::string& name, const std::string& out,
                       const std::function<void(nlohmann::json&)>& edit) {
  const auto dir = fs::temp_directory_path() / ("quax_pie_rule_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  torch::jit::ExtraFilesMap extra{{"quax.json", ""}};
  torch::jit::Module module = torch::jit::load(shipped(name), torch::kCPU, extra);
  nlohmann::json description = nlohmann::json::parse(extra["quax.json"]);
  edit(description);
  const std::string path = (dir / out).string();
  save_model_file(module, description, path);
  return path;
}

std::string warning_on(const std::string& path) {
  return "warning: model '" + path +
         "' was trained with the pie rule (swap on) and plays a game without it (swap off); its openings are untested "
         "there (it learned to open where a swap gains nothing)\n";
}

std::string warning_off(const std::string& path) {
  return "warning: model '" + path +
         "' was trained without the pie rule (swap off) and plays a game with it (swap on); its openings and swap "
         "decisions are untested there\n";
}

TEST(PieRule, AModelTrainedWithItWarnsOnceWhenItPlaysWithout) {
  const std::string path = model_copy("quax-5.pt", "with_pie.pt", [](nlohmann::json&) {});
  ASSERT_TRUE(load_model_file(path).shape.spec.swap);
  // Its own game: no warning.
  ::testing::internal::CaptureStderr();
  load_inference_model(path, GameSpec{Variant::kQuax, 5, true});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  // Without the pie rule: it plays, with one line; loading it again (an arena loads a model
  // for every game) adds none.
  ::testing::internal::CaptureStderr();
  load_inference_model(path, GameSpec{Variant::kQuax, 5, false});
  load_inference_model(path, GameSpec{Variant::kQuax, 5, false});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), warning_on(path));
}

TEST(PieRule, AModelTrainedWithoutItWarnsOnceWhenItPlaysWith) {
  const std::string path = model_copy("quax-5.pt", "without_pie.pt", [](nlohmann::json& d) { d["swap"] = false; });
  ::testing::internal::CaptureStderr();
  load_inference_model(path, GameSpec{Variant::kQuax, 5, false});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ::testing::internal::CaptureStderr();
  load_inference_model(path, GameSpec{Variant::kQuax, 5, true});
  load_inference_model(path, GameSpec{Variant::kQuax, 5, true});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), warning_off(path));
}

TEST(PieRule, AModelPlayerWarnsOnceWhenThePieRuleIsTurnedOffUnderIt) {
  // gtp's `pie off`: the player made for a game with the pie rule meets a game without it.
  const std::string path = model_copy("quax-5.pt", "pie_turned_off.pt", [](nlohmann::json&) {});
  set_torch_threads(1);
  SearchSettings settings;
  settings.simulations = 4;
  settings.dirichlet_fraction = 0.0f;
  std::string error;
  ::testing::internal::CaptureStderr();
  auto agent = make_model_agent(path, GameSpec{Variant::kQuax, 5, true}, settings, 1, &error);
  ASSERT_TRUE(agent) << error;
  const auto with_pie = new_game(GameSpec{Variant::kQuax, 5, true});
  agent->choose_action(*with_pie);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ::testing::internal::CaptureStderr();
  const auto without_pie = new_game(GameSpec{Variant::kQuax, 5, false});
  agent->choose_action(*without_pie);
  agent->choose_action(*with_pie);
  agent->choose_action(*without_pie);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), warning_on(path));
}

std::vector<std::string> pie_rule_lines(const std::vector<std::string>& card) {
  std::vector<std::string> out;
  for (const auto& line : card)
    if (line.rfind("pie rule: ", 0) == 0) out.push_back(line);
  return out;
}

TEST(PieRule, TheModelCardSaysWhichPieRuleTheModelWasTrainedWith) {
  const std::string on = shipped("quax-5.pt");
  const auto card_on = model_card(on, load_model_file(on));
  ASSERT_EQ(pie_rule_lines(card_on).size(), 1u);
  EXPECT_EQ(pie_rule_lines(card_on)[0].rfind("pie rule: on (trained with it;", 0), 0u) << pie_rule_lines(card_on)[0];
  EXPECT_EQ(card_on[0], "model: " + on);

  const std::string off = model_copy("quax-5.pt", "card_off.pt", [](nlohmann::json& d) { d["swap"] = false; });
  const auto card_off = model_card(off, load_model_file(off));
  ASSERT_EQ(pie_rule_lines(card_off).size(), 1u);
  EXPECT_EQ(pie_rule_lines(card_off)[0].rfind("pie rule: off (trained without it;", 0), 0u)
      << pie_rule_lines(card_off)[0];

  // A variant without a pie rule says so rather than "trained without it".
  const std::string torax = shipped("torax-5.pt");
  const auto card_torax = model_card(torax, load_model_file(torax));
  ASSERT_EQ(pie_rule_lines(card_torax).size(), 1u);
  EXPECT_EQ(pie_rule_lines(card_torax)[0], "pie rule: off (torax has none; its own opening replaces it)");
}

}  // namespace
}  // namespace quax
