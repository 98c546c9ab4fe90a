#!/bin/bash
# `quax arena` with the same player listed twice: it plays as two entrants, `<player>#1` and
# `<player>#2`, under those names in the results file and the summary; and the summary gives
# each player's wins by colour (won/played as black and as white), which add up to the wins
# of the pairing table.
# Usage: arena_same_player.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"

out=$("$QUAX" arena --size 5 --players uct:50,uct:50 --games 4 --threads 2 --results "$DIR/r.jsonl" 2> "$DIR/err") ||
  fail "uct:50 twice: exit $?: $(cat "$DIR/err")"
printf '%s\n' "$out" | grep -q "several entrants: uct:50#1, uct:50#2" || fail "no line naming the entrants: $out"
[ "$(wc -l < "$DIR/r.jsonl")" -eq 4 ] || fail "expected 4 games in the results file: $(cat "$DIR/r.jsonl")"
for e in 1 2; do
  [ "$(grep -c "\"black\":\"uct:50#$e\"" "$DIR/r.jsonl")" -eq 2 ] && [ "$(grep -c "\"white\":\"uct:50#$e\"" "$DIR/r.jsonl")" -eq 2 ] ||
    fail "uct:50#$e is not black in 2 games and white in 2: $(cat "$DIR/r.jsonl")"
done

# The pairing table: player, opponent, wins, losses, draws, score.
pair=$(printf '%s\n' "$out" | awk '$1 == "uct:50#1" && $2 == "uct:50#2" { print $3, $4, $5 }')
read -r wins1 wins2 draws <<< "$pair"
[ -n "$pair" ] && [ $((wins1 + wins2 + draws)) -eq 4 ] || fail "pairing table does not count 4 games: $out"

# The ratings table: player, elo, 95%, black won/played, white won/played.
colour_wins_total=0
for e in 1 2; do
  row=$(printf '%s\n' "$out" | awk -v p="uct:50#$e" '$1 == p && NF == 5 && $4 ~ /^[0-9]+\/[0-9]+$/ { print $4, $5 }')
  [ -n "$row" ] || fail "no ratings row with wins by colour for uct:50#$e: $out"
  read -r black white <<< "$row"
  [ "${black#*/}" -eq 2 ] && [ "${white#*/}" -eq 2 ] || fail "uct:50#$e: expected 2 games with each colour, got $black $white"
  want_black=$(grep "\"black\":\"uct:50#$e\"" "$DIR/r.jsonl" | grep -c '"result":"black"')
  want_white=$(grep "\"white\":\"uct:50#$e\"" "$DIR/r.jsonl" | grep -c '"result":"white"')
  [ "${black%/*}" -eq "$want_black" ] && [ "${white%/*}" -eq "$want_white" ] ||
    fail "uct:50#$e: summary says $black as black and $white as white, the results file $want_black and $want_white wins"
  wins=$([ $e -eq 1 ] && echo "$wins1" || echo "$wins2")
  [ $((${black%/*} + ${white%/*})) -eq "$wins" ] || fail "uct:50#$e: wins by colour $black + $white are not its $wins wins"
  colour_wins_total=$((colour_wins_total + ${black%/*} + ${white%/*}))
done
[ $((colour_wins_total + draws)) -eq 4 ] || fail "wins by colour and draws do not add up to the 4 games: $out"

# An anchor that is not an entrant: one line listing the entrants.
expect_one_line_error "(uct:50#1, uct:50#2)" "$QUAX" arena --size 5 --players uct:50,uct:50 --games 2 \
  --anchor uct:50 --results "$DIR/a.jsonl"
echo "ok"
