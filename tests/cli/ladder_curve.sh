#!/bin/bash
# `quax ladder` on a tiny run: every published model and both baselines get a rating, the
# CSV/JSON hold them, the SVG draws one point and error bar per model with the baselines as
# labelled lines, and a second ladder adds games instead of replaying them.
# Usage: ladder_curve.sh <quax binary> <source dir>
set -u
QUAX=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

source "$2/tests/cli/lib/tiny_run.sh"
tiny_run "$QUAX" "$DIR" 4 30 || fail "tiny training run"
[ "$(ls "$DIR"/r/models/model-*.pt | wc -l)" -eq 4 ] || fail "expected models at steps 0, 10, 20, 30: $(ls "$DIR/r/models")"

out=$("$QUAX" ladder "$DIR/r" --sims 4 --games 2 --baselines random,uct:20) || fail "ladder: $out"
echo "$out"
# 4 models: 3 neighbour pairings, 8 against baselines, 1 between baselines; 2 games each.
echo "$out" | grep -q "ladder: 4 models and 2 baselines of quax 4x4 (swap), 24 games to play (0 already in" ||
  fail "summary line"
[ "$(wc -l < "$DIR/r/ladder.jsonl")" -eq 24 ] || fail "ladder.jsonl has $(wc -l < "$DIR/r/ladder.jsonl") games"

csv="$DIR/r/ladder.csv"
[ "$(head -1 "$csv")" = "player,kind,step,elo,ci95,games" ] || fail "csv header: $(head -1 "$csv")"
[ "$(wc -l < "$csv")" -eq 7 ] || fail "csv rows: $(cat "$csv")"
for step in 0 10 20 30; do
  name=$(printf 'models/model-%010d.pt:sims=4' "$step")
  row=$(grep "^$name,model,$step," "$csv") || fail "no row for step $step: $(cat "$csv")"
  games=${row##*,}
  # Two games against each baseline and two against each neighbour.
  want=$(( step == 0 || step == 30 ? 6 : 8 ))
  [ "$games" -eq "$want" ] || fail "step $step played $games games, expected $want"
  ci=$(echo "$row" | cut -d, -f5)
  awk -v c="$ci" 'BEGIN {exit !(c > 0)}' || fail "step $step has no interval: $row"
done
grep -q "^random,baseline,0,0.0,0.0,10$" "$csv" || fail "random is not the anchor with 10 games: $(cat "$csv")"
grep -q "^uct:20,baseline,0," "$csv" || fail "no uct:20 row"
/usr/bin/python3 -c "import json,sys; rows=json.load(open(sys.argv[1])); assert len(rows)==6 and rows[0]['step']==0" \
  "$DIR/r/ladder.json" || fail "ladder.json"

svg="$DIR/r/ladder.svg"
head -c 40 "$svg" | grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' || fail "not an SVG"
tail -1 "$svg" | grep -q '</svg>' || fail "SVG not closed"
[ "$(grep -o '<circle' "$svg" | wc -l)" -eq 4 ] || fail "expected 4 points"
[ "$(grep -o 'class="errorbar"' "$svg" | wc -l)" -eq 4 ] || fail "expected 4 error bars"
grep -q '>random (0)</text>' "$svg" || fail "no random reference line"
grep -q '>uct:20 (' "$svg" || fail "no uct:20 reference line"
grep -q '>training step</text>' "$svg" && grep -q '>Elo</text>' "$svg" || fail "axis labels"
for tick in 0 10 20 30; do grep -q "text-anchor=\"middle\">$tick</text>" "$svg" || fail "no x tick $tick"; done

# Again with the same settings: nothing to play. With --games 4: only the new games.
out=$("$QUAX" ladder "$DIR/r" --sims 4 --games 2 --baselines random,uct:20) || fail "second ladder"
echo "$out" | grep -q "0 games to play (24 already in" || fail "second ladder replayed games: $out"
out=$("$QUAX" ladder "$DIR/r" --sims 4 --games 4 --baselines random,uct:20) || fail "third ladder"
echo "$out" | grep -q "24 games to play (24 already in" || fail "third ladder: $out"
[ "$(wc -l < "$DIR/r/ladder.jsonl")" -eq 48 ] || fail "ladder.jsonl has $(wc -l < "$DIR/r/ladder.jsonl") games"
grep -q "^random,baseline,0,0.0,0.0,20$" "$csv" || fail "random after 4 games per pairing: $(cat "$csv")"

# Errors: one line, non-zero exit.
err=$("$QUAX" ladder "$DIR/none" 2>&1) && fail "ladder of a missing run succeeded"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "missing run: $err"
err=$("$QUAX" ladder "$DIR/r" --baselines random,bogus 2>&1) && fail "bogus baseline accepted"
[ "$err" = "quax ladder: --baselines: 'bogus' is not a baseline (random, uct:<n>, mcts:<n>)" ] || fail "bogus: $err"
echo "ok"
