#!/bin/bash
# The pie rule a model was trained with (issue 29): `quax card` says which; a model trained
# with it, asked to play without it (`arena --swap off`), plays with one warning line naming
# the file and both settings, once however many games load it; in its own game it warns not.
# Usage: model_pie_rule.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"
MODEL5="$SRC/checkpoints/quax-5.pt"
TORAX5="$SRC/checkpoints/torax-5.pt"
[ -f "$MODEL5" ] && [ -f "$TORAX5" ] || fail "shipped models missing: $MODEL5, $TORAX5"

# The card.
out=$("$QUAX" card "$MODEL5") || fail "card: exit $?"
printf '%s\n' "$out" | grep -qx "model: $MODEL5" || fail "card does not name the file: $out"
printf '%s\n' "$out" | grep -q "^pie rule: on (trained with it;" || fail "card of quax-5.pt does not say pie rule on: $out"
printf '%s\n' "$out" | grep -qx "step: [0-9]*" || fail "card has no step: $out"
out=$("$QUAX" card "$TORAX5") || fail "card torax: exit $?"
printf '%s\n' "$out" | grep -qx "pie rule: off (torax has none; its own opening replaces it)" || fail "card of torax-5.pt: $out"
expect_one_line_error "$DIR/none.pt" "$QUAX" card "$DIR/none.pt"
# quax export prints the card's pie rule line.
out=$("$QUAX" export --checkpoint "$MODEL5" --out "$DIR/m.pt") || fail "export: exit $?"
printf '%s\n' "$out" | grep -q "^pie rule: on (trained with it;" || fail "export does not say the pie rule: $out"

# Playing without the pie rule: one warning line, naming the file and both settings, for
# the four games (each loads the model).
arena() { "$QUAX" arena --size 5 --players "$MODEL5:sims=8",random --games 4 --threads 2 "$@"; }
arena --swap off --results "$DIR/off.jsonl" > /dev/null 2> "$DIR/err" || fail "arena --swap off: exit $?: $(cat "$DIR/err")"
want="warning: model '$MODEL5' was trained with the pie rule (swap on) and plays a game without it (swap off); its openings are untested there (it learned to open where a swap gains nothing)"
[ "$(cat "$DIR/err")" = "$want" ] || fail "arena --swap off: stderr '$(cat "$DIR/err")', expected the one warning"
[ "$(wc -l < "$DIR/off.jsonl")" -eq 4 ] || fail "arena --swap off: not 4 games played"
# Its own game: no warning.
arena --swap on --results "$DIR/on.jsonl" > /dev/null 2> "$DIR/err" || fail "arena --swap on: exit $?: $(cat "$DIR/err")"
[ ! -s "$DIR/err" ] || fail "arena --swap on: stderr '$(cat "$DIR/err")'"
echo "ok"
