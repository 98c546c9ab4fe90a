#!/bin/bash
# `quax balance` with the shipped quax 5x5 model on quax 4x4 without swap (small and fast):
# the three files, the documented fields of balance.json, the solver's proofs beside the map
# (4x4: exactly b2 c2 b3 c3 win, docs/SOLVE.md), a second run that resumes instead of
# measuring again, other options on the same directory refused, a part missing from the
# partial file measured again alone, and `quax balance compare` on two reports.
# Usage: balance.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
MODEL5="$SRC/checkpoints/quax-5.pt"
[ -f "$MODEL5" ] || { echo "shipped model missing: skipped"; exit 77; }
command -v python3 > /dev/null || { echo "python3 missing: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # [--sims N] then other options
  local sims=8
  if [ "$1" = --sims ]; then sims=$2; shift 2; fi
  "$QUAX" balance --variant quax --size 4 --swap off --model "$MODEL5" --sims "$sims" --games 4 --opening-games 1 \
    --skill-cap 32 --skill-games 2 --solve-seconds 20 --solve-memory-mb 64 "$@"
}
out=$(run --out "$tmp/a" 2> "$tmp/a.err") || fail "run: exit $? $(cat "$tmp/a.err")"
for f in balance.json openings.svg report.txt; do [ -s "$tmp/a/$f" ] || fail "$f not written"; done
[ "$out" = "$(cat "$tmp/a/report.txt")" ] || fail "printed report differs from report.txt"
grep -q '^first player without swap: ' <<<"$out" || fail "first player line: $out"
grep -q 'skill: twice the simulations' <<<"$out" || fail "skill lines: $out"
grep -q '^\[ *[0-9.]* s\] openings' "$tmp/a.err" || fail "progress lines: $(cat "$tmp/a.err")"
# The model was trained on 5x5: the report says so, as the terminal does.
warning="warning: model '$MODEL5' was trained on quax 5x5, not 4x4; it plays that size untested"
[ "$(sed -n 2p "$tmp/a/report.txt")" = "$warning" ] || fail "report.txt's second line: $(sed -n 2p "$tmp/a/report.txt")"

python3 - "$tmp/a/balance.json" <<'PY' || fail "balance.json fields"
import json, sys
r = json.load(open(sys.argv[1]))
for k in ["variant", "size", "swap", "model", "openings", "first_player", "length", "draw_rate", "skill_trace"]:
    assert k in r, k
assert r["variant"] == "quax" and r["size"] == 4 and r["swap"] is False and r["complete"] is True
assert len(r["openings"]) == 16, len(r["openings"])
for o in r["openings"]:
    for k in ["move", "value", "low", "high", "proven", "swap"]:
        assert k in o, k
    want = "win" if o["move"] in ("b2", "c2", "b3", "c3") else "loss"
    assert o["proven"] == want, o
    assert -1 <= o["value"] <= 1 and o["swap"] == (o["value"] > 0), o
for side in ["without_swap", "with_swap"]:
    fp = r["first_player"][side]
    assert fp["games"] == 4 and 0 <= fp["low"] <= fp["rate"] <= fp["high"] + 1e-9 <= 1 + 1e-9, fp
assert [p["sims"] for p in r["skill_trace"]] == [8, 16], r["skill_trace"]
assert r["draw_rate"] is None and r["length"]["games"] == 4
assert len(r["model_warnings"]) == 2 and "not 4x4" in r["model_warnings"][0], r["model_warnings"]
PY
grep -c '<polygon' "$tmp/a/openings.svg" | grep -qx 16 || fail "svg cells"

# Again: finished, so only the report, no measuring.
out2=$(run --out "$tmp/a" 2> "$tmp/a2.err") || fail "rerun: exit $?"
[ "$out2" = "$out" ] || fail "rerun printed another report"
grep -q '\] openings\|\] first player\|\] skill' "$tmp/a2.err" && fail "rerun measured again: $(cat "$tmp/a2.err")"

# Other options on the same directory: refused with one line.
err=$(run --sims 9 --out "$tmp/a" 2>&1 > /dev/null) && fail "other options accepted"
[ "$(printf '%s\n' "$err" | grep -v -i warn | wc -l)" -eq 1 ] || fail "refusal is not one line: $err"
grep -q 'other options' <<<"$err" || fail "refusal: $err"

# A part missing (as if the run had been stopped): only it is measured again.
rm "$tmp/a/balance.json"
python3 - "$tmp/a/balance.partial.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
del p["parts"]["games_with_swap"]
p["complete"] = False
json.dump(p, open(sys.argv[1], "w"))
PY
run --out "$tmp/a" > /dev/null 2> "$tmp/a3.err" || fail "resume: exit $?"
grep -q '\] first player: 4 self-play games with the pie rule' "$tmp/a3.err" || fail "resume: $(cat "$tmp/a3.err")"
grep -q '\] openings\|\] first player: .* without the pie rule\|\] skill' "$tmp/a3.err" && fail "resume redid parts: $(cat "$tmp/a3.err")"
[ -s "$tmp/a/balance.json" ] || fail "resume wrote no report"

# compare: a column per report.
run --out "$tmp/b" --seed 2 > /dev/null 2>&1 || fail "second report"
out=$("$QUAX" balance compare "$tmp/a" "$tmp/b" --out "$tmp/cmp.md") || fail "compare: exit $?"
grep -q "^report .*$tmp/a .*$tmp/b" <<<"$out" || fail "compare header: $out"
grep -q '^game .*quax 4x4 (no swap) .*quax 4x4 (no swap)' <<<"$out" || fail "compare game row: $out"
grep -q '^openings proven (win/loss/draw) *4/12/0 *4/12/0$' <<<"$out" || fail "compare proven row: $out"
grep -q '^model warnings .*was trained on quax 5x5, not 4x4' <<<"$out" || fail "compare warnings row: $out"
grep -q '!\[map\](a/openings.svg).*!\[map\](b/openings.svg)' "$tmp/cmp.md" || fail "compare maps: $(cat "$tmp/cmp.md")"
err=$("$QUAX" balance compare "$tmp/none" 2>&1) && fail "compare of a missing report accepted"
echo "ok"
