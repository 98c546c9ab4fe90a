// The interface every variant implements, and all that search, training and the text
// protocol know of the rules. No LibTorch here.
//
// Actions. Each (variant, size) has a fixed action layout: `spatial_planes()` planes of
// size x size (action = plane * size * size + row * size + column, row 0 = row 1 = south,
// column 0 = `a`), followed by `extra_actions()` non-spatial actions (swap, pass, ...).
// The network's policy head has exactly this shape. Actions come in two frames:
//  - the board frame, used by apply(), legal_mask(), notation;
//  - the network frame, in which the mover always connects north-south (the board is
//    transposed when White moves in the square games, as Hex programs do).
// to_net_action()/from_net_action() map between them; encode() writes planes in the
// network frame.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "env/rng.h"
#include "env/types.h"

namespace quax {

// One cell of a finished game's board (see GameState::final_ownership).
struct CellOwnership {
  Player owner = Player::kNone;  // whose stone the cell holds; kNone when empty or off the board
  bool on_chain = false;         // the cell lies on the winner's winning chain
};

class GameState {
 public:
  virtual ~GameState() = default;

  virtual const GameSpec& spec() const = 0;
  int size() const { return spec().size; }

  // A deep copy. copy_from() overwrites this state with another of the same spec without
  // allocating; it is what the search uses instead of undo.
  virtual std::unique_ptr<GameState> clone() const = 0;
  virtual void copy_from(const GameState& other) = 0;

  // --- Turn and result -------------------------------------------------------------
  // The player to act; kNone once the game is over.
  virtual Player to_move() const = 0;
  virtual Outcome outcome() const = 0;
  bool is_over() const { return outcome() != Outcome::kOngoing; }
  // Actions applied since the start (plies; a swap or pass counts as one).
  virtual int move_number() const = 0;

  // --- Actions (board frame) ---------------------------------------------------------
  virtual int spatial_planes() const = 0;
  virtual int extra_actions() const = 0;
  int num_actions() const { return spatial_planes() * size() * size() + extra_actions(); }

  // mask[a] = 1 when action a is legal, else 0; mask has num_actions() entries.
  // All zero once the game is over.
  virtual void legal_mask(uint8_t* mask) const = 0;
  // The legal actions in increasing order; by default read off legal_mask().
  virtual void legal_actions(std::vector<int>* out) const;
  // Empty when legal; otherwise one line naming the move and why it is not legal.
  virtual std::string why_illegal(int action) const = 0;
  bool is_legal(int action) const { return why_illegal(action).empty(); }
  // True when `swap` (the pie rule, docs/RULES.md section 1) is a legal action now: the
  // same as is_legal on the swap action, without building a message. False in variants
  // without the pie rule.
  virtual bool swap_available() const { return false; }
  // Precondition: is_legal(action). Checked only in debug builds.
  virtual void apply(int action) = 0;

  // Plays uniformly random legal actions to the end and returns the outcome.
  virtual Outcome play_random_to_end(Rng& rng) = 0;

  // --- Notation ----------------------------------------------------------------------
  // Canonical notation: `c5`, `e2-f3` (southern cell first), `swap`, `pass`.
  virtual std::string action_to_string(int action) const = 0;
  // Parses one move in any accepted form; returns -1 and sets *error (one line) when the
  // text is not a move on this board. Does not check legality.
  virtual int parse_action(std::string_view text, std::string* error) const = 0;
  // The stones (cells) and links of one colour in canonical notation, board order.
  virtual std::vector<std::string> stones_of(Player p) const = 0;
  // None by default: only the boards with link moves or automatic links have links.
  virtual std::vector<std::string> links_of(Player /*p*/) const { return {}; }
  // A diagram in the style of the play-by-email server's, several lines; its last line ends
  // with status_line() (quikquax: its last two lines hold it, the turn on a line of its own).
  virtual std::string board_text() const = 0;

  // --- Words for people ----------------------------------------------------------------
  // The one description of the moves that `quax play`, the browser and the protocol show, so
  // that none of them keeps its own list (which then claims links and `pass` for hex).
  // What the player to move may play now: one line, each kind of move with an example in
  // this board's notation, and only the kinds this variant has and the rules allow at this
  // point: links only where players make links, `swap` only while it is legal, `pass` only
  // when forced, torax's auction (blocks, `end`, `adopt`), the shape of a stymie turn and its
  // `end`, quikquax's stones and quadrants left. After the game, a line saying it is over.
  virtual std::string move_help() const = 0;
  // One line: whose turn it is and what part of it is under way (swap available, a forced
  // pass, the torax auction with the blocks on the board, a stymie turn's pieces, quikquax's
  // stones left), or who has won. Lower case, as board_text() writes it.
  virtual std::string status_line() const = 0;

  // Game records (env/notation.h) write one token per action, except where a variant's
  // notation writes a turn as one token (Torax's auction: the blocks joined, `c3g7`, the
  // `end` implied). How `action`, played from this position, is written:
  enum class RecordForm { kToken, kJoined, kImplied };  // own token, appended, not written
  virtual RecordForm record_form(int /*action*/) const { return RecordForm::kToken; }
  // The actions one record token stands for from this position (default: parse_action's
  // one). Empty, with *error set (one line), when the token is not a move here.
  virtual std::vector<int> parse_record_token(std::string_view token, std::string* error) const;

  // --- Network view ------------------------------------------------------------------
  virtual int num_planes() const = 0;
  // Names of the input planes, in order (documented for exported models).
  virtual std::vector<std::string> plane_names() const = 0;
  // Writes num_planes() * size * size floats, mover's point of view, network frame.
  virtual void encode(float* planes) const = 0;
  // Map an action between the board frame and the network frame of the player to move.
  virtual int to_net_action(int board_action) const = 0;
  virtual int from_net_action(int net_action) const = 0;
  // For exported model files, read by programs that decode the policy without this code:
  // what each spatial action plane holds, and one sentence on the cell index and on how the
  // network frame relates to the board frame.
  virtual std::vector<std::string> spatial_plane_names() const = 0;
  virtual std::string net_frame_note() const = 0;
  // legal_mask() in the network frame: mask[to_net_action(a)] = 1 for each legal a; what the
  // network's policy is masked with. Variants override it with a direct, faster version.
  virtual void net_legal_mask(uint8_t* mask) const {
    std::vector<uint8_t> board(static_cast<size_t>(num_actions()));
    legal_mask(board.data());
    for (int a = 0; a < num_actions(); ++a) mask[to_net_action(a)] = board[a];
  }

  // --- Final ownership (auxiliary training targets, KataGo-style) ---------------------------
  // The board of a finished game, one entry per cell of spatial action plane 0 (size() x
  // size(), cell index r*N + c as the action, board frame). `owner` names players as
  // to_move() and outcome() do (torax: seats, not stone colours). `on_chain` marks the cells
  // of the winner's winning chains: every group of the winner's stones (connected as the
  // rules connect them, the board's edges not counting as connections) that by itself
  // reaches the winner's goal. On the quadrant boards that is each such group in every game
  // (whole board or sub-game) the winner scored; stymie's squares are not cells, but they
  // connect its octagons; torax: the black group holding a loop around the torus when the
  // connecting seat won, nothing when the blocker won (no chain makes its win). A draw has no
  // chain. Empty when the game is not over.
  virtual std::vector<CellOwnership> final_ownership() const = 0;

  // --- Data augmentation (network frame) -------------------------------------------------
  // The symmetries of the network frame that map every position of this spec to a position
  // of the same spec, same mover and same goal; training draws one per example. Index 0 is
  // the identity; the default is the identity alone. The transforms write `out` from `in`
  // (no overlap): input planes (num_planes() x N x N as encode() writes them) and policies or
  // legal masks over the num_actions() network-frame actions.
  virtual int num_net_symmetries() const { return 1; }
  virtual void transform_net_planes(int sym, const float* in, float* out) const;
  virtual void transform_net_policy(int sym, const float* in, float* out) const;
  virtual void transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const;

  // A 64-bit key of the position (stones, links, player to move, phase), equal for
  // equal positions; used by tests and transposition tables.
  virtual uint64_t position_key() const = 0;
};

// A new game at the start. Precondition: check_spec(spec) is empty.
std::unique_ptr<GameState> new_game(const GameSpec& spec);

}  // namespace quax
