#!/bin/bash
# `quax balance` without any model (docs/BALANCE.md, "Without a model"): uct:N and mcts:N on
# hex 4x4 without swap measure every part; the report, balance.json, the map and the compare
# table say "baseline, no model"; the first player's figures are the games' own counts; a
# resume with another player is refused in one line; bad input (uct:0, nonsense, random, both
# --player and --model, --sims beside a baseline) is refused in one line with a non-zero exit;
# --player FILE is --model FILE.
# Usage: balance_baseline.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 > /dev/null || { echo "python3 missing: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # <player> then other options
  local player=$1
  shift
  "$QUAX" balance --variant hex --size 4 --swap off --player "$player" --games 6 --opening-games 1 \
    --skill-cap 32 --skill-games 2 --solve-seconds 0 "$@"
}
out=$(run uct:2000 --out "$tmp/u" 2> "$tmp/u.err") || fail "uct run: exit $? $(cat "$tmp/u.err")"
for f in balance.json openings.svg report.txt; do [ -s "$tmp/u/$f" ] || fail "$f not written"; done
[ "$out" = "$(cat "$tmp/u/report.txt")" ] || fail "printed report differs from report.txt"
[ "$(sed -n 1p <<<"$out")" = "hex 4x4 (no swap), player: uct:2000 (baseline, no model)" ] ||
  fail "first line: $(sed -n 1p <<<"$out")"
grep -q "^baseline play: every figure is uct:2000's, not a model's" <<<"$out" || fail "baseline line: $out"
grep -q '^first player without swap: ' <<<"$out" || fail "first player line: $out"
grep -q '^skill: twice the simulations' <<<"$out" || fail "skill lines: $out"
grep -q '\] skill: 2 games of uct:32 against uct:16' "$tmp/u.err" || fail "skill progress: $(cat "$tmp/u.err")"
grep -q 'uct:2000 (baseline, no model)' "$tmp/u/openings.svg" || fail "map title"
grep -qi 'warning' "$tmp/u.err" && fail "a warning without a model: $(cat "$tmp/u.err")"

python3 - "$tmp/u/balance.json" <<'PY' || fail "balance.json fields"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["player"] == "uct:2000" and r["baseline"] is True and r["model"] is None, r
assert r["settings"]["sims"] == 2000 and r["complete"] is True and r["model_warnings"] == []
assert len(r["openings"]) == 16
values = {o["move"]: o["value"] for o in r["openings"]}
assert values["c2"] > values["a1"] + 0.1, values  # a winning centre cell above a losing corner
for side in ("without_swap", "with_swap"):
    fp = r["first_player"][side]
    # Read from the games played: every game won by one side (hex cannot draw).
    assert fp["games"] == 6 and fp["wins"] + fp["losses"] == 6 and fp["draws"] == 0, fp
    assert abs(fp["rate"] - fp["wins"] / 6) < 1e-9, fp
assert sum(r["length"]["histogram"].values()) == 6 and r["length"]["min"] >= 7, r["length"]
assert [p["sims"] for p in r["skill_trace"]] == [8, 16] and all(p["games"] == 2 for p in r["skill_trace"])
assert r["decisiveness"] is not None and r["lead_changes"] is not None
PY

# mcts:N, the plain MCTS baseline: the same parts through the tree search.
out=$(run mcts:64 --out "$tmp/m" 2> "$tmp/m.err") || fail "mcts run: exit $? $(cat "$tmp/m.err")"
[ "$(sed -n 1p <<<"$out")" = "hex 4x4 (no swap), player: mcts:64 (baseline, no model)" ] ||
  fail "mcts first line: $(sed -n 1p <<<"$out")"

# Finished: run again, only printed. Another player on the same directory: one line, refused.
out2=$(run uct:2000 --out "$tmp/u" 2> "$tmp/u2.err") || fail "rerun: exit $?"
[ "$out2" = "$(cat "$tmp/u/report.txt")" ] || fail "rerun printed another report"
grep -q '\] openings\|\] first player\|\] skill' "$tmp/u2.err" && fail "rerun measured again: $(cat "$tmp/u2.err")"
# Stopped half-way (a part missing): a resume with another player is refused, with the same one it measures.
rm "$tmp/u/balance.json"
python3 - "$tmp/u/balance.partial.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
del p["parts"]["games_with_swap"]
p["complete"] = False
json.dump(p, open(sys.argv[1], "w"))
PY
err=$(run uct:500 --out "$tmp/u" 2>&1 > /dev/null) && fail "a resume with another player accepted"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "refusal is not one line: $err"
grep -q "holds a balance run of player uct:2000, not uct:500; run it with --player uct:2000" <<<"$err" ||
  fail "refusal: $err"
err=$(run mcts:300 --out "$tmp/u" 2>&1 > /dev/null) && fail "a resume with mcts:300 accepted"
grep -q "of player uct:2000, not mcts:300" <<<"$err" || fail "refusal: $err"
run uct:2000 --out "$tmp/u" > /dev/null 2> "$tmp/u3.err" || fail "resume: exit $?"
grep -q '\] first player: 6 self-play games with the pie rule' "$tmp/u3.err" || fail "resume: $(cat "$tmp/u3.err")"
grep -q '\] openings\|without the pie rule\|\] skill' "$tmp/u3.err" && fail "resume redid parts: $(cat "$tmp/u3.err")"

# The compare table names the player of each report.
out=$("$QUAX" balance compare "$tmp/u" "$tmp/m" --out "$tmp/cmp.md") || fail "compare: exit $?"
grep -q '^player  *uct:2000 (baseline, no model)  *mcts:64 (baseline, no model)$' <<<"$out" || fail "compare: $out"
grep -q '| player | uct:2000 (baseline, no model) | mcts:64 (baseline, no model) |' "$tmp/cmp.md" ||
  fail "compare markdown: $(cat "$tmp/cmp.md")"

# Bad input: one line and a non-zero exit, before anything is measured.
refused() {  # <what the line says> then options
  local want=$1
  shift
  local err
  err=$("$QUAX" balance --variant quax --size 4 --out "$tmp/bad" "$@" 2>&1 > /dev/null) && fail "accepted: $*"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$* not refused in one line: $err"
  grep -qF -- "$want" <<<"$err" || fail "$*: $err"
}
refused "bad player 'uct:0'" --player uct:0
refused "unknown player 'nonsense'" --player nonsense
refused "--player random: the balance lab needs a player whose search values positions" --player random
refused "give --player or --model, not both" --player uct:100 --model "$SRC/checkpoints/quax-5.pt"
refused "--sims is a model's simulations" --player uct:100 --sims 50
refused "takes a model as FILE or FILE:sims=N" --player "$SRC/checkpoints/quax-5.pt:gumbel"
[ -e "$tmp/bad/balance.partial.json" ] && fail "a refused run left a partial file"

# --player FILE is --model FILE: a report made with one is the other's (printed, not measured).
MODEL5="$SRC/checkpoints/quax-5.pt"
if [ -f "$MODEL5" ]; then
  "$QUAX" balance --variant quax --size 3 --swap off --model "$MODEL5" --sims 4 --games 2 --opening-games 0 \
    --skill-cap 0 --solve-seconds 0 --out "$tmp/f" > /dev/null 2>&1 || fail "model run"
  "$QUAX" balance --variant quax --size 3 --swap off --player "$MODEL5:sims=4" --games 2 --opening-games 0 \
    --skill-cap 0 --solve-seconds 0 --out "$tmp/f" > /dev/null 2> "$tmp/f.err" || fail "--player FILE: $(cat "$tmp/f.err")"
  grep -q '\] openings' "$tmp/f.err" && fail "--player FILE:sims=4 measured again: $(cat "$tmp/f.err")"
fi
echo "ok"
