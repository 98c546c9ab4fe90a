#!/usr/bin/env bash
# The learner state kept for each shipped model's run (checkpoints/learner/<run>/: its
# config.yaml and its newest checkpoint) must resume on a fresh clone exactly as
# checkpoints/README.md says: copied under runs/, `quax train --config runs/<run>/config.yaml
# --resume` continues from the kept step and trains on (the replay window refills first).
# The worked examples' runs (examples/learner/<run>/, docs/VARIANTS.md) resume the same way; their
# config.yaml names its rules file as ../../examples/variants/<file>, read from runs/<run>/.
# Usage: resume_shipped_runs.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$(realpath "$1")
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# resume <kept state>: checks it and resumes its copy under $WORK/runs/ a few steps past its newest
# checkpoint, as `quax train --config runs/<run>/config.yaml --resume` from the repository's root.
resume() {
  local kept=$1 name
  name=$(basename "$kept")
  [ -f "$kept/config.yaml" ] || fail "$name: no config.yaml"
  grep -q "^  dir: runs/$name\$" "$kept/config.yaml" || fail "$name: config.yaml's run.dir is not runs/$name"
  ckpt=$(ls "$kept"/checkpoints/ckpt-*.pt | sort | tail -1)
  step=$((10#$(basename "$ckpt" .pt | sed 's/ckpt-//')))
  mkdir -p "$WORK/runs" && cp -r "$kept" "$WORK/runs/"
  # A few learner steps past the kept one; a small window so the test does not wait for a full one,
  # few games in flight so that the first end soon on large boards (with the default 48 a
  # loaded machine once took over 4 minutes to finish crossway 13x13 games), 16 simulations a
  # move (with 64, a loaded machine once took over 4 minutes to finish 8 crossway 19x19 games),
  # and shards of 4 games (the window grows a shard at a time: with 32, 37 quady2 games at side
  # 17 in 4 minutes on a loaded machine had not finished one).
  out=$(cd "$WORK" && "$QUAX" train --config "runs/$name/config.yaml" --resume \
          --set run.max_steps=$((step + 4)) --set run.max_minutes=4 --set replay.min_positions=300 \
          --set run.progress_seconds=1 --set selfplay.parallel_games=8 --set search.simulations=16 \
          --set selfplay.games_per_shard=4 2>&1) \
    || fail "$name: resume failed: $(echo "$out" | tail -3)"
  # The shards stayed behind: the run says at once that the window refills, not that it holds
  # the count the checkpoint restored (stymie 8x8 once refilled before the first progress line).
  grep -qE "filling the window: [0-9,]+ / 300 positions before the learner starts" <<< "$out" ||
    fail "$name: the run did not say the window refills: $(echo "$out" | sed -n 2,3p)"
  grep -q "resumed from .*ckpt-0*$step.pt at step $step" <<< "$out" || fail "$name: did not resume at step $step: $(head -3 <<< "$out")"
  ls "$WORK/runs/$name/checkpoints/ckpt-$(printf %010d $((step + 4))).pt" > /dev/null \
    || fail "$name: no checkpoint at step $((step + 4)): $(echo "$out" | tail -3)"
  echo "$name: resumed at step $step and trained to $((step + 4))"
}

runs=$(find "$SRC/checkpoints/learner" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort)
[ -n "$runs" ] || fail "no run under checkpoints/learner"
for kept in $runs; do
  grep -q "\`checkpoints/learner/$(basename "$kept")/\`" "$SRC/checkpoints/README.md" ||
    fail "$(basename "$kept"): not described in checkpoints/README.md"
  resume "$kept"
done

ln -s "$(realpath "$SRC")/examples" "$WORK/examples"  # the rules files, where the runs' configs read them
examples=$(find "$SRC/examples/learner" -mindepth 1 -maxdepth 1 -type d | sort)
[ "$(wc -l <<< "$examples")" -eq 3 ] || fail "not three runs under examples/learner: $examples"
for kept in $examples; do
  grep -q "\`examples/learner/$(basename "$kept")/\`" "$SRC/docs/VARIANTS.md" ||
    fail "$(basename "$kept"): not described in docs/VARIANTS.md"
  resume "$kept"
done
