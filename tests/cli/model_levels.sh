#!/bin/bash
# A model's own difficulty levels (`quax levels`): measured on hex-11.pt at 9x9 in a few games
# per pair of settings (on quax-5.pt at 5x5 the search gains too little over the policy for so
# few games to rank it), written into a copy of the model; its card lists ten levels with rising
# Elo, level 10 the full search; `level=N` then plays that table; the shipped file is left
# as it was; bad arguments and an unwritable --out fail in one line before any game.
# Usage: model_levels.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"
MODEL5="$SRC/checkpoints/quax-5.pt"
HEX11="$SRC/checkpoints/hex-11.pt"
before=$(sha256sum "$HEX11" | cut -d' ' -f1)

out=$("$QUAX" levels --model "$HEX11" --size 9 --out "$DIR/h.pt" --games 16 --full-sims 100 --results "$DIR/games.jsonl" 2>&1) ||
  fail "levels: exit $?: $out"
# 11 policy settings and the searches of 4, 6, 8, 11, 16, 23, 32, 45, 64 and 100 simulations: 21
# settings, 20 pairs of 16 games.
printf '%s\n' "$out" | grep -q "^levels: 21 settings of $HEX11 on hex 9x9 (swap), each against the next: 320 games$" ||
  fail "levels: the plan line: $out"
# Then the checks: first all nine pairs of neighbouring levels played again, 16 games each, then
# the pairs a new choice makes; every game is in the results file.
printf '%s\n' "$out" | grep -q "^check 1: 9 pairs of neighbouring levels played again: 144 games$" ||
  fail "levels: the first check: $out"
checked=$(($(printf '%s\n' "$out" | sed -n 's/^check [0-9]*: [0-9]* pairs of neighbouring levels played again: \([0-9]*\) games$/\1/p' |
  paste -sd+)))
[ "$(wc -l < "$DIR/games.jsonl")" -eq $((320 + checked)) ] || fail "levels: not 320 + $checked games in the results file"
# The last table: each level against the one below over all their games.
[ "$(printf '%s\n' "$out" | grep -cE '^([2-9]|10) .* ([0-9]+% of [0-9]+|never met)$')" -eq 9 ] ||
  fail "levels: no score against the level below for each of levels 2..10: $out"
[ "$(sha256sum "$HEX11" | cut -d' ' -f1)" = "$before" ] || fail "levels changed the model it measured"

# --resume: the same calibration again takes every game from the results file and plays none;
# it writes the same table (the file keeps its games, none added).
lines=$(wc -l < "$DIR/games.jsonl")
again=$("$QUAX" levels --model "$HEX11" --size 9 --out "$DIR/h2.pt" --games 16 --full-sims 100 --results "$DIR/games.jsonl" --resume 2>&1) ||
  fail "levels --resume: exit $?: $again"
printf '%s\n' "$again" | grep -q "^  320 of 320 games taken from $DIR/games.jsonl$" || fail "levels --resume: the chain was not taken: $again"
printf '%s\n' "$again" | grep -q "games/s" && fail "levels --resume played games: $again"
[ "$(wc -l < "$DIR/games.jsonl")" -eq "$lines" ] || fail "levels --resume added games to the file"
[ "$(printf '%s\n' "$again" | grep -E '^(level|[0-9]+ ) ')" = "$(printf '%s\n' "$out" | grep -E '^(level|[0-9]+ ) ')" ] ||
  fail "levels --resume chose another table: $again"
# Half the file: the other half is played.
head -n 160 "$DIR/games.jsonl" > "$DIR/half.jsonl"
half=$("$QUAX" levels --model "$HEX11" --size 9 --out "$DIR/h3.pt" --games 16 --full-sims 100 --results "$DIR/half.jsonl" --resume --checks 0 2>&1) ||
  fail "levels --resume on half: exit $?: $half"
printf '%s\n' "$half" | grep -q "^  160 of 320 games taken from $DIR/half.jsonl$" || fail "levels --resume on half: $half"
[ "$(wc -l < "$DIR/half.jsonl")" -eq 320 ] || fail "levels --resume on half: the file does not hold the whole chain"
expect_one_line_error "--resume requires --results" "$QUAX" levels --model "$MODEL5" --out "$DIR/x.pt" --resume

card=$("$QUAX" card "$DIR/h.pt") || fail "card: exit $?"
printf '%s\n' "$card" | grep -qx "levels: measured at 9x9 (pie rule), 16 games between neighbouring settings" ||
  fail "card: no levels line: $card"
[ "$(printf '%s\n' "$card" | grep -c '^  level ')" -eq 10 ] || fail "card: not ten levels: $card"
# Level 1 is the lowest rated setting (a hot policy), at Elo 0; level 10 the full search, rated highest.
printf '%s\n' "$card" | grep -q "^  level  1 novice         the policy at temperature [0-9.]*, Elo 0$" ||
  fail "card: level 1 is not a hot policy at Elo 0: $card"
printf '%s\n' "$card" | grep -q "^  level 10 full strength  100 simulations, Elo [1-9][0-9]*$" || fail "card: level 10 is not the full search: $card"
elos=$(printf '%s\n' "$card" | sed -n 's/^  level .*, Elo \(-*[0-9]*\)$/\1/p' | tr '\n' ' ')
prev=-1
for e in $elos; do [ "$e" -gt "$prev" ] || fail "card: the levels' Elo do not rise: $elos"; prev=$e; done
"$QUAX" card "$MODEL5" | grep -qx "levels: the default table (measure this model's own with \`quax levels\`)" ||
  fail "the shipped model's card does not say it plays the default table"

# Level 10 of the new file searches 100 simulations (its table), not the default table's 200:
# a game at level 10 against level 10 records what each side played; both play.
"$QUAX" arena --variant hex --size 9 --players "$DIR/h.pt:level=10,$DIR/h.pt:level=1" --games 2 --results "$DIR/l.jsonl" > /dev/null 2>&1 ||
  fail "arena with the new levels: exit $?"
[ "$(wc -l < "$DIR/l.jsonl")" -eq 2 ] || fail "arena with the new levels: not 2 games"

expect_one_line_error "cannot write '$DIR': it is a directory" "$QUAX" levels --model "$MODEL5" --out "$DIR"
expect_one_line_error "not a TorchScript model file" "$QUAX" levels --model "$DIR/games.jsonl" --out "$DIR/x.pt"
expect_one_line_error "quax levels: size 2 is out of range for quax (3..26)" "$QUAX" levels --model "$MODEL5" --out "$DIR/x.pt" --size 2
[ ! -e "$DIR/x.pt" ] || fail "a refused levels run left a file"
echo "ok"
