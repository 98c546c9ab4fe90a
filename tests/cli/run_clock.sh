#!/usr/bin/env bash
# One clock for a run's records: a tiny run with gating games after every published model is
# stopped and resumed; every record's time_s (learn, gating, snapshot, learn_end, selfplay)
# must follow the learn records' clock: never decreasing in the file's order within each
# process's records, the resumed half starting where the first half ended. (Gating records
# once added the checkpoint's time to the time since the start: a 121-second run's gating
# record at step 1820 said 222.3 s, the learn record at that step 112.2 s.)
# Usage: run_clock.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$DIR/clock.yaml" <<YAML
game: {variant: quax, size: 4}
net: {blocks: 1, filters: 8, policy_channels: 4, value_channels: 4, value_hidden: 8}
search: {simulations: 8}
selfplay: {parallel_games: 16, games_per_shard: 16}
replay: {min_positions: 100, window_min: 500}
learn: {batch_size: 32, lr_warmup_steps: 1, publish_every: 10, checkpoint_every: 10}
gating: {games: 2, opponent: random, simulations: 4}
run: {max_steps: 40, max_minutes: 2, metrics_every: 5, progress_seconds: 1}
YAML
"$QUAX" train --config "$DIR/clock.yaml" --run "$DIR/r" --quiet
lines_first=$(wc -l < "$DIR/r/metrics.jsonl")
"$QUAX" train --config "$DIR/clock.yaml" --run "$DIR/r" --resume --quiet --set run.max_steps=80

/usr/bin/python3 - "$DIR/r/metrics.jsonl" "$lines_first" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
first = int(sys.argv[2])
def fail(message):
    print("FAIL: " + message)
    sys.exit(1)
learner_kinds = {"learn", "gating", "snapshot", "publish_refused", "nonfinite_stop", "learn_end"}
for kind in ("learn", "gating", "learn_end"):
    if sum(r["kind"] == kind for r in records) < 2:
        fail("fewer than two %s records (one per invocation at least): %s" % (kind, sorted({r["kind"] for r in records})))
for name, part in (("first", records[:first]), ("resumed", records[first:])):
    for kinds in (learner_kinds, {"selfplay", "selfplay_end"}):
        times = [(r["kind"], r.get("step"), r["time_s"]) for r in part if r["kind"] in kinds]
        for a, b in zip(times, times[1:]):
            if b[2] < a[2] - 1e-6:
                fail("%s invocation: %s record (step %s) at %.3f s after %s record (step %s) at %.3f s"
                     % (name, b[0], b[1], b[2], a[0], a[1], a[2]))
# Each gating record lies between the learn records around its step.
learn = [r for r in records if r["kind"] == "learn"]
for g in (r for r in records if r["kind"] == "gating"):
    later = [r["time_s"] for r in learn if r["step"] > g["step"]]
    if later and g["time_s"] > min(later) + 1e-6:
        fail("gating record of step %d at %.3f s, after the learn record of a later step at %.3f s"
             % (g["step"], g["time_s"], min(later)))
# The resumed invocation goes on from the first one's training time.
end_first = [r["time_s"] for r in records[:first] if r["kind"] == "learn_end"][-1]
resumed = [r["time_s"] for r in records[first:] if r["kind"] in learner_kinds | {"selfplay"}]
if min(resumed) < end_first - 1e-6:
    fail("the resumed invocation's records start at %.3f s, before the first one ended (%.3f s)" % (min(resumed), end_first))
total = [r["time_s"] for r in records if r["kind"] == "learn_end"][-1]
print("ok: %d records, %d gating; first invocation ended at %.1f s, the run at %.1f s" %
      (len(records), sum(r["kind"] == "gating" for r in records), end_first, total))
PY
