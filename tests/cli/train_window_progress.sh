#!/bin/bash
# `quax train` while the replay window fills (issue 29): from the first progress line the run
# says what it waits for ("filling the window: N / 1,000,000 positions before the learner
# starts"), the positions grow with the games (they were counted only when a shard was
# written: "games 300 | positions 0"), and a run whose time limit ends before the window is
# full says so.
# Usage: train_window_progress.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A window that cannot fill in the run's 9 seconds; a shard only every 10,000 games.
cat > "$DIR/fill.yaml" <<'YAML'
game: {variant: quax, size: 4}
net: {blocks: 1, filters: 8, policy_channels: 4, value_channels: 4, value_hidden: 8}
search: {simulations: 8}
selfplay: {parallel_games: 16, games_per_shard: 10000}
replay: {min_positions: 1000000, window_min: 2000000, window_max: 3000000}
run: {max_minutes: 0.15, progress_seconds: 2}
YAML
out=$("$QUAX" train --config "$DIR/fill.yaml" --run "$DIR/r" 2> "$DIR/err") || fail "train: exit $?: $(cat "$DIR/err")"
lines=$(printf '%s\n' "$out" | grep '^\[[0-9]*m[0-9]*s\]')
[ "$(printf '%s\n' "$lines" | grep -c .)" -ge 2 ] || fail "fewer than two progress lines: $out"
first=$(printf '%s\n' "$lines" | head -n 1)
printf '%s\n' "$first" | grep -qE "filling the window: [0-9,]+ / 1,000,000 positions before the learner starts" ||
  fail "the first progress line does not say the run fills its window: $first"
printf '%s\n' "$lines" | grep -q "step 0 loss" && fail "a line shows a step while the window fills: $lines"
# Every line with finished games shows their positions.
printf '%s\n' "$lines" | awk '{ g = ""; p = ""
                                for (i = 1; i < NF; ++i) {  # the first "games N" and "positions N" of the line
                                  if ($i == "games" && g == "") g = $(i + 1)
                                  if ($i == "positions" && p == "") p = $(i + 1)
                                }
                                if (g + 0 > 0 && p == "0") bad = 1 } END { exit bad }' ||
  fail "games finished but positions 0: $lines"
printf '%s\n' "$lines" | grep -qE "games [1-9]" || fail "no game finished in the run: $lines"
# Once games finish: the time to fill at the observed rate, beyond what the run has left.
printf '%s\n' "$lines" | grep -qE "about [0-9hm]+[0-9]+[ms] (\(at the search rate\) )?\(more than the [0-9m]+[0-9]+s this run has left: raise run.max_minutes\)" ||
  fail "no line says the window fills after the run's limit: $lines"
echo "ok"
