#!/bin/bash
# `quax replay`: the sample games of the Quax page (tests/data/quax-sample-games-overview.txt)
# from text and from a file, results, and the errors (first illegal move with its ply,
# malformed record, bad variant or size) with exit 1.
# Usage: replay_records.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

game1='d3 f5, f8 h8, g6 f7, g3 f3, f2 e2, e3 e2f3, f4 g4, f4g3 h3, g5 f5g4, h4 g4h3, g7 e8, Black resigns'
game2='d3 e6, c6 c8, h6 h8, f7 f9, e9 e8, d8 g9, c7 e10, c9 d9, c9d8 c4, d5 Red resigns'
game3='c3 e5, f3 h3, g5 i6, h4 i4, i9 g7, f8 g9, g8 h8, h7 i7 Black resigns'
# These three are the page's records, as tests/data transcribes them.
data="$SRC/tests/data/quax-sample-games-overview.txt"
[ -f "$data" ] || fail "missing test data file $data"
for g in "$game1" "$game2" "$game3"; do
  grep -qxF "$g" "$data" || fail "'$g' is not a record of $data"
done

out=$("$QUAX" replay --variant quax --size 11 "$game1") || fail "game 1: exit $?"
printf '%s\n' "$out" | grep -qx 'result: black resigned' || fail "game 1 result: $out"
printf '%s\n' "$out" | grep -qx 'quax 11x11 (swap), 22 moves' || fail "game 1 moves: $out"
out=$("$QUAX" replay --variant quax --size 11 "$game2") || fail "game 2: exit $?"
printf '%s\n' "$out" | grep -qx 'result: white resigned' || fail "game 2 result: $out"

# From a file, over several lines.
printf '%s\n' "c3 e5, f3 h3," "g5 i6, h4 i4, i9 g7, f8 g9, g8 h8, h7 i7" "Black resigns" > "$tmp/game3.txt"
out=$("$QUAX" replay --variant quax "$tmp/game3.txt") || fail "game 3 file: exit $?"
printf '%s\n' "$out" | grep -qx 'result: black resigned' || fail "game 3 result: $out"
printf '%s\n' "$out" | grep -qx 'quax 11x11 (swap), 16 moves' || fail "game 3 moves: $out"

# Results: a win, an unfinished game.
out=$("$QUAX" replay --variant quax --size 3 "a1 b1 a2 b2 a3") || fail "win: exit $?"
printf '%s\n' "$out" | grep -qx 'result: black wins' || fail "win: $out"
out=$("$QUAX" replay --variant crossway --size 5 "c3 swap c4") || fail "crossway: exit $?"
printf '%s\n' "$out" | grep -qx 'result: no winner yet' || fail "unfinished: $out"

# Errors: one line on stderr naming the ply and the move, exit 1, nothing on stdout.
expect_error() {  # expected message, then the arguments
  local want=$1; shift
  local err rc
  err=$("$QUAX" replay "$@" 2>&1 >"$tmp/stdout"); rc=$?
  [ $rc -eq 1 ] || fail "replay $*: exit $rc, expected 1"
  [ "$err" = "$want" ] || fail "replay $*: said '$err', expected '$want'"
  [ ! -s "$tmp/stdout" ] || fail "replay $*: printed on stdout"
}
expect_error "quax replay: ply 5 (move 'd3'): d3 is occupied" --variant quax "d3 f5, f8 h8, d3"
expect_error "quax replay: ply 2 (move 'swap'): swap: the pie rule is off in this game" --variant link "d3 swap"
expect_error "quax replay: ply 2 (move 'swap'): swap: the pie rule is off in this game" --no-pie "d3 swap"
expect_error "quax replay: ply 5 (move 'e2-f3'): e2-f3: quadrex has no link moves" --variant quadrex "e2 a1 f3 a2 e2-f3"
expect_error "quax replay: ply 2: 'k9' is off the 8x8 board" --variant link "a1 k9"
expect_error "quax replay: ply 6 (move 'b3'): b3: the game is over" --size 3 "a1 b1 a2 b2 a3 b3"
expect_error "quax replay: 'Blue' is not a player name (before 'resigns')" "d3 Blue resigns"
expect_error "quax replay: the record is empty" " , "
expect_error "quax replay: cannot open record file '$tmp/missing.txt': No such file or directory" "$tmp/missing.txt"
err=$("$QUAX" replay --variant hexx "a1" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "replay --variant hexx: exit $rc, expected 1"
case "$err" in "quax replay: unknown variant 'hexx' (known: quax, "*")") ;; *) fail "replay --variant hexx: said '$err'";; esac
expect_error "quax replay: size 30 is out of range for quax (3..26)" --size 30 "a1"

# Hostile input is quoted, not echoed: a move of 100000 letters comes back cut to 60 of
# them, and control bytes, NUL and bytes above ASCII as \xNN: the error stays one short
# printable line.
long=$(head -c 100000 /dev/zero | tr '\0' 'q')
expect_error "quax replay: ply 1: '$(printf 'q%.0s' $(seq 60))'... is not a move (expected e.g. c5, e2-f3, swap)" "$long"
printf 'c3 z\001\033[2J\000\377' > "$tmp/binary.txt"
err=$("$QUAX" replay "$tmp/binary.txt" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "binary record: exit $rc, expected 1"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "binary record: not one line: $err"
LC_ALL=C grep -q '[^ -~]' <<< "$err" && fail "binary record: the error holds unprintable bytes: $(printf '%s' "$err" | od -c | head -3)"
[ "$err" = "quax replay: ply 2: 'z\x01\x1b[2J\x00\xff' is not a move (expected e.g. c5, e2-f3, swap)" ] ||
  fail "binary record: said '$err'"

# Files that are not records: a device that never ends, a FIFO (no writer: opening it would
# wait for ever), a directory, a file above the 16 MB limit. One line each, at once.
source "$SRC/tests/cli/lib/one_line_error.sh"
source "$SRC/tests/cli/lib/bounded_run.sh"
mkfifo "$tmp/fifo"
truncate -s 17M "$tmp/huge.txt"
mkdir "$tmp/dir"
expect_one_line_error "'/dev/zero' is a character device, not a regular record file" bounded_run "$QUAX" replay /dev/zero
expect_one_line_error "'$tmp/fifo' is a FIFO, not a regular record file" bounded_run "$QUAX" replay "$tmp/fifo"
expect_one_line_error "'$tmp/dir' is a directory, not a regular record file" bounded_run "$QUAX" replay "$tmp/dir"
expect_one_line_error "'$tmp/huge.txt' is 17 MB, more than the 16 MB limit for a record file" \
  bounded_run "$QUAX" replay "$tmp/huge.txt"
echo "ok"
