// The game a command works on, from its --variant / --size / --swap options: the one place
// that declares them (add_game_options) and reads them (game_spec_from_options).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "env/types.h"

namespace quax {

// What a command's game options hold, as given (defaults: quax, the variant's size, its pie
// rule); add_game_options fills it.
struct GameOptions {
  std::string variant = "quax";
  int size = 0;                   // 0: the variant's default (or what the command says)
  std::string swap = "default";   // on, off, default
  CLI::Option* variant_option = nullptr;

  bool variant_given() const { return variant_option && variant_option->count() > 0; }
  // The game they name (game_spec_from_options); throws CommandError with one line.
  GameSpec spec() const;
  // The same, with a model's own game where --variant was not given (game_from_model).
  GameSpec spec_for_model(const std::string& model_desc);
};

// How a command's help describes its game options, and which it has.
struct GameOptionsHelp {
  bool variant = true;                       // declares --variant
  std::string variant_default = "quax";      // what the help says a missing --variant means
  std::string size = "Board size (0: the variant's default)";
  std::string swap = "the variant's";        // what --swap default means; "": no --swap option
};

// Declares --variant (a name or a rules file), --size and --swap on `cmd`, into *o.
void add_game_options(CLI::App* cmd, GameOptions* o, const GameOptionsHelp& help = {});

// `variant` is a variant's name or a rules file (rules/rules_file.h, read and registered);
// `size` 0 means the variant's default; `swap` is "on", "off" or "default" (the variant's
// own pie rule). Throws CommandError with one line for an unknown variant, a rules file
// refused, or a size the variant does not allow.
GameSpec game_spec_from_options(const std::string& variant, int size, const std::string& swap = "default");

// For a command given a model (`model_desc`: a player description, "hex-9.pt" or
// "hex-9.pt:sims=400") but not --variant (`variant_given` false): sets *variant to the model's
// own, *size (when 0) to the size it describes and *swap (when "default") to the pie rule it
// was trained with, so that `quax play --model hex-9.pt` plays the model's own game rather than
// refusing it for quax. Leaves all three as they are when --variant was given or the
// description names no model file; a file whose description parse_model_description
// refuses (or cannot be read) is left to the loading that follows, which names the file and
// what is wrong with it.
void game_from_model(const std::string& model_desc, bool variant_given, std::string* variant, int* size,
                     std::string* swap);

}  // namespace quax
