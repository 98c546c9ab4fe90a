#!/bin/bash
# `quax play` explains the moves in the variant's own words (issue 29: one list with links and
# pass was printed for every variant): hex offers stones, and swap only when it is legal, never
# a link or pass; torax explains its auction (blocks, end, adopt) and `moves` names `end` and
# `adopt` first, where they are not lost behind the cells; --model with --player is refused
# with one line naming both.
# Usage: play_help.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"

# The lines of a session that describe moves (the help; not the title, which says "(swap)").
move_lines() { printf '%s\n' "$1" | grep -E '^(black> |white> )?(Moves|Auction|This turn)'; }

# Hex, you play black: stones only, and no swap for black.
out=$(printf 'help\nquit\n' | "$QUAX" play --variant hex --size 5 --player random --seed 1) || fail "hex: exit $?"
printf '%s\n' "$out" | grep -qx 'Moves: a stone on an empty cell (e.g. a1).' || fail "hex: no stone help: $out"
printf '%s\n' "$out" | grep -q '^black> Moves: a stone on an empty cell (e.g. a1).$' || fail "hex: help command: $out"
printf '%s\n' "$out" | grep -qi 'link' && fail "hex: a link is offered: $out"
printf '%s\n' "$out" | grep -qw 'pass' && fail "hex: pass is offered: $out"
move_lines "$out" | grep -qw 'swap' && fail "hex: swap offered to black: $(move_lines "$out")"

# Hex, you play white after the engine's first stone: swap is legal, explained and listed.
out=$(printf 'moves\nquit\n' | "$QUAX" play --variant hex --size 5 --player random --seed 1 --color white) ||
  fail "hex white: exit $?"
move_lines "$out" | grep -q "^Moves: a stone on an empty cell (e.g. a1), or swap (black's [a-e][1-5] becomes your [a-e][1-5]).$" ||
  fail "hex white: swap not explained: $out"
printf '%s\n' "$out" | grep -q '^white> swap [a-e][1-5] ' || fail "hex white: moves does not list swap first: $out"
# The same without the pie rule: no swap anywhere in the moves.
out=$(printf 'moves\nquit\n' | "$QUAX" play --variant hex --size 5 --swap off --player random --seed 1 --color white) ||
  fail "hex no swap: exit $?"
move_lines "$out" | grep -qw 'swap' && fail "hex no swap: swap offered: $out"
printf '%s\n' "$out" | grep -q '^white> .*swap' && fail "hex no swap: moves lists swap: $out"

# Torax: the auction explained, `adopt` listed first at the start of a turn, `end` once a
# block is down; the status line says whose turn it is in the auction.
out=$(printf 'moves\nc3\nmoves\nquit\n' | "$QUAX" play --variant torax --size 5 --player random --seed 1) ||
  fail "torax: exit $?"
printf '%s\n' "$out" | grep -q '^Auction: place blocks (white stones) on empty cells, one a move (e.g. a1), up to 5 this turn, then end; or adopt' ||
  fail "torax: the auction is not explained: $out"
printf '%s\n' "$out" | grep -q '^black> adopt a1 b1 ' || fail "torax: moves does not list adopt first: $out"
printf '%s\n' "$out" | grep -qx 'Auction: another block on an empty cell, up to 4 more this turn, or end to close your turn.' ||
  fail "torax: no help after a block: $out"
printf '%s\n' "$out" | grep -q '; auction: black to move, 1 block on the board, 1 this turn (at most 5)$' ||
  fail "torax: no auction status: $out"
printf '%s\n' "$out" | grep -q '^black> end a1 b1 ' || fail "torax: moves does not list end first: $out"
printf '%s\n' "$out" | grep -qi 'link' && fail "torax: a link offered during the auction: $out"

# The engine is either a model or a player, not both.
expect_one_line_error "excludes" "$QUAX" play --model nothing.pt --player uct:100 < /dev/null
case "$ERROR_LINE" in *--model*--player*|*--player*--model*) ;; *) fail "--model with --player: '$ERROR_LINE'";; esac
echo "ok"
