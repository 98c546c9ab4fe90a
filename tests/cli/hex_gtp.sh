#!/bin/bash
# `quax gtp` on the hexagonal boards: the server's notation (triangle columns along the base,
# rows from the apex; off-board cells refused with the reason), swap (mirror on the rhombus,
# recolour on the triangle), the diagrams, and short random games that end with one winner.
# Usage: hex_gtp.sh <quax binary> <source dir>
set -u
QUAX=$1
fail() { echo "FAIL: $*"; exit 1; }

SP=' '  # an empty answer is "= " with its space
# Answers of a scripted session, one per line (multi-line answers joined with '|').
session() {
  "$QUAX" gtp "$@" | awk 'BEGIN { RS = ""; FS = "\n" } { line = $1; for (i = 2; i <= NF; ++i) line = line "|" $i; print line }'
}

out=$(printf '%s\n' "variant" "boardsize" "play black b1" "play black c3" "play white swap" \
  "list_stones white" "list_stones black" "to_move" "play black c3" "play black a9" "play black b2" "legal_moves" \
  | session --variant quady --size 5 --player random --seed 1) || fail "quady session exited with $?"
expected="= quady
= 5
? 'b1' is off the triangle (row 1 has columns a..a)
=${SP}
=${SP}
= c3
=${SP}
= black
? illegal move: c3 is occupied
? 'a9' is off the triangle of side 5
=${SP}
= a1 a2 a3 b3 a4 b4 c4 d4 a5 b5 c5 d5 e5"
[ "$out" = "$expected" ] || fail "quady session:
$out
--- expected:
$expected"

# The rhombus mirrors the swapped stone: black c2 becomes white b3.
out=$(printf '%s\n' "play black c2" "play white swap" "list_stones white" "showboard" \
  | session --variant hex --size 4 --player random --seed 1) || fail "hex session exited with $?"
case "$out" in *"= b3"*) ;; *) fail "hex swap: $out";; esac
case "$out" in *" 3 . H . . 3|"*) ;; *) fail "hex diagram: $out";; esac

# Random games to the end in one engine (each process start loads LibTorch): per board,
# the commands that get there (a variant change keeps the size, so the order matters), then
# genmove for both colours until the game is over, winner and showboard.
boards=("hex 5" "y 5" "quady 9" "quady2 9" "quadhex 6")
setups=("" "variant y" "boardsize 9|variant quady" "variant quady2" "variant hex|boardsize 6|variant quadhex")
script=""
for i in "${!boards[@]}"; do
  IFS='|' read -r -a cmds <<< "${setups[$i]}"
  for c in "${cmds[@]}"; do script="$script$c"$'\n'; done
  script="$script"$'variant\nboardsize\n'
  for _ in $(seq 1 45); do script="$script"$'genmove black\ngenmove white\n'; done
  script="$script"$'winner\nshowboard\n'
done
out=$(printf '%s' "$script" | session --variant hex --size 5 --player random --seed 3) \
  || fail "random games: gtp exited with $?"
line=0
answer() { line=$((line + 1)); REPLY_TEXT=$(echo "$out" | sed -n "${line}p"); }
for i in "${!boards[@]}"; do
  set -- ${boards[$i]}
  IFS='|' read -r -a cmds <<< "${setups[$i]}"
  for c in "${cmds[@]}"; do answer; [ "$REPLY_TEXT" = "= " ] || fail "$c: $REPLY_TEXT"; done
  answer; [ "$REPLY_TEXT" = "= $1" ] || fail "variant is '$REPLY_TEXT', not $1"
  answer; [ "$REPLY_TEXT" = "= $2" ] || fail "boardsize is '$REPLY_TEXT', not $2"
  line=$((line + 90))
  answer; winner=${REPLY_TEXT#= }
  case "$winner" in black|white) ;; *) fail "$1 $2: winner answered '$REPLY_TEXT'";; esac
  answer
  case "$REPLY_TEXT" in *"$winner wins") ;; *) fail "$1 $2: showboard does not say $winner won: $REPLY_TEXT";; esac
  echo "$1 $2: $winner wins"
done
echo "ok"
