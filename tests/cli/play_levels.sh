#!/bin/bash
# Difficulty levels and the model that plays when none is named (issue 34): `quax play` takes
# the variant's shipped model at a size it was not trained on too (not a uct baseline);
# --level plays it weaker, and is refused in one line for a baseline or a variant without a
# model; `quax gtp --level` plays the shipped model; `quax arena --chain` meets neighbours only.
# Usage: play_levels.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cd "$DIR"  # no checkpoints/ here: the models are found beside the program's source tree

# Hex 13: no model was trained at 13, the nearest-sized hex model plays, with its warning.
out=$(echo quit | "$QUAX" play --variant hex --size 13 --swap off 2>"$DIR/err") || fail "hex 13: exit $?"
printf '%s\n' "$out" | grep -q "^hex 13x13 (no swap): you play black, the engine ($SRC/checkpoints/hex-[0-9]*\.pt) plays white\.$" ||
  fail "hex 13 is not played by a shipped hex model: $out"
grep -q "was trained on hex .*not 13x13" "$DIR/err" || fail "hex 13: no warning of the untrained size: $(cat "$DIR/err")"

# A level names the model and the level; the engine answers a move.
out=$(printf 'a1\nquit\n' | "$QUAX" play --variant quax --size 5 --level 3 --seed 2 2>&1) || fail "level 3: exit $?"
printf '%s\n' "$out" | grep -q "the engine ($SRC/checkpoints/quax-5\.pt:level=3) plays white" || fail "level 3: $out"
printf '%s\n' "$out" | grep -q "engine plays [a-e][1-5]" || fail "level 3: the engine did not move: $out"

# Every variant has a shipped model now: with the models' folders set to an empty one
# (QUAX_MODELS, nets/model_locations.h), there is none.
mkdir "$DIR/no-models" || fail "mkdir"
export QUAX_MODELS="$DIR/no-models"
expect_one_line_error "quax play: --level needs a model, and there is no shipped model of quadrex (give one with --model)" \
  "$QUAX" play --variant quadrex --level 3
unset QUAX_MODELS
expect_one_line_error "quax play: --level plays a model weaker, not the baseline 'uct:100'" \
  "$QUAX" play --player uct:100 --level 3
expect_one_line_error "level takes 1 (novice) to 10 (full strength)" \
  "$QUAX" play --variant quax --size 5 --player "$SRC/checkpoints/quax-5.pt:level=11"
expect_one_line_error "quax play: --level: Value 0 not in range 1 to 10" "$QUAX" play --level 0

# gtp: --level without --model plays the shipped model; a variant without one is refused.
out=$(printf 'genmove b\nquit\n' | "$QUAX" gtp --size 5 --level 2 --seed 3 2>/dev/null | head -1)
case "$out" in "= "[a-e][1-5]) ;; *) fail "gtp --level 2 answered '$out'";; esac
export QUAX_MODELS="$DIR/no-models"
expect_one_line_error "quax gtp: --level needs a model, and there is no shipped model of quadrex (give one with --model)" \
  "$QUAX" gtp --variant quadrex --level 3
unset QUAX_MODELS

# arena --chain: random, level 1, level 10 - two pairings, never random against level 10.
M="$SRC/checkpoints/quax-5.pt"
"$QUAX" arena --variant quax --size 5 --players "random,$M:level=1,$M:level=10" --chain --games 2 \
  --results "$DIR/chain.jsonl" > "$DIR/arena.out" || fail "arena --chain: exit $?"
[ "$(wc -l < "$DIR/chain.jsonl")" -eq 4 ] || fail "arena --chain: $(wc -l < "$DIR/chain.jsonl") games, expected 4"
grep -q "\"random\".*level=10\"\|level=10\".*\"random\"" "$DIR/chain.jsonl" && fail "arena --chain: random met level 10"
[ "$(grep -c '"random"' "$DIR/chain.jsonl")" -eq 2 ] || fail "arena --chain: random did not play level 1 twice"
expect_one_line_error "quax arena: --gauntlet excludes --chain" "$QUAX" arena --players random,random --chain --gauntlet
echo ok
