#!/bin/bash
# Sizes the machine cannot hold are refused in one line before anything runs (issue 58): a
# solver table of a TiB in `quax balance` (a bare std::bad_alloc before), and searches of ten
# million simulations on a 26x26 board in `quax gtp` and `quax balance` (std::bad_alloc after
# 158 s before); a balance folder whose partial file holds a field of the wrong type is named
# with what to do (once "type must be number, but is string").
# Usage: memory_bounds.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
M5="$SRC/checkpoints/quax-5.pt"

start=$(date +%s)
expect_one_line_error "--solve-memory-mb 1048576 needs about 1048576 MiB, more than this machine's" \
  "$QUAX" balance --variant quax --size 4 --model "$M5" --solve-memory-mb 1048576 --out "$DIR/b1"
expect_one_line_error "a search of 1000000 simulations on quax 26x26" \
  "$QUAX" balance --variant quax --size 26 --model "$M5" --sims 1000000 --out "$DIR/b2"
[ ! -e "$DIR/b1/balance.partial.json" ] && [ ! -e "$DIR/b2/balance.partial.json" ] || fail "a refused balance wrote files"
# gtp: the genmove is refused, and the engine goes on answering.
out=$(printf 'boardsize 26\ngenmove b\nplay b c3\nquit\n' | "$QUAX" gtp --model "$M5" --sims 10000000 2>/dev/null)
grep -q "^? .*a search of 10000000 simulations on quax 26x26 (swap) needs about [0-9]* MiB, more than this machine's" <<<"$out" ||
  fail "gtp at 26x26: $out"
[ "$(grep -c '^= ' <<<"$out")" -eq 3 ] || fail "gtp did not go on after the refusal: $out"
[ $(($(date +%s) - start)) -lt 60 ] || fail "the refusals took $(($(date +%s) - start)) s"

# A partial file with a field of the wrong type: the folder named, and what to do.
"$QUAX" balance --variant quax --size 3 --swap off --model "$M5" --sims 4 --games 2 --opening-games 0 --skill-cap 8 \
  --solve-seconds 0 --out "$DIR/p" > /dev/null 2>&1 || fail "a small balance run"
rm "$DIR/p/balance.json"
/usr/bin/python3 - "$DIR/p/balance.partial.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["complete"] = False
p["seconds"] = "ten"
json.dump(p, open(sys.argv[1], "w"))
PY
expect_one_line_error "'$DIR/p' holds a malformed balance file (" \
  "$QUAX" balance --variant quax --size 3 --swap off --model "$M5" --sims 4 --games 2 --opening-games 0 --skill-cap 8 \
  --solve-seconds 0 --out "$DIR/p"
case "$ERROR_LINE" in *"delete its balance.partial.json and balance.json to measure again"*) ;; *) fail "$ERROR_LINE";; esac
echo "ok"
