#!/bin/bash
# --device on every command that runs a network, and the learn.device / selfplay.device keys:
# a value of another form and a GPU this machine lacks are one line naming the door; cpu and
# auto play (auto is the CPU where LibTorch sees no GPU). cuda:1023 is missing on any machine.
# Usage: device_option.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
. "$SRC/tests/cli/lib/one_line_error.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
MODEL=$SRC/checkpoints/quax-5.pt

bad="--device: expected cpu, cuda, cuda:N or auto, got 'gpu'"
missing="--device cuda:1023: "
for cmd in "play --size 5" "gtp --size 5" "arena --size 5 --players random,uct:10 --games 2 --results $TMP/a.jsonl" \
           "ladder $TMP/none" "serve --port 0" "bench net --no-selfplay" "bench strength --evaluate-only --run $TMP/none"; do
  name=${cmd%% -*}
  name=${name%% $TMP*}
  # shellcheck disable=SC2086
  expect_one_line_error "quax $name: $bad" "$QUAX" $cmd --device gpu </dev/null
  # shellcheck disable=SC2086
  expect_one_line_error "quax $name: $missing" "$QUAX" $cmd --device cuda:1023 </dev/null
done
expect_one_line_error "quax gtp: --device: expected cpu, cuda, cuda:N or auto, got 'cuda:01'" \
  "$QUAX" gtp --device cuda:01 </dev/null

# cpu and auto play, with a model.
for d in cpu auto; do
  out=$(printf 'genmove black\nquit\n' | "$QUAX" gtp --model "$MODEL" --size 5 --sims 16 --device $d 2>&1) ||
    fail "gtp --device $d: $out"
  case "$out" in "= "[a-e][1-5]*) ;; *) fail "gtp --device $d answered '$out'";; esac
done
"$QUAX" arena --size 5 --players "$MODEL:sims=8,random" --games 2 --results "$TMP/arena.jsonl" --device cpu \
  >"$TMP/arena.out" 2>&1 || fail "arena --device cpu: $(cat "$TMP/arena.out")"
[ "$(wc -l <"$TMP/arena.jsonl")" -eq 2 ] || fail "arena --device cpu: results $(cat "$TMP/arena.jsonl")"
out=$(printf 'quit\n' | "$QUAX" play --model "$MODEL" --size 5 --device cpu 2>&1) || fail "play --device cpu: $out"

# The config keys: a bad value is the config's error, a missing GPU the run's, before it starts.
printf 'game: {variant: quax, size: 5}\n' > "$TMP/c.yaml"
expect_one_line_error "bad value for 'learn.device': expected cpu, cuda, cuda:N or auto, got 'gpu'" \
  "$QUAX" train --config "$TMP/c.yaml" --run "$TMP/r1" --set learn.device=gpu
expect_one_line_error "learn.device cuda:1023: " \
  "$QUAX" train --config "$TMP/c.yaml" --run "$TMP/r2" --set learn.device=cuda:1023
expect_one_line_error "selfplay.device cuda:1023: " \
  "$QUAX" train --config "$TMP/c.yaml" --run "$TMP/r3" --set selfplay.device=cuda:1023
[ ! -e "$TMP/r2" ] && [ ! -e "$TMP/r3" ] || fail "a run refused for its device left a run directory"
"$QUAX" train --config "$TMP/c.yaml" --print-config --set learn.device=cuda:3 2>/dev/null | grep -q "device: cuda:3" ||
  fail "--print-config does not show learn.device"

echo "device_option: ok"
