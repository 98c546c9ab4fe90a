// Models carry the rules they were trained under (nets/model_file.h, "rules"): a model of a
// rules file plays without the file, and a model whose rules differ from the variant of that
// name here is refused naming the field, so a rules file changed after training is caught.
#include <gtest/gtest.h>

#include <string>

#include "env/game_registry.h"
#include "nets/model_file.h"
#include "nets/net_config.h"
#include "rules/rules_file.h"

namespace quax {
namespace {

const std::string kSource = QUAX_SOURCE_DIR;

std::string refusal(const nlohmann::json& description) {
  try {
    parse_model_description(description);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(RulesInModels, AModelCarriesItsRulesAndRefusesOtherRulesUnderItsName) {
  const Variant v = variant_from_name_or_file(kSource + "/examples/variants/twostep.yaml");
  const GameSpec spec{v, 5, false};
  nlohmann::json d = model_description(model_shape_for(spec), NetConfig{}, 0);
  EXPECT_EQ(d.at("rules"), rules_text(variant_info(v).rules));
  EXPECT_EQ(parse_model_description(d).shape.spec, spec);

  // The file changed since: the same name, another game.
  Rules changed = variant_info(v).rules;
  changed.stones_per_turn = {1, 3};
  nlohmann::json other = d;
  other["rules"] = rules_text(changed);
  EXPECT_EQ(refusal(other),
            "rules: twostep here is not the game the model was trained at (the model's stones_per_turn: [1, 3], "
            "not [1, 2])");
  // Sizes and the pie rule's default are no other game.
  changed = variant_info(v).rules;
  changed.max_size = 12;
  other["rules"] = rules_text(changed);
  EXPECT_EQ(refusal(other), "(accepted)");

  // A variant unknown here: the model's rules register it, and it plays.
  Rules carried = variant_info(v).rules;
  carried.name = "carried";
  other = d;
  other["variant"] = "carried";
  other["rules"] = rules_text(carried);
  ASSERT_FALSE(parse_variant("carried"));
  const ModelDescription read = parse_model_description(other);
  ASSERT_TRUE(parse_variant("carried"));
  EXPECT_EQ(read.shape.spec.variant, *parse_variant("carried"));
  EXPECT_EQ(rules_of(*parse_variant("carried")), v) << "the same game as twostep";

  // Rules that name another variant, or are no rules at all.
  other = d;
  other["rules"] = rules_text(carried);
  EXPECT_EQ(refusal(other), "rules: name 'carried' is not the variant 'twostep'");
  other["rules"] = "name: [x";
  EXPECT_EQ(refusal(other).rfind("rules: not YAML", 0), 0u) << refusal(other);
  other["rules"] = "name: twostep\ndiagonal: link\nstones_per_turn: [1, 2]\npie_rule: off\nsizes: {default: 5}\n";
  EXPECT_EQ(refusal(other).rfind("rules: stones_per_turn: several stones a turn are played with diagonal", 0), 0u)
      << refusal(other);
  other["rules"] = 7;
  EXPECT_EQ(refusal(other).rfind("rules 7 is not a string", 0), 0u) << refusal(other);
}

}  // namespace
}  // namespace quax
