#!/usr/bin/env bash
# A short training run on quax 4x4: it must write shards, models, checkpoints and metrics
# with a falling loss; SIGINT must leave a checkpoint that --resume continues from; a
# config error must name the key. Usage: train_smoke.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$1
SRC=$2
RUN=$(mktemp -d)
trap 'rm -rf "$RUN"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$RUN/smoke.yaml" <<'YAML'
game: {variant: quax, size: 4}
net: {blocks: 1, filters: 16, policy_channels: 8, value_channels: 8, value_hidden: 16}
search: {simulations: 16}
selfplay: {parallel_games: 32, games_per_shard: 16}
replay: {min_positions: 300, window_min: 2000}
learn: {batch_size: 64, lr: 0.02, lr_warmup_steps: 10, publish_every: 10, checkpoint_every: 40, metrics_every: 5}
run: {max_steps: 240, max_minutes: 1, progress_seconds: 5}
YAML
# metrics_every lives in run:, so the line above must be refused naming it.
out=$("$QUAX" train --config "$RUN/smoke.yaml" --run "$RUN/r" 2>&1) && fail "accepted learn.metrics_every"
grep -q "smoke.yaml:6: unknown key 'learn.metrics_every'" <<< "$out" || fail "bad message: $out"
sed -i 's/, metrics_every: 5}/}/; s/progress_seconds: 5}/progress_seconds: 5, metrics_every: 5}/' "$RUN/smoke.yaml"

"$QUAX" train --config "$RUN/smoke.yaml" --run "$RUN/r" --quiet
ls "$RUN"/r/selfplay/shard-*.qxs > /dev/null || fail "no shards"
ls "$RUN"/r/models/model-*.pt > /dev/null || fail "no models"
ls "$RUN"/r/checkpoints/ckpt-0000000240.pt > /dev/null || fail "no checkpoint at step 240"
lines=$(grep -c '"kind":"learn"' "$RUN/r/metrics.jsonl")
[ "$lines" -ge 20 ] || fail "only $lines metrics lines"
# Mean loss of the first three metrics lines against the last ten: one line is the mean of
# five batches, and its noise (about 0.05) is averaged down over ten; the fall measured on an AMD
# EPYC (fp32, and bf16 self-play) is 0.23-0.40, so a fall under 0.1 means no learning.
losses=$(grep -o '"loss":[0-9.e+-]*' "$RUN/r/metrics.jsonl" | cut -d: -f2)
# (Here-strings, not `echo | head`: under pipefail, head leaving early can kill echo with
# SIGPIPE and stop the script without a word.)
first=$(head -3 <<< "$losses" | awk '{s+=$1} END {print s/NR}')
last=$(tail -10 <<< "$losses" | awk '{s+=$1} END {print s/NR}')
awk -v a="$first" -v b="$last" 'BEGIN {exit !(b < a - 0.1)}' ||
  fail "loss did not fall: $first -> $last (every line: $(echo $losses))"
echo "loss $first -> $last"

# A warm start (run.init_from): a 5x5 run from the 4x4 run's checkpoint; a hex run from it is
# refused in one line naming a tensor of another shape.
ckpt="$RUN/r/checkpoints/ckpt-0000000240.pt"
"$QUAX" train --config "$RUN/smoke.yaml" --run "$RUN/w" --set game.size=5 --set run.max_steps=20 \
  --set run.init_from="$ckpt" > "$RUN/warm.log" 2>&1 || fail "warm start failed: $(cat "$RUN/warm.log")"
grep -q "initialised from $ckpt (quax 4x4 checkpoint, step 240)" "$RUN/warm.log" || fail "no warm start: $(cat "$RUN/warm.log")"
out=$("$QUAX" train --config "$RUN/smoke.yaml" --run "$RUN/h" --set game.variant=hex --set run.init_from="$ckpt" 2>&1) &&
  fail "a hex run started from a quax checkpoint"
[ "$(echo "$out" | wc -l)" -eq 1 ] && grep -q "cannot start from '$ckpt' (quax 4x4 checkpoint, step 240): tensor" <<< "$out" ||
  fail "bad message: $out"
echo "ok: warm start"

# A second start without --resume is refused; with it the run continues from step 240.
"$QUAX" train --config "$RUN/smoke.yaml" --run "$RUN/r" --quiet 2>/dev/null && fail "reused a run directory"
"$QUAX" train --config "$RUN/smoke.yaml" --run "$RUN/r" --resume --set run.max_steps=0 > "$RUN/resume.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  grep -qE "\| step (2[5-9][0-9]|[3-9][0-9]{2}|[0-9]{4,}) loss" "$RUN/resume.log" 2>/dev/null && break
  sleep 0.2
done
kill -INT $pid
wait $pid || fail "interrupted run exited with an error: $(cat "$RUN/resume.log")"
grep -q "resumed from .*ckpt-0000000240.pt at step 240" "$RUN/resume.log" || fail "did not resume: $(cat "$RUN/resume.log")"
stopped=$(grep -o "stopped at step [0-9]*" "$RUN/resume.log" | grep -o "[0-9]*$")
[ "$stopped" -gt 240 ] || fail "no progress after resume"
ls "$RUN/r/checkpoints/ckpt-$(printf %010d "$stopped").pt" > /dev/null || fail "no checkpoint at the interruption"
echo "ok: resumed at 240, interrupted at $stopped"

