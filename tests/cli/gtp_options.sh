#!/bin/bash
# `quax gtp` options: bad ones give one line naming the problem and exit 1; good ones start
# the game they name.
# Usage: gtp_options.sh <quax binary> <source dir>
set -u
QUAX=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

expect_error() {  # expected message, then the arguments
  local want=$1; shift
  local err rc
  err=$(echo name | "$QUAX" gtp "$@" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 1 ] || fail "gtp $*: exit $rc, expected 1"
  [ "$err" = "$want" ] || fail "gtp $*: said '$err', expected '$want'"
}
err=$(echo name | "$QUAX" gtp --variant hexx 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "gtp --variant hexx: exit $rc, expected 1"
# Every variant listed, in the table's order (the list grows as variants are added).
case "$err" in
  "quax gtp: unknown variant 'hexx' (known: quax, link, quickway, crossway, quadrex, "*"hex, quadhex, y, quady, quady2"*")") ;;
  *) fail "gtp --variant hexx: said '$err'";;
esac
expect_error "quax gtp: size 2 is out of range for quax (3..26)" --size 2
expect_error "quax gtp: size 27 is out of range for link (3..26)" --variant link --size 27
err=$(echo name | "$QUAX" gtp --player nobody 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "--player nobody: exit $rc"
case "$err" in "quax gtp: unknown player 'nobody'"*) ;; *) fail "--player nobody said '$err'";; esac
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "--player nobody: more than one line"

# Defaults: the variant's default size and pie rule.
out=$(printf 'boardsize\nvariant\npie\n' | "$QUAX" gtp --variant link | tr -s '\n' '|')
[ "$out" = "= 8|= link|= off|" ] || fail "link defaults: '$out'"
out=$(printf 'boardsize\npie\n' | "$QUAX" gtp --variant quadrex --size 7 | tr -s '\n' '|')
[ "$out" = "= 7|= on|" ] || fail "quadrex 7: '$out'"
# --model without --variant plays the model's variant at its first trained size with its pie
# rule (hex-9.pt: off; hex's default is on), without a warning; --size and --variant still
# choose (the model plays hex at any size; a quax game is refused for it).
out=$(printf 'variant\nboardsize\npie\n' | "$QUAX" gtp --model "$2/checkpoints/hex-9.pt" 2> "$DIR/err" | tr -s '\n' '|')
[ "$out" = "= hex|= 9|= off|" ] || fail "--model hex-9.pt alone: '$out'"
[ ! -s "$DIR/err" ] || fail "--model hex-9.pt alone warned: $(cat "$DIR/err")"
out=$(printf 'variant\nboardsize\n' | "$QUAX" gtp --model "$2/checkpoints/hex-9.pt:sims=50" --size 7 2>/dev/null | tr -s '\n' '|')
[ "$out" = "= hex|= 7|" ] || fail "--model hex-9.pt:sims=50 --size 7: '$out'"
err=$(echo name | "$QUAX" gtp --model "$2/checkpoints/hex-9.pt" --variant quax 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "--model hex-9.pt --variant quax: exit $rc, expected 1"
case "$err" in *"is for hex"*"not quax"*) ;; *) fail "--model hex-9.pt --variant quax said '$err'";; esac
# showboard: a multi-line answer whose first line follows "= " (HexGui reads only answers
# that begin "= "), rows north to south, then the blank line.
out=$(printf 'boardsize 3\nplay b a1\nplay w c3\nshowboard\nname\n' | "$QUAX" gtp --player random)
board=$(printf '%s\n' "$out" | sed -n '/^= .*a .*b .*c *$/,/^$/p')
[ -n "$board" ] || fail "showboard does not start with '= ' and the column letters: $out"
printf '%s\n' "$board" | grep -q '^ 3 .*H.* 3$' || fail "showboard lacks row 3 with H at c3: $out"
printf '%s\n' "$board" | grep -q '^ 1 .*V.* 1$' || fail "showboard lacks row 1 with V at a1: $out"
[ "$(printf '%s\n' "$out" | tail -1)" = "= quax (random)" ] || fail "the answer after showboard: $out"
echo "ok"
