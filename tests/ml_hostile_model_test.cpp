// Model files made to hurt (issue 27): a description whose size, sizes, layout, net or step
// break its variant's rules, a FIFO given as a model, and TorchScript modules whose outputs do
// not fit the batch. Each is refused with one std::runtime_error line naming the file, at load
// or at the evaluation that meets it; none may crash (before the fixes a bad size was a SIGSEGV
// and a [1, A] policy read past the end of the batch's buffer).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <torch/script.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <vector>

#include "env/game_state.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::string temp_dir() {
  const auto dir = fs::temp_directory_path() / ("quax_hostile_model_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir.string();
}

std::string shipped(const std::string& name) { return std::string(QUAX_SOURCE_DIR) + "/checkpoints/" + name; }

// A copy of the shipped model `name` whose description `edit` has changed, at `out`.
std::string edited_model(const std::string& name, const std::string& out,
                         const std::function<void(nlohmann::json&)>& edit) {
  torch::jit::ExtraFilesMap extra{{"quax.json", ""}};
  torch::jit::Module module = torch::jit::load(shipped(name), torch::kCPU, extra);
  nlohmann::json description = nlohmann::json::parse(extra["quax.json"]);
  edit(description);
  // Written raw, as a hand or a damaged disk makes one: save_model_file refuses to write what
  // its own check refuses.
  module.save(out, torch::jit::ExtraFilesMap{{"quax.json", description.dump()}});
  return out;
}

// The message of the runtime_error `f` throws ("" when it throws none).
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

void expect_one_line(const std::string& message, const std::string& path, const std::string& want) {
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find(want), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

struct BadDescription {
  const char* model;  // the shipped model it edits
  const char* want;   // what the error says
  std::function<void(nlohmann::json&)> edit;
};

TEST(HostileModel, DescriptionsOutsideTheirVariantsRulesAreRefusedInOneLine) {
  const std::string dir = temp_dir();
  const std::vector<BadDescription> cases = {
      {"quax-5.pt", "size 0 is out of range for quax", [](auto& d) { d["size"] = 0; }},
      {"quax-5.pt", "size -7 is out of range for quax", [](auto& d) { d["size"] = -7; }},
      {"quax-5.pt", "size 1000 is out of range for quax", [](auto& d) { d["size"] = 1000; }},
      {"quax-5.pt", "size 2147483647 is out of range", [](auto& d) { d["size"] = 2147483647; }},
      {"quax-5.pt", "size 4294967301 is not in", [](auto& d) { d["size"] = 4294967301ULL; }},  // 5 if wrapped
      {"quax-5.pt", "size 5.5 is not an integer", [](auto& d) { d["size"] = 5.5; }},
      {"quikquax-6.pt", "quikquax needs an even size, not 7", [](auto& d) { d["size"] = 7; }},
      {"quady-9.pt", "quady needs a size of the form 2k+1, not 8", [](auto& d) { d["size"] = 8; }},
      {"torax-5.pt", "torax has no pie rule", [](auto& d) { d["swap"] = true; }},
      {"quax-5.pt", "sizes: size 0 is out of range", [](auto& d) { d["sizes"] = {5, 0}; }},
      {"quax-5.pt", "sizes: size 100 is out of range", [](auto& d) { d["sizes"] = {100}; }},
      {"quax-5.pt", "sizes is not a list", [](auto& d) { d["sizes"] = nlohmann::json::array(); }},
      {"quax-5.pt", "step -1 is not in", [](auto& d) { d["step"] = -1; }},
      {"quax-5.pt", "num_actions 7, where its game has 77", [](auto& d) { d["num_actions"] = 7; }},
      {"quax-5.pt", "spatial_planes 1, where its game has 3", [](auto& d) { d["spatial_planes"] = 1; }},
      {"quax-5.pt", "extra_actions -2 is not in", [](auto& d) { d["extra_actions"] = -2; }},
      {"quax-5.pt", "are not the 8 planes of quax 5x5", [](auto& d) { d["planes"] = {"ones"}; }},
      {"quax-5.pt", "net blocks 100000 is not in [0, 64]", [](auto& d) { d["net"]["blocks"] = 100000; }},
      {"quax-5.pt", "net filters 0 is not in [1, 1024]", [](auto& d) { d["net"]["filters"] = 0; }},
      {"quax-5.pt", "net value_hidden -1 is not in", [](auto& d) { d["net"]["value_hidden"] = -1; }},
      {"quax-5.pt", "unknown variant 'chess'", [](auto& d) { d["variant"] = "chess"; }},
      // Fields of another type are named (nlohmann's "type must be string, but is number" was not).
      {"quax-5.pt", "variant 5 is not a string", [](auto& d) { d["variant"] = 5; }},
      {"quax-5.pt", "swap \"yes\" is not true or false", [](auto& d) { d["swap"] = "yes"; }},
      {"quax-5.pt", "global_pooling 1 is not true or false", [](auto& d) { d["net"]["global_pooling"] = 1; }},
      {"quax-5.pt", "planes is not a list of names", [](auto& d) { d["planes"] = {1, 2}; }},
      // A size past int's range is named as it is, not wrapped ("size 0").
      {"quax-5.pt", "size 1099511627776 is not in", [](auto& d) { d["size"] = int64_t{1} << 40; }},
  };
  int i = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.want);
    const std::string path = edited_model(c.model, dir + "/bad" + std::to_string(i++) + ".pt", c.edit);
    expect_one_line(error_of([&] { load_model_file(path); }), path, c.want);
    // The inference loader goes through the same check.
    expect_one_line(error_of([&] { load_inference_model(path, GameSpec{Variant::kQuax, 5, true}); }), path, c.want);
  }
  // The shipped models still load, and an untouched copy too (the check refuses only what is wrong).
  for (const char* name : {"quax-5.pt", "quax-7.pt", "quax-9.pt", "quax-11.pt", "quikquax-6.pt", "quady-9.pt",
                           "stymie-5.pt", "torax-5.pt"})
    EXPECT_NO_THROW(load_model_file(shipped(name))) << name;
  const std::string same = edited_model("quax-5.pt", dir + "/same.pt", [](auto&) {});
  EXPECT_EQ(load_model_file(same).trained_sizes, std::vector<int>{5});
  fs::remove_all(dir);
}

TEST(HostileModel, AFifoGivenAsAModelIsRefusedWithoutBlocking) {
  const std::string dir = temp_dir();
  const std::string fifo = dir + "/model.pt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_one_line(error_of([&] { load_model_file(fifo); }), fifo, "is a FIFO, not a regular model file");
  fs::remove_all(dir);
}

// A model file for quax 5x5 whose module is `forward_source` (TorchScript), with a valid
// description: what a hand-made or damaged file may hold.
std::string scripted_model(const std::string& path, const std::string& forward_source) {
  torch::jit::Module module("Hostile");
  module.define(forward_source);
  const ModelShape shape = model_shape_for(GameSpec{Variant::kQuax, 5, true});
  save_model_file(module, model_description(shape, NetConfig{}, 0), path);
  return path;
}

TEST(HostileModel, OutputsThatDoNotFitTheBatchAreRefusedInOneLine) {
  const std::string dir = temp_dir();
  const GameSpec spec{Variant::kQuax, 5, true};  // 77 actions
  const struct {
    const char* name;
    const char* want;
    const char* source;
  } cases[] = {
      {"one_row", "gives policy logits [1, 77] and value [8]", R"(
def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.zeros([1, 77]), torch.zeros([x.size(0)])
)"},
      {"three_d", "gives policy logits [8, 77, 2] and value [8]", R"(
def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.zeros([x.size(0), 77, 2]), torch.zeros([x.size(0)])
)"},
      {"narrow", "gives policy logits [8, 76] and value [8]", R"(
def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.zeros([x.size(0), 76]), torch.zeros([x.size(0)])
)"},
      {"wide_value", "gives policy logits [8, 77] and value [8, 2]", R"(
def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.zeros([x.size(0), 77]), torch.zeros([x.size(0), 2])
)"},
      {"one_tensor", "gives a Tensor, not a tuple", R"(
def forward(self, x: Tensor) -> Tensor:
    return torch.zeros([x.size(0), 77])
)"},
      {"one_element", "a tuple of 1 values", R"(
def forward(self, x: Tensor) -> Tuple[Tensor]:
    return (torch.zeros([x.size(0), 77]),)
)"},
      {"integers", "outputs of type Long and Float", R"(
def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.zeros([x.size(0), 77]).long(), torch.zeros([x.size(0)])
)"},
      {"raises", "fails on a batch of planes [8, 8, 5, 5]: ", R"(
def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.zeros([x.size(0), 77]) + torch.zeros([3]), torch.zeros([x.size(0)])
)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = scripted_model(dir + "/" + c.name + ".pt", c.source);
    expect_one_line(error_of([&] { load_inference_model(path, spec, Precision::kFloat32); }), path, c.want);
  }
  // A value [B, 1] is what the project's own heads may give: accepted.
  const std::string column = scripted_model(dir + "/column.pt", R"(
def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.zeros([x.size(0), 77]), torch.zeros([x.size(0), 1])
)");
  EXPECT_NO_THROW(load_inference_model(column, spec, Precision::kFloat32));
  fs::remove_all(dir);
}

TEST(HostileModel, OutputsSizedForTheProbeAloneAreRefusedAtALargerBatch) {
  // Eight rows whatever the batch: the load probe (8 positions) passes; a batch of 20 would
  // have copied 20 x 77 logits out of 8 x 77.
  const std::string dir = temp_dir();
  const GameSpec spec{Variant::kQuax, 5, true};
  const std::string path = scripted_model(dir + "/eight.pt", R"(
def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.zeros([8, 77]), torch.zeros([8])
)");
  auto model = load_inference_model(path, spec, Precision::kFloat32);
  NetEvaluator evaluator(model);
  const auto start = new_game(spec);
  const int b = 20;
  std::vector<const GameState*> states(b, start.get());
  std::vector<float> planes(static_cast<size_t>(b) * start->num_planes() * 25);
  for (int i = 0; i < b; ++i) start->encode(planes.data() + static_cast<size_t>(i) * start->num_planes() * 25);
  std::vector<uint8_t> masks(static_cast<size_t>(b) * 77, 1);
  std::vector<float> logits(static_cast<size_t>(b) * 77), values(b);
  expect_one_line(error_of([&] { evaluator.evaluate(states, planes.data(), masks.data(), logits.data(), values.data()); }),
                  path, "gives policy logits [8, 77] and value [8]; a batch of 20 positions of 5x5 needs");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quax
