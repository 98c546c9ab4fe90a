#!/bin/bash
# `quax play` goes on after the last move: the result and the record are printed, and then
# undo takes the moves back, save FILE writes a record that `quax replay` accepts, new starts
# another game (with the colour named), and only quit ends the program; `hint` gives the
# engine's move with its value for you where the engine is a model's search.
# Usage: play_after_end.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Hex 3x3 against random: every cell in turn (the taken ones are refused) ends the game, then
# the lines after the end.
cells="a1 b1 c1 a2 b2 c2 a3 b3 c3"
input=$(printf '%s\n' $cells; printf 'b2\nsave %s/game.txt\nundo\nboard\nnew white\nquit\n' "$tmp")
out=$(printf '%s\n' "$input" | "$QUAX" play --variant hex --size 3 --swap off --player random --seed 3) ||
  fail "exit $?: $out"
grep -q '^record: ' <<<"$out" || fail "no record line: $out"
grep -qE '^(you win|the engine wins)$' <<<"$out" || fail "no result line: $out"
# A move after the end is refused with what can be done, and the program goes on.
grep -q '^game over> the game is over: undo (back to your last move), new \[black|white\] (another game), save FILE, quit.$' <<<"$out" ||
  fail "a move after the end: $out"
grep -q "^game over> saved the record to $tmp/game.txt" <<<"$out" || fail "save: $out"
record=$(sed -n 's/^record: //p' <<<"$out" | head -1)
[ "$(cat "$tmp/game.txt")" = "$record" ] || fail "saved record '$(cat "$tmp/game.txt")', printed '$record'"
grep -q "^game over> saved the record to $tmp/game.txt (quax replay --variant hex --size 3 --no-pie $tmp/game.txt)$" <<<"$out" ||
  fail "save's replay command: $out"
replayed=$("$QUAX" replay --variant hex --size 3 --no-pie "$tmp/game.txt") || fail "replay of the saved record: $replayed"
grep -q 'wins' <<<"$replayed" || fail "the saved record does not end the game: $replayed"
# undo: back to black's turn in an unfinished game.
after_undo=$(sed -n '/game over> saved/,/> new game/p' <<<"$out")
grep -q '^black to move' <<<"$after_undo" || fail "undo did not take the game back to black's turn: $after_undo"
# new white: the engine opens the new game.
grep -q '^black> new game: you play white$' <<<"$out" || fail "new white: $out"
sed -n '/^black> new game: you play white$/,$p' <<<"$out" | grep -q '^engine plays [a-c][1-3]$' ||
  fail "the engine did not open the new game: $out"

# Save where no file can be (under a regular file): one line, the game goes on.
touch "$tmp/plain"
out=$(printf 'save %s/plain/g.txt\nmoves\nquit\n' "$tmp" | "$QUAX" play --variant hex --size 3 --player random) ||
  fail "exit $? on a failed save"
grep -q "^black> cannot save: .*$tmp/plain/g.txt" <<<"$out" || fail "failed save: $out"
grep -q '^black> a1 b1 c1 ' <<<"$out" || fail "the game did not go on after a failed save: $out"

# hint: the move and its value, from the model's search.
MODEL="$SRC/checkpoints/quax-5.pt"
out=$(printf 'hint\nquit\n' | "$QUAX" play --size 5 --player "$MODEL:sims=32") || fail "hint: exit $?"
grep -qE '^black> hint: [a-e][1-5] \(value [+-][01]\.[0-9]{2} for you: about [0-9]+% to win\)$' <<<"$out" ||
  fail "hint without its value: $out"
# A baseline has no value to give: the move alone.
out=$(printf 'hint\nquit\n' | "$QUAX" play --size 5 --player random) || fail "random hint: exit $?"
grep -qE '^black> hint: [a-e][1-5]$' <<<"$out" || fail "random hint: $out"
echo "ok"
