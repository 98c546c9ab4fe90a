#include "train/config_yaml.h"

#include "core/quoted_input.h"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>

#include <sstream>

#include "core/bounded_file.h"
#include "train/config.h"

namespace quax {

namespace {

// Walks the parser's events only to refuse what load_config_yaml does not accept; building
// nodes is left to YAML::Load once the text has passed.
class ConfigShapeCheck : public YAML::EventHandler {
 public:
  explicit ConfigShapeCheck(const std::string& source) : source_(source) {}

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { check_anchor(mark, anchor); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { refuse_alias(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string&) override {
    check_anchor(mark, anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnMapEnd() override { --depth_; }
  void OnAnchor(const YAML::Mark& mark, const std::string&) override { refuse_alias(mark); }

 private:
  std::string at(const YAML::Mark& mark) const { return fmt::format("{}:{}", source_, mark.line + 1); }
  [[noreturn]] void refuse_alias(const YAML::Mark& mark) const {
    throw ConfigError(at(mark) + ": YAML anchors and aliases (&name, *name) are not accepted in a config; write the "
                                 "value out, or share settings with 'extends:'");
  }
  void check_anchor(const YAML::Mark& mark, YAML::anchor_t anchor) const {
    if (anchor != YAML::NullAnchor) refuse_alias(mark);
  }
  void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    check_anchor(mark, anchor);
    if (++depth_ > kConfigYamlDepth)
      throw ConfigError(fmt::format("{}: nested more than {} levels deep; a config is sections of keys", at(mark),
                                    kConfigYamlDepth));
  }

  const std::string& source_;
  int depth_ = 0;
};

}  // namespace

YAML::Node load_config_yaml(const std::string& text, const std::string& source) {
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    ConfigShapeCheck check(source);
    parser.HandleNextDocument(check);
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(fmt::format("{}:{}: YAML syntax error: {}", source, e.mark.line + 1, printable_line(e.msg)));
  } catch (const YAML::Exception& e) {  // e.g. yaml-cpp's own nesting limit (DeepRecursion)
    throw ConfigError(fmt::format("{}:{}: YAML error: {}", source, e.mark.line + 1, e.msg));
  }
}

std::string read_config_file(const std::string& path) {
  try {
    return read_regular_file(path, kConfigFileLimit, "config file");
  } catch (const std::exception& e) {
    throw ConfigError(e.what());
  }
}

}  // namespace quax
