#!/bin/bash
# A model whose outputs are NaN is refused by `quax gtp` at start, with a non-zero exit and
# one line naming the file (it used to start, and its first genmove never returned while
# memory grew). Usage: gtp_nonfinite.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

source "$SRC/tests/cli/lib/nan_model.sh"
nan_model "$SRC/checkpoints/quax-5.pt" "$DIR/nan.pt" || { echo "python3 is needed to write the NaN model"; exit 77; }
# A hang must not take the machine's memory while the timeout runs.
ulimit -v 8000000

for mode in "--sims 50" "--time 0.5"; do
  err=$(echo "genmove b" | timeout -s KILL 30 "$QUAX" gtp --size 5 --model "$DIR/nan.pt" $mode 2>&1 > "$DIR/out")
  rc=$?
  [ $rc -ne 137 ] || fail "$mode: no exit within 30 s"
  [ $rc -ne 0 ] || fail "$mode: exit code 0 (answered: $(cat "$DIR/out"))"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$mode: not one line: $err"
  case "$err" in
    *"model '$DIR/nan.pt': gives non-finite outputs"*) ;;
    *) fail "$mode: bad message: $err" ;;
  esac
done
# The shipped model itself is fine.
echo "genmove b" | timeout 60 "$QUAX" gtp --size 5 --model "$SRC/checkpoints/quax-5.pt" --sims 8 | grep -q "^= " ||
  fail "the shipped model did not answer"
echo "ok: refused with one line"
