#!/bin/bash
# `quax perfect-check` with the shipped quax 5x5 model on a small solved book (positions
# along one game, from ply 10 on): the three lines with counts that add up, the pie-rule
# skip (a book without swap against a model trained with it), a model of another size (it
# plays, with one warning line), and the refusals: a model of another variant, a missing or
# malformed positions file, exit 1 with one line.
# Usage: perfect_check.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/bounded_run.sh"
MODEL5="$SRC/checkpoints/quax-5.pt"
MODEL7="$SRC/checkpoints/quax-7.pt"
TORAX5="$SRC/checkpoints/torax-5.pt"
[ -f "$MODEL5" ] && [ -f "$MODEL7" ] && [ -f "$TORAX5" ] || { echo "shipped models missing: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

game='c3 b3 c2 b2 c4 b4 d1 b1 e5 b5 a1 a2 d5'
echo "$game" > "$tmp/games.txt"
"$QUAX" solve --variant quax --size 5 --swap on --memory-mb 64 --progress 0 --book --records "$tmp/games.txt" \
  --min-ply 10 --out "$tmp/book.jsonl" > /dev/null || fail "book: exit $?"
n=$(wc -l < "$tmp/book.jsonl")
[ "$n" -ge 2 ] || fail "book has $n positions"

out=$("$QUAX" perfect-check --model "$MODEL5" --positions "$tmp/book.jsonl" --sims 16) || fail "check: exit $?"
printf '%s\n' "$out" | grep -q "^quax 5x5 (swap): $n positions in .*, $n checked$" || fail "header: $out"
printf '%s\n' "$out" | grep -qE '^search move wins \(sims=16, positions with a win\): [0-9]+/[0-9]+ = ' || fail "search line: $out"
printf '%s\n' "$out" | grep -qE '^raw policy move wins \(positions with a win\): [0-9]+/[0-9]+ = ' || fail "policy line: $out"
printf '%s\n' "$out" | grep -qE "^value sign matches the proven value: [0-9]+/$n = " || fail "value line: $out"
wins=$(grep -c '"value":"win"' "$tmp/book.jsonl")
printf '%s\n' "$out" | grep -qE "^raw policy move wins .*: [0-9]+/$wins = " || fail "policy total is not the $wins wins: $out"

# A book without swap: positions before ply 2 are not the swap game's, so they are skipped
# (the ply-1 line is written by hand: solving it takes minutes; its value is never read).
echo '{"variant":"quax","size":5,"swap":false,"record":"c3","to_move":"white","value":"loss","winning_moves":[]}' \
  > "$tmp/mixed.jsonl"
"$QUAX" solve --variant quax --size 5 --swap off --memory-mb 64 --progress 0 --book --records "$tmp/games.txt" \
  --min-ply 11 --max-ply 11 --out "$tmp/late.jsonl" > /dev/null || fail "late book: exit $?"
cat "$tmp/late.jsonl" >> "$tmp/mixed.jsonl"
out=$("$QUAX" perfect-check --model "$MODEL5" --positions "$tmp/mixed.jsonl" --sims 8) || fail "mixed: exit $?"
printf '%s\n' "$out" | grep -q '1 checked.*1 skipped (before ply 2' || fail "pie skip: $out"

expect_error() {  # expected message (a glob pattern), then the arguments
  local want=$1; shift
  local err rc
  err=$(bounded_run "$QUAX" perfect-check "$@" 2>&1 >"$tmp/stdout"); rc=$?
  [ $rc -eq 1 ] || fail "perfect-check $*: exit $rc, expected 1"
  [[ "$err" == $want ]] || fail "perfect-check $*: said '$err', expected '$want'"
  [ ! -s "$tmp/stdout" ] || fail "perfect-check $*: printed on stdout"
}
# The 7x7 model checks the 5x5 book (the network is fully convolutional), warning once.
out=$("$QUAX" perfect-check --model "$MODEL7" --positions "$tmp/book.jsonl" --sims 8 2> "$tmp/err") ||
  fail "7x7 model on the 5x5 book: exit $?: $(cat "$tmp/err")"
printf '%s\n' "$out" | grep -q "^quax 5x5 (swap): $n positions in .*, $n checked$" || fail "7x7 model: $out"
[ "$(cat "$tmp/err")" = "warning: model '$MODEL7' was trained on quax 7x7, not 5x5; it plays that size untested" ] ||
  fail "7x7 model: stderr '$(cat "$tmp/err")'"
expect_error "quax perfect-check: *the model is for torax 5x5, not quax 5x5*" --model "$TORAX5" --positions "$tmp/book.jsonl"
expect_error "quax perfect-check: cannot open solved-positions file '$tmp/none.jsonl': No such file or directory" \
  --model "$MODEL5" --positions "$tmp/none.jsonl"
echo '{"variant":"quax","size":5}' > "$tmp/bad.jsonl"
expect_error "quax perfect-check: $tmp/bad.jsonl:1: field 'swap' is missing or of the wrong type" \
  --model "$MODEL5" --positions "$tmp/bad.jsonl"
echo '{"variant":"quax","size":5,"swap":true,"record":"c3 c3","to_move":"white","value":"win","winning_moves":[]}' \
  > "$tmp/illegal.jsonl"
expect_error "quax perfect-check: $tmp/illegal.jsonl:1: record 'c3 c3': ply 2 (move 'c3'): c3 is occupied" \
  --model "$MODEL5" --positions "$tmp/illegal.jsonl"

# Winning moves that are no legal move of the position would be scored as moves nobody can
# play: the line is refused, named with its number, like a bad record.
line() { echo '{"variant":"quax","size":5,"swap":true,"record":"c3 b2","to_move":"black","value":"win","winning_moves":['"$1"']}'; }
{ line '"d4"'; line '"d4","z9"'; } > "$tmp/offboard.jsonl"
expect_error "quax perfect-check: $tmp/offboard.jsonl:2: winning move 'z9' is off the 5x5 board" \
  --model "$MODEL5" --positions "$tmp/offboard.jsonl"
{ line '"d4"'; echo; line '"b2"'; } > "$tmp/occupied.jsonl"
expect_error "quax perfect-check: $tmp/occupied.jsonl:3: winning move 'b2' is illegal: b2 is occupied" \
  --model "$MODEL5" --positions "$tmp/occupied.jsonl"
line '"swap"' > "$tmp/swap.jsonl"
expect_error "quax perfect-check: $tmp/swap.jsonl:1: winning move 'swap' is illegal: *" \
  --model "$MODEL5" --positions "$tmp/swap.jsonl"
# Moves in another spelling are read as the move they name.
line '"D4"' > "$tmp/upper.jsonl"
"$QUAX" perfect-check --model "$MODEL5" --positions "$tmp/upper.jsonl" --sims 4 > /dev/null || fail "upper-case move: exit $?"

# Files that are not books: a directory (it said "holds no positions"), a device, a FIFO, a
# file above the 256 MB limit. One line each, at once, before the model is loaded.
mkfifo "$tmp/fifo"
truncate -s 300M "$tmp/huge.jsonl"
expect_error "quax perfect-check: '$tmp' is a directory, not a regular solved-positions file" \
  --model "$MODEL5" --positions "$tmp"
expect_error "quax perfect-check: '/dev/zero' is a character device, not a regular solved-positions file" \
  --model "$MODEL5" --positions /dev/zero
expect_error "quax perfect-check: '$tmp/fifo' is a FIFO, not a regular solved-positions file" \
  --model "$MODEL5" --positions "$tmp/fifo"
expect_error "quax perfect-check: '$tmp/huge.jsonl' is 300 MB, more than the 256 MB limit for a solved-positions file" \
  --model "$MODEL5" --positions "$tmp/huge.jsonl"
echo "ok"
