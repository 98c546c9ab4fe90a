// Training configs: defaults, overrides, errors that name the key and line, the shipped
// configs, and the dump parsing back to the same configuration.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "nets/model_file.h"
#include "train/config.h"
#include "train/config_print.h"

namespace quax {
namespace {

std::string error_of(const std::string& yaml) {
  try {
    parse_config(yaml, "test.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string load_error(const std::string& path) {
  try {
    load_config(path);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, UnsetKeysKeepTheirDefaults) {
  const TrainConfig c = parse_config("game: {variant: quax}", "test.yaml");
  EXPECT_EQ(c.game, (GameSpec{Variant::kQuax, 5, true}));
  EXPECT_EQ(c.search.simulations, SearchSettings().simulations);
  EXPECT_EQ(dump_config(c), dump_config(TrainConfig()));
}

// Issue 15's auxiliary heads: off unless asked for, printed with their defaults, checked.
TEST(Config, AuxiliaryHeadsAreOffByDefault) {
  const TrainConfig d;
  EXPECT_FALSE(d.net.ownership_head);
  EXPECT_FALSE(d.net.soft_policy_head);
  const std::string dump = dump_config(d);
  for (const char* line : {"  ownership_head: false\n", "  soft_policy_head: false\n", "  ownership_loss_weight: 0.5\n",
                           "  soft_policy_loss_weight: 8\n", "  soft_policy_temperature: 4\n"})
    EXPECT_NE(dump.find(line), std::string::npos) << line;
  const TrainConfig c = parse_config(
      "net: {ownership_head: true, soft_policy_head: true}\nlearn: {soft_policy_temperature: 2, ownership_loss_weight: 1.5}",
      "test.yaml");
  EXPECT_TRUE(c.net.ownership_head && c.net.soft_policy_head && c.net.has_aux_heads());
  EXPECT_FALSE(c.net.without_aux_heads().has_aux_heads());
  EXPECT_EQ(c.learn.soft_policy_temperature, 2.0);
  EXPECT_EQ(c.learn.ownership_loss_weight, 1.5);
  EXPECT_NE(c.net, d.net);
  EXPECT_EQ(parse_config(dump_config(c), "dump").net, c.net);
  EXPECT_EQ(error_of("learn: {soft_policy_temperature: 0}"),
            "test.yaml:1: bad value for 'learn.soft_policy_temperature': expected a number in [0.01, 100]");
  EXPECT_EQ(error_of("net: {ownership_head: 3}"), "test.yaml:1: bad value for 'net.ownership_head': expected true or false");
}

TEST(Config, AConfigWithoutSettingsIsAnError) {
  // Before, these ran every default: an unlimited run on the default board.
  const std::string want = "test.yaml: the config is empty (no sections; configs/quickstart.yaml is an example)";
  EXPECT_EQ(error_of(""), want);
  EXPECT_EQ(error_of("\n\n"), want);
  EXPECT_EQ(error_of("# only a comment\n  # and another\n"), want);
  EXPECT_EQ(error_of("---\n"), want);
  EXPECT_EQ(error_of("~\n"), want);
}

TEST(Config, AKeyGivenTwiceIsNamedWithBothLines) {
  EXPECT_EQ(error_of("game:\n  variant: quax\n  size: 5\n  size: 7\n"),
            "test.yaml:4: duplicate key 'game.size' (first at line 3)");
  EXPECT_EQ(error_of("game:\n  size: 5\nnet:\n  blocks: 1\ngame:\n  swap: false\n"),
            "test.yaml:5: duplicate key 'game' (first at line 1)");
  EXPECT_EQ(error_of("game: {size: 5, swap: true, size: 7}\n"),
            "test.yaml:1: duplicate key 'game.size' (first at line 1)");
  // The same key in two sections is no duplicate.
  EXPECT_EQ(error_of("search:\n  simulations: 8\nselfplay:\n  fast_simulations: 8\n"), "");
  EXPECT_EQ(error_of("? [a, b]\n: 1\n"), "test.yaml:1: a key must be a plain word, not a list or a mapping");
}

// yaml-cpp builds aliases into a graph: a mapping that holds itself sent the duplicate-key
// check into unbounded recursion (a crash), and ten lines of aliases of aliases stand for a
// billion nodes (minutes of work). Both are refused before a node is built, at their line.
TEST(Config, AnchorsAndAliasesAreRefused) {
  const std::string refused = "YAML anchors and aliases (&name, *name) are not accepted in a config; write the value "
                              "out, or share settings with 'extends:'";
  EXPECT_EQ(error_of("game: &g {x: *g}\n"), "test.yaml:1: " + refused);
  EXPECT_EQ(error_of("game:\n  size: 5\nsearch: &s\n  simulations: 8\nselfplay: *s\n"), "test.yaml:3: " + refused);
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char n = 'b'; n <= 'i'; ++n) {
    const char prev = static_cast<char>(n - 1);
    laughs += std::string(1, n) + ": &" + n + " [";
    for (int i = 0; i < 10; ++i) laughs += std::string(i ? ", " : "") + "*" + prev;
    laughs += "]\n";
  }
  laughs += "game: {size: *i}\n";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of(laughs), "test.yaml:1: " + refused);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  // An alias of an anchor never defined is a syntax error (yaml-cpp's), not a crash.
  EXPECT_EQ(error_of("game: {size: *nowhere}\n").rfind("test.yaml:1: ", 0), 0u);
}

TEST(Config, DeepNestingIsRefused) {
  EXPECT_EQ(error_of("game: {size: [[[[[[[[[5]]]]]]]]]}\n"), "test.yaml:1: nested more than 8 levels deep; a config is sections of keys");
  // 100000 levels: yaml-cpp's own recursion guard answers before the stack runs out.
  const std::string deep = "game: " + std::string(100000, '[') + std::string(100000, ']') + "\n";
  EXPECT_EQ(error_of(deep).rfind("test.yaml:1: ", 0), 0u);
  // A list value (one level below a key) still reads.
  EXPECT_EQ(error_of("game: {variant: quax, sizes: [5, 7]}\n"), "");
}

TEST(Config, AFileThatIsNoConfigIsNamed) {
  const std::string dir = ::testing::TempDir() + "/config_dir_test";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(load_error(dir), "'" + dir + "' is a directory, not a regular config file");
  EXPECT_EQ(load_error(dir + "/missing.yaml"),
            "cannot open config file '" + dir + "/missing.yaml': No such file or directory");
  const std::string empty = dir + "/empty.yaml";
  { std::ofstream(empty) << "# nothing here\n"; }
  EXPECT_EQ(load_error(empty), empty + ": the config is empty (no sections; configs/quickstart.yaml is an example)");
  std::filesystem::remove_all(dir);
}

TEST(Config, ValuesOverrideDefaults) {
  const TrainConfig c = parse_config(
      "game: {variant: crossway, size: 9, swap: false}\nsearch:\n  rule: gumbel\n  simulations: 32\n"
      "learn:\n  lr_drops: [100, 200]\n",
      "test.yaml");
  EXPECT_EQ(c.game, (GameSpec{Variant::kCrossway, 9, false}));
  EXPECT_EQ(c.search.root_rule, RootRule::kGumbel);
  EXPECT_EQ(c.search.simulations, 32);
  EXPECT_EQ(c.learn.lr_drops, (std::vector<int64_t>{100, 200}));
  EXPECT_EQ(parse_config("selfplay: {precision: bf16}", "t").selfplay.precision, Precision::kBFloat16);
  EXPECT_EQ(parse_config("selfplay: {precision: fp32}", "t").selfplay.precision, Precision::kFloat32);
  EXPECT_EQ(parse_config("selfplay: {precision: int8}", "t").selfplay.precision, Precision::kInt8);
  EXPECT_EQ(TrainConfig().selfplay.precision, Precision::kAuto);
  // The learner's precision is its own key: bf16 where the CPU multiplies it in hardware.
  EXPECT_EQ(TrainConfig().learn.precision, Precision::kAuto);
  EXPECT_EQ(parse_config("learn: {precision: fp32}", "t").learn.precision, Precision::kFloat32);
  EXPECT_EQ(parse_config("learn: {precision: bf16}", "t").learn.precision, Precision::kBFloat16);
  EXPECT_EQ(parse_config("learn: {precision: auto}", "t").learn.precision, Precision::kAuto);
  EXPECT_EQ(parse_config("learn: {precision: bf16}", "t").selfplay.precision, Precision::kAuto);
  // Where the networks run: auto by default, each key on its own (a config names a GPU even
  // where none is: the device is checked when a network is placed, not when a file is read).
  EXPECT_EQ(TrainConfig().learn.device, Device{});
  EXPECT_EQ(TrainConfig().selfplay.device, Device{});
  EXPECT_EQ(parse_config("learn: {device: cpu}", "t").learn.device, kCpuDevice);
  EXPECT_EQ(parse_config("learn: {device: cpu}", "t").selfplay.device, Device{});
  EXPECT_EQ(parse_config("selfplay: {device: cuda:1}", "t").selfplay.device, (Device{Device::Kind::kCuda, 1}));
  EXPECT_EQ(parse_config("selfplay: {device: cuda}", "t").selfplay.device, (Device{Device::Kind::kCuda, 0}));
  EXPECT_EQ(parse_config("selfplay: {device: cuda:1}", "t").learn.device, Device{});
}

TEST(Config, DevicesDumpAndReadBack) {
  TrainConfig c;
  c.learn.device = Device{Device::Kind::kCuda, 2};
  c.selfplay.device = kCpuDevice;
  const std::string dump = dump_config(c);
  EXPECT_NE(dump.find("\n  device: cuda:2\n"), std::string::npos) << dump;
  EXPECT_NE(dump.find("\n  device: cpu\n"), std::string::npos) << dump;
  const TrainConfig again = parse_config(dump, "dump");
  EXPECT_EQ(again.learn.device, c.learn.device);
  EXPECT_EQ(again.selfplay.device, c.selfplay.device);
  EXPECT_NE(dump_config(TrainConfig()).find("\n  device: auto\n"), std::string::npos);
  TrainConfig o;
  apply_override(&o, "learn.device=cpu");
  EXPECT_EQ(o.learn.device, kCpuDevice);
  EXPECT_THROW(apply_override(&o, "selfplay.device=gpu"), ConfigError);
}

TEST(Config, UnknownKeyIsNamedWithFileAndLine) {
  EXPECT_EQ(error_of("game:\n  variant: quax\n  sizee: 5\n"), "test.yaml:3: unknown key 'game.sizee'");
  EXPECT_EQ(error_of("nett:\n  blocks: 2\n"), "test.yaml:1: unknown key 'nett'");
}

TEST(Config, BadValuesAreNamed) {
  EXPECT_EQ(error_of("search:\n  simulations: 0\n"),
            "test.yaml:2: bad value for 'search.simulations': expected an integer in [1, 10000000]");
  EXPECT_EQ(error_of("search:\n  c_puct: abc\n"), "test.yaml:2: bad value for 'search.c_puct': expected a number");
  EXPECT_EQ(error_of("game:\n  variant: hexx\n"),
            "test.yaml:2: bad value for 'game.variant': unknown variant 'hexx' (known: " + variant_list() +
                "; or a rules file, docs/VARIANTS.md)");
  EXPECT_EQ(error_of("net:\n  global_pooling: maybe\n"),
            "test.yaml:2: bad value for 'net.global_pooling': expected true or false");
  EXPECT_EQ(error_of("learn:\n  lr_drops: [300, 100]\n"),
            "test.yaml:2: bad value for 'learn.lr_drops': expected a list of increasing positive steps");
  EXPECT_EQ(error_of("replay:\n  window_min: 10\n  window_max: 5\n"),
            "test.yaml: bad value for 'replay.window_min': 10 is above replay.window_max (5)");
  EXPECT_EQ(error_of("selfplay:\n  precision: fp16\n"),
            "test.yaml:2: bad value for 'selfplay.precision': expected auto, fp32, bf16 or int8, got 'fp16'");
  // int8 is an inference format: the learner's passes have no int8.
  EXPECT_EQ(error_of("learn:\n  precision: int8\n"),
            "test.yaml:2: bad value for 'learn.precision': expected auto, fp32 or bf16, got 'int8'");
  EXPECT_EQ(error_of("learn:\n  precision: half\n"),
            "test.yaml:2: bad value for 'learn.precision': expected auto, fp32 or bf16, got 'half'");
  EXPECT_EQ(error_of("learn:\n  device: gpu\n"),
            "test.yaml:2: bad value for 'learn.device': expected cpu, cuda, cuda:N or auto, got 'gpu'");
  EXPECT_EQ(error_of("selfplay:\n  device: cuda:x\n"),
            "test.yaml:2: bad value for 'selfplay.device': expected cpu, cuda, cuda:N or auto, got 'cuda:x'");
  EXPECT_EQ(error_of("selfplay:\n  device: [cpu]\n"),
            "test.yaml:2: bad value for 'selfplay.device': expected cpu, cuda, cuda:N or auto");
  EXPECT_EQ(error_of("game: 5\n"), "test.yaml:1: section 'game' must be a mapping of keys");
  EXPECT_EQ(error_of("game: [\n"), "test.yaml:2: YAML syntax error: end of sequence flow not found");
}

TEST(Config, OverridesUseTheSameChecks) {
  TrainConfig c;
  apply_override(&c, "search.simulations=50");
  EXPECT_EQ(c.search.simulations, 50);
  try {
    apply_override(&c, "search.simulation=50");
    FAIL() << "accepted an unknown key";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "override: unknown key 'search.simulation'");
  }
  EXPECT_THROW(apply_override(&c, "no_equals_sign"), ConfigError);
}

// game.sizes: one network for several board sizes, with weights.
TEST(Config, SizesAndWeights) {
  const TrainConfig c = parse_config("game: {variant: quax, sizes: [7, 9, 11], size_weights: [1, 1, 2]}", "test.yaml");
  EXPECT_EQ(c.sizes, (std::vector<int>{7, 9, 11}));
  EXPECT_EQ(c.game, (GameSpec{Variant::kQuax, 7, true}));  // the first size is the primary one
  EXPECT_EQ(c.game_specs(), (std::vector<GameSpec>{{Variant::kQuax, 7, true}, {Variant::kQuax, 9, true},
                                                   {Variant::kQuax, 11, true}}));
  EXPECT_EQ(c.game_weights(), (std::vector<double>{1, 1, 2}));
  const std::string dump = dump_config(c);
  EXPECT_NE(dump.find("game:\n  variant: quax\n  sizes: [7, 9, 11]\n  size_weights: [1, 1, 2]\n  swap: true\n"),
            std::string::npos)
      << dump;
  EXPECT_EQ(dump_config(parse_config(dump, "dump")), dump);
  // Weights default to equal ones.
  const TrainConfig equal = parse_config("game: {sizes: [5, 6]}", "test.yaml");
  EXPECT_EQ(equal.game_weights(), (std::vector<double>{1, 1}));
  EXPECT_NE(dump_config(equal).find("  sizes: [5, 6]\n  size_weights: [1, 1]\n"), std::string::npos);
  // A run of one size has one spec and dumps as before the list existed: no new keys.
  const TrainConfig one = parse_config("game: {size: 9}", "test.yaml");
  EXPECT_EQ(one.game_specs(), (std::vector<GameSpec>{{Variant::kQuax, 9, true}}));
  EXPECT_EQ(one.game_weights(), (std::vector<double>{1}));
  EXPECT_EQ(dump_config(one).find("sizes"), std::string::npos);
  EXPECT_EQ(dump_config(one).find("size_weights"), std::string::npos);
  EXPECT_NE(dump_config(one).find("  size: 9\n"), std::string::npos);
}

TEST(Config, BadSizesAreNamed) {
  EXPECT_EQ(error_of("game:\n  size: 7\n  sizes: [7, 9]\n"),
            "test.yaml:3: 'game.size' and 'game.sizes' exclude each other: give one board size or a list of sizes");
  EXPECT_EQ(error_of("game:\n  sizes: [9, 7]\n  size: 7\n"),
            "test.yaml:2: 'game.size' and 'game.sizes' exclude each other: give one board size or a list of sizes");
  const std::string list = "expected a list of distinct board sizes in [3, 26], e.g. [7, 9, 11]";
  EXPECT_EQ(error_of("game:\n  sizes: [7, 7]\n"), "test.yaml:2: bad value for 'game.sizes': " + list);
  EXPECT_EQ(error_of("game:\n  sizes: [7, 30]\n"), "test.yaml:2: bad value for 'game.sizes': " + list);
  EXPECT_EQ(error_of("game:\n  sizes: []\n"), "test.yaml:2: bad value for 'game.sizes': " + list);
  EXPECT_EQ(error_of("game:\n  sizes: 7\n"), "test.yaml:2: bad value for 'game.sizes': " + list);
  EXPECT_EQ(error_of("game:\n  variant: quikquax\n  swap: false\n  sizes: [6, 7]\n"),
            "test.yaml: bad value for 'game.sizes': quikquax needs an even size, not 7");
  EXPECT_EQ(error_of("game:\n  sizes: [7, 9]\n  size_weights: [1, 0]\n"),
            "test.yaml:3: bad value for 'game.size_weights': expected a list of positive numbers, one per size, e.g. "
            "[1, 1, 2]");
  EXPECT_EQ(error_of("game:\n  sizes: [7, 9]\n  size_weights: [1, 2, 3]\n"),
            "test.yaml: bad value for 'game.size_weights': 3 weights for 2 sizes");
  EXPECT_EQ(error_of("game:\n  size: 7\n  size_weights: [1]\n"),
            "test.yaml: bad value for 'game.size_weights': it needs game.sizes (one weight per size)");
}

TEST(Config, OverridesReplaceTheSizes) {
  TrainConfig c = parse_config("game: {sizes: [7, 9], size_weights: [1, 3]}", "test.yaml");
  apply_override(&c, "game.size=11");
  EXPECT_TRUE(c.sizes.empty());
  EXPECT_TRUE(c.size_weights.empty());
  EXPECT_EQ(c.game_specs(), (std::vector<GameSpec>{{Variant::kQuax, 11, true}}));
  EXPECT_NO_THROW(check_config(c, "test"));
  apply_override(&c, "game.sizes=[5, 7]");
  EXPECT_EQ(c.sizes, (std::vector<int>{5, 7}));
  EXPECT_EQ(c.game.size, 5);
  EXPECT_NO_THROW(check_config(c, "test"));
}

// A directory of config files for one test, removed at the end.
class ConfigFiles {
 public:
  explicit ConfigFiles(const std::string& name)
      : dir_(std::filesystem::path(::testing::TempDir() + "/" + name).lexically_normal().string()) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~ConfigFiles() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = dir_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
    return path;
  }

 private:
  std::string dir_;
};

TEST(ConfigExtends, KeysApplyOnTopOfTheExtendedFilesInOrder) {
  const ConfigFiles files("config_extends");
  files.write("tiers/base.yaml", "net:\n  blocks: 2\n  filters: 24\nsearch:\n  simulations: 50\n");
  files.write("tiers/mid.yaml", "extends: base.yaml\nnet:\n  filters: 40\n");
  const std::string leaf =
      files.write("runs/leaf.yaml", "extends: ../tiers/mid.yaml\ngame:\n  size: 7\nsearch:\n  simulations: 70\n");
  const TrainConfig c = load_config(leaf);
  EXPECT_EQ(c.net.blocks, 2);             // from base, through mid
  EXPECT_EQ(c.net.filters, 40);           // mid over base
  EXPECT_EQ(c.search.simulations, 70);    // leaf over base
  EXPECT_EQ(c.game.size, 7);              // leaf only
  EXPECT_EQ(c.learn.lr, LearnConfig().lr);  // nobody: the default
  // Text that is no file resolves `extends` against the working directory.
  EXPECT_EQ(parse_config("extends: " + leaf + "\n", "<string>").search.simulations, 70);
  // A file that only extends another is that other.
  const std::string alias = files.write("alias.yaml", "extends: runs/leaf.yaml\n");
  EXPECT_EQ(dump_config(load_config(alias)), dump_config(c));
}

TEST(ConfigExtends, MissingFilesCyclesAndBadValuesAreNamed) {
  const ConfigFiles files("config_extends_errors");
  const std::string missing = files.write("missing.yaml", "game:\n  size: 7\nextends: nowhere.yaml\n");
  EXPECT_EQ(load_error(missing), missing + ":3: extends 'nowhere.yaml': no such file");
  const std::string a = files.write("a.yaml", "extends: b.yaml\n");
  const std::string b = files.write("b.yaml", "net:\n  blocks: 2\nextends: a.yaml\n");
  EXPECT_EQ(load_error(a), b + ":3: extends 'a.yaml' makes a cycle: a.yaml -> b.yaml -> a.yaml");
  const std::string self = files.write("self.yaml", "extends: self.yaml\n");
  EXPECT_EQ(load_error(self), self + ":1: extends 'self.yaml' makes a cycle: self.yaml -> self.yaml");
  const std::string list = files.write("list.yaml", "extends: [a.yaml, b.yaml]\n");
  EXPECT_EQ(load_error(list), list + ":1: 'extends' must name one config file");
  // An error inside an extended file names that file and its line.
  const std::string bad_base = files.write("bad_base.yaml", "net:\n  blocks: many\n");
  const std::string child = files.write("child.yaml", "extends: bad_base.yaml\n");
  EXPECT_EQ(load_error(child), bad_base + ":2: bad value for 'net.blocks': expected an integer");
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) out.push_back(line);
  return out;
}

// The cells of a Markdown table row "| a | b |", trimmed; empty for other lines.
std::vector<std::string> table_cells(const std::string& line) {
  std::vector<std::string> cells;
  if (line.size() < 2 || line.front() != '|' || line.back() != '|') return cells;
  std::stringstream ss(line.substr(1, line.size() - 2));
  for (std::string cell; std::getline(ss, cell, '|');) {
    const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
    cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  return cells;
}

std::string unquote(const std::string& cell) {
  return cell.size() >= 2 && cell.front() == '`' && cell.back() == '`' ? cell.substr(1, cell.size() - 2) : cell;
}

// Every shipped config file, as a path relative to configs/ ("quax_7x7.yaml", "base/small.yaml").
std::vector<std::string> shipped_config_files() {
  std::vector<std::string> out;
  const std::string root = std::string(QUAX_SOURCE_DIR) + "/configs";
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().extension() == ".yaml") out.push_back(std::filesystem::relative(e.path(), root).string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Config, ShippedConfigsAreShortAndMergeToTheirExpectedResult) {
  // Every shipped config, named <variant>_<size>[x<size>].yaml after the game it trains
  // (quickstart: quax 5x5) or, for several sizes, <variant>_mixed.yaml or <variant>_<first size>.yaml
  // (the size it is for, where one variant has two mixes), and the two tiers.
  const std::set<std::string> expected = {
      "base/medium.yaml", "base/small.yaml", "crossway_19.yaml", "crossway_7x7.yaml", "crossway_9x9.yaml",
      "crossway_mixed.yaml", "hex_13.yaml", "hex_7x7.yaml", "hex_mixed.yaml", "hex_9x9.yaml", "link_7x7.yaml", "link_9x9.yaml", "quadhex_10x10.yaml",
      "quadhex_8x8.yaml", "quadhex_mixed.yaml", "quadrex_19.yaml", "quadrex_7x7.yaml", "quadrex_9x9.yaml", "quady2_17.yaml",
      "quady_15.yaml",
      "quady_9.yaml", "quady_mixed.yaml", "quax_7x7.yaml", "quax_9x9.yaml", "quax_mixed.yaml", "quickstart.yaml",
      "quickway_7x7.yaml", "quickway_9x9.yaml", "quickway_mixed.yaml", "quikquax_6x6.yaml", "quikquax_mixed.yaml",
      "stymie_5x5.yaml", "stymie_mixed.yaml", "torax_5x5.yaml", "torax_mixed.yaml", "y_13.yaml", "y_9.yaml",
      "y_mixed.yaml"};
  const auto files = shipped_config_files();
  EXPECT_EQ(std::set<std::string>(files.begin(), files.end()), expected);
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    const std::string path = std::string(QUAX_SOURCE_DIR) + "/configs/" + file;
    EXPECT_LE(lines_of(read_text(path)).size(), 40u);
    const TrainConfig c = load_config(path);
    const TrainConfig again = parse_config(dump_config(c), "dump");
    EXPECT_EQ(dump_config(again), dump_config(c));
    if (file.rfind("base/", 0) == 0) continue;
    const std::string name = std::filesystem::path(file).stem().string();
    const std::string game = name == "quickstart" ? "quax_5x5" : name;
    const std::string size = std::to_string(c.game.size);
    const std::string variant = variant_info(c.game.variant).name;
    if (c.sizes.size() > 1) {
      EXPECT_TRUE(game == variant + "_mixed" || game == variant + "_" + size) << variant << " " << size;
    } else {
      EXPECT_TRUE(game == variant + "_" + size + "x" + size || game == variant + "_" + size) << variant << " " << size;
    }
    // The merged result is what the file meant before tiers existed (and what runs recorded).
    EXPECT_EQ(dump_config(c), read_text(std::string(QUAX_SOURCE_DIR) + "/tests/data/configs/" + name + ".txt"));
  }
}

// The configs of docs/VARIANTS.md's worked examples (examples/configs/<name>_<size>.yaml): each
// trains the rules file examples/variants/<name>.yaml at its size from a shipped model whose
// input planes and action layout fit that game (so its warm start loads tensor for tensor).
TEST(Config, ExampleConfigsTrainTheirRulesFilesFromAFittingModel) {
  const std::string source = QUAX_SOURCE_DIR;
  int seen = 0;
  for (const auto& e : std::filesystem::directory_iterator(source + "/examples/configs")) {
    SCOPED_TRACE(e.path().string());
    const TrainConfig c = load_config(e.path().string());
    const std::string stem = e.path().stem().string();
    const std::string name = stem.substr(0, stem.rfind('_'));
    EXPECT_EQ(std::filesystem::canonical(c.variant_file),
              std::filesystem::canonical(source + "/examples/variants/" + name + ".yaml"));
    EXPECT_EQ(std::string(variant_info(c.game.variant).name), name);
    EXPECT_EQ(stem, name + "_" + std::to_string(c.game.size));
    const ModelDescription start = parse_model_description(read_model_description(source + "/" + c.run.init_from));
    EXPECT_TRUE(same_layout(start.shape, model_shape_for(c.game)));
    ++seen;
  }
  EXPECT_EQ(seen, 3);
}

TEST(Config, TheReadmeDescribesTheFilesAndKeysAsTheyAre) {
  const auto readme = lines_of(read_text(std::string(QUAX_SOURCE_DIR) + "/configs/README.md"));
  // Files: | `file` | variant size | tier | B x F | simulations |
  std::set<std::string> described;
  for (const auto& line : readme) {
    const auto cells = table_cells(line);
    if (cells.size() != 5 || cells[0].find(".yaml`") == std::string::npos) continue;
    const std::string file = unquote(cells[0]);
    SCOPED_TRACE(file);
    described.insert(file);
    const std::string path = std::string(QUAX_SOURCE_DIR) + "/configs/" + file;
    const TrainConfig c = load_config(path);
    if (cells[1] != "-") {
      std::vector<std::string> sizes;
      for (const auto& spec : c.game_specs()) sizes.push_back(std::to_string(spec.size));
      EXPECT_EQ(cells[1], std::string(variant_info(c.game.variant).name) + " " + fmt::format("{}", fmt::join(sizes, ", ")));
    }
    const std::string text = read_text(path);
    const auto at = text.find("\nextends: ");
    const std::string tier =
        at == std::string::npos ? "-" : std::filesystem::path(text.substr(at + 10, text.find('\n', at + 1) - at - 10)).stem().string();
    EXPECT_EQ(cells[2], tier);
    EXPECT_EQ(cells[3], std::to_string(c.net.blocks) + " x " + std::to_string(c.net.filters));
    EXPECT_EQ(cells[4], std::to_string(c.search.simulations));
  }
  const auto files = shipped_config_files();
  EXPECT_EQ(described, std::set<std::string>(files.begin(), files.end()));
  // Keys: the table the schema writes (train/config_print.h), every key once with its default
  // and description, as one block. After a change of the schema, paste the table this failure
  // prints over the file's.
  const std::string table = config_key_table();
  EXPECT_NE(read_text(std::string(QUAX_SOURCE_DIR) + "/configs/README.md").find("|---|---|---|\n" + table + "\n"),
            std::string::npos)
      << "configs/README.md's key table is not:\n"
      << table;
  const auto keys = config_keys();
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), static_cast<long>(keys.size()));
}

}  // namespace
}  // namespace quax

namespace quax {
namespace {

// selfplay.simulations_schedule: read, printed back, applied by learner step, and checked.
TEST(Config, SimulationsScheduleGrowsWithTheLearnerStep) {
  const TrainConfig c =
      parse_config("search: {simulations: 64}\nselfplay: {simulations_schedule: [[0, 16], [2000, 32], [6000, 128]]}", "t");
  EXPECT_EQ(c.simulations_at(0), 16);
  EXPECT_EQ(c.simulations_at(1999), 16);
  EXPECT_EQ(c.simulations_at(2000), 32);
  EXPECT_EQ(c.simulations_at(100000), 128);
  EXPECT_EQ(parse_config(dump_config(c), "dump").selfplay.simulations_schedule, c.selfplay.simulations_schedule);
  // Before the first pair, and without a schedule, search.simulations.
  EXPECT_EQ(parse_config("search: {simulations: 64}\nselfplay: {simulations_schedule: [[500, 8]]}", "t").simulations_at(10), 64);
  EXPECT_EQ(TrainConfig().simulations_at(5000), TrainConfig().search.simulations);
  EXPECT_NE(dump_config(TrainConfig()).find("  simulations_schedule: []\n"), std::string::npos);
  for (const char* bad : {"selfplay: {simulations_schedule: 16}", "selfplay: {simulations_schedule: [[0, 16, 3]]}",
                          "selfplay: {simulations_schedule: [[100, 16], [100, 32]]}",
                          "selfplay: {simulations_schedule: [[0, 0]]}", "selfplay: {simulations_schedule: [[-5, 16]]}"})
    EXPECT_NE(error_of(bad).find("bad value for 'selfplay.simulations_schedule'"), std::string::npos) << bad;
}

}  // namespace
}  // namespace quax
