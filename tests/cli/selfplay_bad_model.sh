#!/bin/bash
# `quax selfplay` (a process of its own) keeps playing with its last good model when a newer
# file in <run>/models cannot be used (here: NaN outputs), with one warning naming the file.
# It used to take the file and hang, or stop. Usage: selfplay_bad_model.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL $pid 2>/dev/null && wait $pid 2>/dev/null; rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

source "$SRC/tests/cli/lib/nan_model.sh"
nan_model "$SRC/checkpoints/quax-5.pt" "$DIR/nan.pt" || { echo "python3 is needed to write the NaN model"; exit 77; }
ulimit -v 8000000

RUN=$DIR/r
mkdir -p "$RUN/models"
cat > "$RUN/config.yaml" <<'YAML'
game: {variant: quax, size: 5}
search: {simulations: 8}
selfplay: {parallel_games: 8, games_per_shard: 16}
run: {progress_seconds: 1}
YAML
cp "$SRC/checkpoints/quax-5.pt" "$RUN/models/model-0000000010.pt"
shards() { ls "$RUN/selfplay" 2>/dev/null | grep -c '^shard-.*\.qxs$'; }
more_shards_than() { [ "$(shards)" -gt "$1" ]; }
wait_for() {  # wait_for SECONDS COMMAND...: true once COMMAND succeeds
  local end=$((SECONDS + $1)); shift
  until "$@"; do [ $SECONDS -lt $end ] || return 1; sleep 0.2; done
}

timeout -s KILL 120 "$QUAX" selfplay --run "$RUN" > "$DIR/log" 2>&1 &
pid=$!
wait_for 30 more_shards_than 0 || fail "no games with the good model: $(cat "$DIR/log")"
mv "$DIR/nan.pt" "$RUN/models/model-0000000020.pt"
wait_for 20 grep -q "model-0000000020.pt" "$DIR/log" || fail "no warning about the NaN model: $(cat "$DIR/log")"
kill -0 $pid 2>/dev/null || fail "self-play stopped: $(cat "$DIR/log")"
before=$(shards)
wait_for 30 more_shards_than "$before" || fail "no games after the NaN model appeared: $(cat "$DIR/log")"
kill -INT $pid
wait $pid
rc=$?
pid=
[ $rc -eq 0 ] || fail "exit code $rc after SIGINT: $(cat "$DIR/log")"
warnings=$(grep -c "model-0000000020.pt" "$DIR/log")
[ "$warnings" -eq 1 ] || fail "$warnings lines about the NaN model: $(cat "$DIR/log")"
grep "model-0000000020.pt" "$DIR/log" | grep -q "^warning: self-play keeps the model .*model-0000000010.pt: .*non-finite outputs" ||
  fail "bad warning: $(grep model-0000000020 "$DIR/log")"
echo "ok: $(shards) shards, the NaN model passed over"
