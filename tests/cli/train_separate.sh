#!/usr/bin/env bash
# Self-play and learner as two processes on one run directory: `quax learn` starts the run
# and publishes models, `quax selfplay` picks them up and writes shards the learner trains on.
# Usage: train_separate.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$1
RUN=$(mktemp -d)
trap 'rm -rf "$RUN"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$RUN/c.yaml" <<'YAML'
game: {variant: quax, size: 4}
net: {blocks: 1, filters: 16, policy_channels: 8, value_channels: 8, value_hidden: 16}
search: {simulations: 16}
selfplay: {parallel_games: 32, games_per_shard: 16}
replay: {min_positions: 300, window_min: 2000}
learn: {batch_size: 64, publish_every: 10, checkpoint_every: 40}
run: {max_steps: 80, max_minutes: 1, progress_seconds: 2}
YAML
out=$("$QUAX" selfplay --run "$RUN/r" 2>&1) && fail "self-play started without a run directory"
echo "$out" | grep -q "is not a run directory (no config.yaml)" || fail "bad message: $out"

"$QUAX" learn --config "$RUN/c.yaml" --run "$RUN/r" > "$RUN/learn.log" 2>&1 &
learn=$!
for _ in $(seq 1 100); do [ -f "$RUN/r/config.yaml" ] && break; sleep 0.1; done
"$QUAX" selfplay --run "$RUN/r" --set run.max_games=1500 > "$RUN/selfplay.log" 2>&1 &
selfplay=$!
wait $learn || fail "learner failed: $(cat "$RUN/learn.log")"
kill -INT $selfplay 2>/dev/null || true
wait $selfplay || true
grep -q "stopped at step 80" "$RUN/learn.log" || fail "learner did not reach step 80: $(cat "$RUN/learn.log")"
ls "$RUN"/r/selfplay/shard-*.qxs > /dev/null || fail "no shards"
ls "$RUN/r/models/model-0000000080.pt" "$RUN/r/model.pt" > /dev/null || fail "no final model"
grep -q '"kind":"selfplay"' "$RUN/r/metrics.jsonl" || fail "no self-play metrics"
echo "ok: $(ls "$RUN"/r/selfplay | wc -l) shards, learner at step 80"
