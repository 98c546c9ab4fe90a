#!/bin/bash
# One network for several board sizes (game.sizes): a tiny run on quax 4x4, 5x5 and 6x6 writes
# shards of each size and metrics per size; its model lists the sizes and plays each of them
# through `quax gtp --model` (a legal genmove, no warning), a size outside them with one
# warning line on stderr (also after `boardsize` in a session), and refuses another variant;
# `quax ladder --size` rates the run's models on one of its sizes.
# Usage: mixed_sizes.sh <quax binary> <source dir>
set -u
QUAX=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$DIR/mixed.yaml" <<YAML
game: {variant: quax, sizes: [4, 5, 6], size_weights: [1, 1, 2]}
net: {blocks: 1, filters: 8, policy_channels: 4, value_channels: 4, value_hidden: 8}
search: {simulations: 8}
selfplay: {parallel_games: 16, games_per_shard: 8}
replay: {min_positions: 100, window_min: 500}
learn: {batch_size: 32, lr_warmup_steps: 1, publish_every: 10, checkpoint_every: 10}
run: {max_steps: 20, max_minutes: 1, metrics_every: 10}
YAML
"$QUAX" train --config "$DIR/mixed.yaml" --run "$DIR/r" --quiet || fail "training run"
for n in 4 5 6; do
  ls "$DIR/r/selfplay" | grep -q -- "p[0-9]*t0n$n-" || fail "no shard of ${n}x$n: $(ls "$DIR/r/selfplay")"
done
grep '"kind":"learn"' "$DIR/r/metrics.jsonl" | tail -1 | grep -q '"by_size":\[{"batches":[0-9]*,"positions_total":[0-9]*,"size":4,' ||
  fail "no positions per size in the metrics: $(tail -3 "$DIR/r/metrics.jsonl")"

out=$("$QUAX" export --checkpoint "$DIR/r/checkpoints/ckpt-0000000020.pt" --out "$DIR/m.pt") || fail "export: $out"
echo "$out" | grep -qx "trained on quax 4x4, 5x5, 6x6: it plays each (and any other size, with a warning)" ||
  fail "export does not list the sizes: $out"

# gtp_answers SIZE MODEL COMMANDS...: the answers to COMMANDS (then quit), one a line without
# the "= "; the session's stderr in $DIR/err.
gtp_answers() {
  local size=$1 model=$2
  shift 2
  printf '%s\n' "$@" quit | "$QUAX" gtp --size "$size" --model "$model" --sims 8 2> "$DIR/err" |
    awk 'NF || /^=/ { sub(/^[=?] ?/, ""); print }' | grep -v '^$' || true
}

# The run's own model (model.pt) at each size it lists: a legal move for each side, no warning.
for n in 4 5 6 7; do
  answers=$(gtp_answers "$n" "$DIR/r/model.pt" "legal_moves" "genmove black" "legal_moves" "genmove white")
  legal_b=" $(echo "$answers" | sed -n 1p) "
  move_b=$(echo "$answers" | sed -n 2p)
  legal_w=" $(echo "$answers" | sed -n 3p) "
  move_w=$(echo "$answers" | sed -n 4p)
  [ -n "$move_b" ] && [ -n "$move_w" ] || fail "${n}x$n: no moves in: $answers"
  case "$legal_b" in *" $move_b "*) ;; *) fail "${n}x$n: black's genmove '$move_b' is not in [$legal_b]";; esac
  case "$legal_w" in *" $move_w "*) ;; *) fail "${n}x$n: white's genmove '$move_w' is not in [$legal_w]";; esac
  # Each board's own coordinates: the last column letter of an n x n board is legal at first.
  last=$(printf "\\$(printf '%03o' $((96 + n)))")
  case "$legal_b" in *" ${last}$n "*) ;; *) fail "${n}x$n: the board's corner ${last}$n is not legal: [$legal_b]";; esac
  if [ "$n" -le 6 ]; then
    [ ! -s "$DIR/err" ] || fail "${n}x$n: unexpected stderr: $(cat "$DIR/err")"
  else
    [ "$(cat "$DIR/err")" = "warning: model '$DIR/r/model.pt' was trained on quax 4x4, 5x5, 6x6, not 7x7; it plays that size untested" ] ||
      fail "${n}x$n: stderr was '$(cat "$DIR/err")'"
  fi
  echo "${n}x$n: black $move_b, white $move_w"
done

# In one session: a change to a size outside the list plays with the warning, another variant
# is refused with both named.
answers=$(gtp_answers 5 "$DIR/m.pt" "genmove black" "boardsize 8" "legal_moves" "genmove black" "variant quickway" "genmove black")
legal=" $(echo "$answers" | sed -n 2p) "
move=$(echo "$answers" | sed -n 3p)
case "$legal" in *" h8 "*) ;; *) fail "boardsize 8: legal moves [$legal]";; esac
case "$legal" in *" $move "*) ;; *) fail "boardsize 8: genmove '$move' is not in [$legal]";; esac
[ "$(echo "$answers" | sed -n 4p)" = "the model is for quax 4x4, 5x5, 6x6, not quickway 8x8" ] ||
  fail "variant quickway: answers were: $answers"
[ "$(cat "$DIR/err")" = "warning: model '$DIR/m.pt' was trained on quax 4x4, 5x5, 6x6, not 8x8; it plays that size untested" ] ||
  fail "boardsize 8: stderr was '$(cat "$DIR/err")'"
# The ladder rates the run's models on any of its sizes (ladder-NxN.* beside the run's own).
"$QUAX" ladder "$DIR/r" --size 5 --games 2 --sims 4 --baselines random > "$DIR/ladder.out" 2> "$DIR/err" ||
  fail "ladder --size 5: $(cat "$DIR/err")"
[ ! -s "$DIR/err" ] || fail "ladder --size 5: unexpected stderr: $(cat "$DIR/err")"
grep -q "ladder: 3 models and 1 baselines of quax 5x5 (swap)" "$DIR/ladder.out" || fail "ladder: $(cat "$DIR/ladder.out")"
for f in ladder-5x5.jsonl ladder-5x5.csv ladder-5x5.svg; do [ -s "$DIR/r/$f" ] || fail "ladder wrote no $f"; done
[ ! -e "$DIR/r/ladder.jsonl" ] || fail "ladder --size 5 wrote ladder.jsonl"
echo "ok"
