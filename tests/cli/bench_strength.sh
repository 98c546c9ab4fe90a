#!/usr/bin/env bash
# `quax bench strength` on a tiny quax 4x4 run: it keeps a model at every mark of training
# time, scores each against the opponents with exactly the games asked for (colour-balanced),
# writes the CSV/SVG/JSON per opponent, and a later --evaluate-only plays only the games still
# missing. Usage: bench_strength.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$DIR/tiny.yaml" <<'YAML'
game: {variant: quax, size: 4}
net: {blocks: 1, filters: 8, policy_channels: 4, value_channels: 4, value_hidden: 8}
search: {simulations: 8}
selfplay: {parallel_games: 16, games_per_shard: 16}
replay: {min_positions: 100, window_min: 500}
learn: {batch_size: 32, lr_warmup_steps: 1, publish_every: 10, checkpoint_every: 50}
YAML
"$QUAX" bench strength --config "$DIR/tiny.yaml" --run "$DIR/r" --minutes 0.3 --every 0.1 --games 4 --sims 8 \
  --opponent random --opponent uct:20 --target 0.5 --target 0.99 > "$DIR/out.txt" 2>&1 ||
  fail "bench strength failed: $(tail -5 "$DIR/out.txt")"

# Marks at 6, 12 and 18 seconds of training.
ls "$DIR/r/snapshots" | grep -c '^model-00000[01][0-9]s\.pt$' | grep -qx 3 || fail "snapshots: $(ls "$DIR/r/snapshots")"
for tag in random uct_20; do
  for ext in csv svg json jsonl; do [ -s "$DIR/r/strength-$tag.$ext" ] || fail "no strength-$tag.$ext"; done
  rows=$(tail -n +2 "$DIR/r/strength-$tag.csv")
  [ "$(echo "$rows" | wc -l)" = 3 ] || fail "$tag: not 3 rows: $rows"
  # Every row: 4 games, wins + draws + losses = 4.
  echo "$rows" | awk -F, '$3 != 4 || $4 + $5 + $6 != 4 {exit 1}' || fail "$tag: games per row: $rows"
  [ "$(wc -l < "$DIR/r/strength-$tag.jsonl")" = 12 ] || fail "$tag: not 12 games recorded"
  # Colour balance: each kept model had black in exactly 2 of its 4 games.
  for m in 0.1min 0.2min 0.3min; do
    [ "$(grep -c "\"black\":\"$m\"" "$DIR/r/strength-$tag.jsonl")" = 2 ] || fail "$tag $m: not 2 games as black"
  done
done
grep -q "^target 99% against uct:20 \(not reached\|reached after\)" "$DIR/out.txt" || fail "no verdict: $(cat "$DIR/out.txt")"

# Asking again plays nothing; asking for 6 games plays 2 more per model.
"$QUAX" bench strength --run "$DIR/r" --evaluate-only --minutes 0.3 --games 4 --sims 8 --opponent random > /dev/null
[ "$(wc -l < "$DIR/r/strength-random.jsonl")" = 12 ] || fail "a repeated evaluation played games again"
"$QUAX" bench strength --run "$DIR/r" --evaluate-only --minutes 0.3 --games 6 --sims 8 --opponent random > /dev/null
[ "$(wc -l < "$DIR/r/strength-random.jsonl")" = 18 ] || fail "not 2 more games per model"
tail -n +2 "$DIR/r/strength-random.csv" | awk -F, '$3 != 6 {exit 1}' || fail "rows do not show 6 games"
# --at evaluates one kept model only.
"$QUAX" bench strength --run "$DIR/r" --evaluate-only --at 0.2 --games 8 --sims 8 --opponent random > /dev/null
[ "$(wc -l < "$DIR/r/strength-random.jsonl")" = 20 ] || fail "--at 0.2 did not play 2 more games"
[ "$(tail -n +2 "$DIR/r/strength-random.csv")" = "$(tail -n +2 "$DIR/r/strength-random.csv" | grep '^0.2,')" ] &&
  [ "$(tail -n +2 "$DIR/r/strength-random.csv" | wc -l)" = 1 ] || fail "--at 0.2: $(cat "$DIR/r/strength-random.csv")"
# An --at that matches no kept model is refused with one line naming the kept ones (it used to
# evaluate nothing and say only that the target was not reached), and so is one past --minutes.
out=$("$QUAX" bench strength --run "$DIR/r" --evaluate-only --at 0.25 --games 8 --sims 8 --opponent random 2>&1) &&
  fail "accepted --at 0.25"
[ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q -- "--at 0.25: no model kept .*(kept at 0.1, 0.2, 0.3 minutes)" ||
  fail "--at 0.25: $out"
out=$("$QUAX" bench strength --run "$DIR/r" --evaluate-only --at 0.3 --minutes 0.2 --games 8 --sims 8 \
  --opponent random 2>&1) && fail "accepted --at 0.3 past --minutes 0.2"
echo "$out" | grep -q -- "--at 0.3: no model kept at 0.3 minutes of training up to --minutes 0.2" || fail "--at 0.3: $out"
[ "$(wc -l < "$DIR/r/strength-random.jsonl")" = 20 ] || fail "a refused --at played games"

# A program over GTP as one more opponent (`quax gtp` itself: a real program speaking the
# protocol): games without the pie rule, one after another, each pair (one game with each colour)
# from its own first move, the same first moves for every kept model, each side's seconds a move
# in the games, the CSV and the JSON. The program searches 2,000 simulations a move: at 20 it
# answered in 0.05 ms, and a game's seconds, written to the millisecond, were 0 on a fast CPU.
"$QUAX" bench strength --run "$DIR/r" --evaluate-only --minutes 0.3 --games 4 --sims 8 \
  --opponent-gtp "'$QUAX' gtp --player uct:2000 --seed 5" --opponent-gtp-setup "variant quax 4; pie off" \
  --opponent-gtp-name uct20 > "$DIR/gtp.txt" 2>&1 || fail "against a GTP program: $(tail -3 "$DIR/gtp.txt")"
games="$DIR/r/strength-gtp_uct20.jsonl"
[ "$(wc -l < "$games")" = 12 ] || fail "not 12 games against the GTP program: $(cat "$DIR/gtp.txt")"
[ "$(grep -c '"swap":false' "$games")" = 12 ] || fail "games against the GTP program with the pie rule"
[ "$(grep -c '"white_moves":[1-9]' "$games")" = 12 ] || fail "games without their seconds a move"
python3 - "$games" <<'PY' || fail "openings"
import json, sys
games = [json.loads(line) for line in open(sys.argv[1])]
by_model = {}
for g in games:
    model = g["black"] if g["white"] == "gtp:uct20" else g["white"]
    by_model.setdefault(model, []).append(g)
firsts = None
for model, gs in by_model.items():
    assert len(gs) == 4, (model, len(gs))
    assert [g["black"] == model for g in gs] == [True, False, True, False], model  # colours alternate
    first = [g["record"].split()[0] for g in gs]
    assert first[0] == first[1] and first[2] == first[3] and first[0] != first[2], first  # a first move per pair
    assert firsts in (None, first), (firsts, first)  # every model meets the same first moves
    firsts = first
PY
tail -n +2 "$DIR/r/strength-gtp_uct20.csv" | awk -F, '$3 != 4 || $12 <= 0 {exit 1}' ||
  fail "CSV rows: $(cat "$DIR/r/strength-gtp_uct20.csv")"
grep -q '"program": "quax ' "$DIR/r/strength-gtp_uct20.json" || fail "the JSON does not name the program"

# A program that does not start, or refuses its setup, is refused at once with one line.
out=$("$QUAX" bench strength --run "$DIR/r" --evaluate-only --opponent-gtp "$DIR/no-such-engine" 2>&1) &&
  fail "accepted a missing program"
[ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q "exited with status 127" || fail "missing program: $out"
out=$("$QUAX" bench strength --run "$DIR/r" --evaluate-only --opponent-gtp "'$QUAX' gtp" \
  --opponent-gtp-setup "variant nosuchgame" 2>&1) && fail "accepted a refused setup"
[ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q "'variant nosuchgame' refused" || fail "refused setup: $out"

# Mismatched targets are refused with one line.
out=$("$QUAX" bench strength --run "$DIR/r" --evaluate-only --opponent random --opponent uct:5 --target 0.1 \
  --target 0.2 --target 0.3 2>&1) && fail "accepted three targets for two opponents"
[ "$(echo "$out" | wc -l)" = 1 ] || fail "not one line: $out"
echo "ok"
