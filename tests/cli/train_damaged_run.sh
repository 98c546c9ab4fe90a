#!/usr/bin/env bash
# A run directory with damaged and stray files resumes and trains on: a shard with an
# out-of-range action and a truncated shard are skipped with a warning naming them and moved
# to selfplay/bad/, a stray models/model-best.pt is ignored (and left alone), and temporary
# files of killed writes are removed. Then --keep-shards prunes shards the window no longer
# holds, and `quax ladder` on the run ignores model-best.pt and removes temporaries too.
# Usage: train_damaged_run.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

source "$SRC/tests/cli/lib/tiny_run.sh"
tiny_run "$QUAX" "$DIR" 4 20 || fail "tiny training run"
R=$DIR/r
good=$(ls "$R"/selfplay/shard-*.qxs | head -1)

# The version-1 fixture (quax 4x4 with swap, this run's game) with its first action set to
# -32768: bytes 36-37 (16 bytes of header, 20 of the first game's). Unchecked, it crashed the
# learner with a segmentation fault.
bad_action="$R/selfplay/shard-9999999999990-x-000000.qxs"
cp "$SRC/tests/data/shards/v1-quax4.qxs" "$bad_action"
printf '\000\200' | dd of="$bad_action" bs=1 seek=36 conv=notrunc status=none
# A shard of this run cut short by five bytes.
truncated="$R/selfplay/shard-9999999999991-x-000000.qxs"
head -c $(($(stat -c %s "$good") - 5)) "$good" > "$truncated"
# A model someone copied beside the run's own.
cp "$R/model.pt" "$R/models/model-best.pt"
# Temporaries of writes by a process that is gone (no process has an id above pid_max).
dead=$(($(cat /proc/sys/kernel/pid_max) + 1))
temporaries=("$R/model.pt.tmp$dead" "$R/models/model-0000000030.pt.tmp$dead"
             "$R/checkpoints/ckpt-0000000030.pt.tmp$dead" "$R/selfplay/shard-9999999999992-x-000000.qxs.tmp$dead")
for t in "${temporaries[@]}"; do echo "half written" > "$t"; done

"$QUAX" train --config "$DIR/tiny.yaml" --run "$R" --resume --set run.max_steps=40 --quiet > "$DIR/resume.log" 2>&1 ||
  fail "resume failed (exit $?): $(cat "$DIR/resume.log")"
[ -f "$R/checkpoints/ckpt-0000000040.pt" ] || fail "no checkpoint at step 40: $(ls "$R/checkpoints")"
for f in "$bad_action" "$truncated"; do
  name=$(basename "$f")
  [ -e "$f" ] && fail "$name is still in selfplay/"
  [ -f "$R/selfplay/bad/$name" ] || fail "$name not moved to selfplay/bad/"
  [ "$(grep -c "warning: .*$name" "$DIR/resume.log")" -eq 1 ] ||
    fail "no single warning naming $name: $(cat "$DIR/resume.log")"
done
grep "$(basename "$bad_action")" "$DIR/resume.log" | grep -q "action -32768" || fail "warning does not say what is wrong"
grep "$(basename "$truncated")" "$DIR/resume.log" | grep -q "truncated" || fail "warning does not say truncated"
for t in "${temporaries[@]}"; do [ -e "$t" ] && fail "stale temporary $t was not removed"; done
[ -f "$R/models/model-best.pt" ] || fail "model-best.pt was removed"
echo "ok: resumed past two bad shards, a stray model and ${#temporaries[@]} stale temporaries"

# --keep-shards 1 with a window of 100 positions: the first run's shard, long out of the window,
# is deleted at a checkpoint; without the option (above) it stayed.
[ -f "$good" ] || fail "$good was deleted without --keep-shards"
"$QUAX" train --config "$DIR/tiny.yaml" --run "$R" --resume --set run.max_steps=60 --set replay.window_min=100 \
  --set replay.window_max=100 --keep-shards 1 --quiet > "$DIR/keep.log" 2>&1 ||
  fail "keep-shards run: $(cat "$DIR/keep.log")"
[ -e "$good" ] && fail "--keep-shards 1 kept $good: $(ls "$R/selfplay")"
ls "$R"/selfplay/shard-*.qxs > /dev/null 2>&1 || fail "--keep-shards 1 deleted every shard"
echo "ok: --keep-shards 1 left $(ls "$R"/selfplay/shard-*.qxs | wc -l) shards"

# The ladder rates the run's models (the first and the newest here), not model-best.pt, and
# removes what killed writes left.
echo "half written" > "$R/ladder.csv.tmp$dead"
out=$("$QUAX" ladder "$R" --sims 2 --games 1 --baselines random --every 1000 2>&1) || fail "ladder: $out"
grep -q "best" "$R/ladder.csv" && fail "ladder rated model-best.pt: $(cat "$R/ladder.csv")"
[ "$(grep -c ',model,' "$R/ladder.csv")" -eq 2 ] || fail "ladder did not rate two models: $(cat "$R/ladder.csv")"
[ -e "$R/ladder.csv.tmp$dead" ] && fail "ladder left the stale temporary"
echo "ok: ladder ignored model-best.pt and removed a stale temporary"
