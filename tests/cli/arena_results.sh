#!/bin/bash
# `quax arena` and its results file: a file that cannot be written stops the command before
# any game; a last line cut short (a killed arena, a full disk) is reported with its line
# number, set aside, and new games start on their own line, so that every whole game of the
# old file and every new game count; a malformed line elsewhere stops the command before any
# game with file:line; an error while games are played (here the results file replaced by a
# directory) ends the command with one line and exit 1 after the finished games are saved;
# --sprt parameters out of range are refused.
# Usage: arena_results.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"

arena() { "$QUAX" arena --size 3 --players random,uct:4 --threads 2 "$@"; }
whole_games() { grep -c '^{.*}$' "$1"; }  # lines that are whole JSON objects
# The number of games the standings table counts: wins + losses + draws of random vs uct:4.
counted() { printf '%s\n' "$1" | awk '$1 == "random" && $2 == "uct:4" { print $3 + $4 + $5 }'; }
no_game_played() { case "$ERROR_STDOUT" in *"game 1/"*) fail "$1: a game was played";; esac; }

# A results file that cannot be written: one line naming it, exit 1, no game played.
mkdir "$DIR/adir"
expect_one_line_error "$DIR/adir" arena --games 4 --results "$DIR/adir"
no_game_played "results file is a directory"
expect_one_line_error "$DIR/nodir/r.jsonl" arena --games 4 --results "$DIR/nodir/r.jsonl"
no_game_played "results file in a missing directory"

# Results files that are no files: devices read without end (/dev/full grew the arena to
# 22 GB before), a FIFO without a writer (the read, or the open to append, waits for ever),
# a file above the 256 MB limit. One line naming the file, at once, no game played.
source "$SRC/tests/cli/lib/bounded_run.sh"
mkfifo "$DIR/fifo"
truncate -s 300M "$DIR/huge.jsonl"
for dev in /dev/full /dev/zero; do
  expect_one_line_error "'$dev' is a character device, not a regular results file" \
    bounded_run "$QUAX" arena --size 3 --players random,uct:4 --games 2 --results "$dev"
  no_game_played "results file $dev"
done
expect_one_line_error "'$DIR/fifo' is a FIFO, not a regular results file" \
  bounded_run "$QUAX" arena --size 3 --players random,uct:4 --games 2 --results "$DIR/fifo"
no_game_played "results file a FIFO"
expect_one_line_error "'$DIR/huge.jsonl' is 300 MB, more than the 256 MB limit for a results file" \
  bounded_run "$QUAX" arena --size 3 --players random,uct:4 --games 2 --results "$DIR/huge.jsonl"
no_game_played "results file above the limit"
rm -f "$DIR/huge.jsonl"

# Four whole games, then the last line cut short without its newline.
arena --games 4 --results "$DIR/r.jsonl" > /dev/null || fail "first arena"
[ "$(wc -l < "$DIR/r.jsonl")" -eq 4 ] && [ "$(whole_games "$DIR/r.jsonl")" -eq 4 ] || fail "first arena: not 4 games"
head -c -25 "$DIR/r.jsonl" > "$DIR/cut.jsonl"
fragment=$(tail -n 1 "$DIR/cut.jsonl")
out=$(arena --games 2 --results "$DIR/cut.jsonl" 2> "$DIR/err") || fail "arena after a cut line: exit $?: $(cat "$DIR/err")"
[ "$(wc -l < "$DIR/err")" -eq 1 ] || fail "cut line: expected one warning line, got: $(cat "$DIR/err")"
grep -q "warning: $DIR/cut.jsonl:4: " "$DIR/err" || fail "cut line: warning does not name line 4: $(cat "$DIR/err")"
[ "$(counted "$out")" = 5 ] || fail "cut line: standings count $(counted "$out") games, expected 3 old + 2 new: $out"
head -n 3 "$DIR/r.jsonl" | cmp -s - <(head -n 3 "$DIR/cut.jsonl") || fail "cut line: the old whole games changed"
[ "$(sed -n 4p "$DIR/cut.jsonl")" = "$fragment" ] || fail "cut line: the fragment is not a line of its own"
[ "$(wc -l < "$DIR/cut.jsonl")" -eq 6 ] && [ "$(whole_games "$DIR/cut.jsonl")" -eq 5 ] ||
  fail "cut line: expected 3 old games, the fragment and 2 new games as 6 lines: $(cat "$DIR/cut.jsonl")"
# The next arena reads the repaired file: the fragment set aside again, every game counted.
out=$(arena --games 2 --results "$DIR/cut.jsonl" 2> "$DIR/err") || fail "arena on the repaired file: exit $?: $(cat "$DIR/err")"
grep -q "warning: $DIR/cut.jsonl:4: " "$DIR/err" || fail "repaired file: no warning for line 4: $(cat "$DIR/err")"
[ "$(counted "$out")" = 7 ] || fail "repaired file: standings count $(counted "$out") games, expected 7"

# A whole last game without its newline is kept, and the next game starts on a new line.
printf '%s' "$(cat "$DIR/r.jsonl")" > "$DIR/nonl.jsonl"
out=$(arena --games 2 --results "$DIR/nonl.jsonl" 2> "$DIR/err") || fail "arena after a missing newline: exit $?"
[ "$(counted "$out")" = 6 ] || fail "missing newline: standings count $(counted "$out") games, expected 6"
[ "$(wc -l < "$DIR/nonl.jsonl")" -eq 6 ] && [ "$(whole_games "$DIR/nonl.jsonl")" -eq 6 ] ||
  fail "missing newline: expected 6 whole lines: $(cat "$DIR/nonl.jsonl")"

# A malformed line before the last: file:line, exit 1, no game, the file unchanged.
{ head -n 1 "$DIR/r.jsonl"; echo "hello"; tail -n 3 "$DIR/r.jsonl"; } > "$DIR/bad.jsonl"
cp "$DIR/bad.jsonl" "$DIR/bad.before"
expect_one_line_error "$DIR/bad.jsonl:2: " arena --games 2 --results "$DIR/bad.jsonl"
no_game_played "malformed line 2"
cmp -s "$DIR/bad.jsonl" "$DIR/bad.before" || fail "malformed line: the file changed"
{ head -n 2 "$DIR/r.jsonl"; echo '{"black":"random","white":"uct:4"}'; tail -n 2 "$DIR/r.jsonl"; } > "$DIR/bad2.jsonl"
expect_one_line_error "$DIR/bad2.jsonl:3: " arena --games 2 --results "$DIR/bad2.jsonl"
no_game_played "result line without a result"

# An error while games are played: after the first game the results file is replaced, in one
# rename, by a link to a directory (a hard link keeps the games saved until then). One line,
# exit 1, no crash; every game reported as played is in the saved file.
"$QUAX" arena --size 9 --players uct:1500,uct:1000 --games 100 --threads 2 --results "$DIR/w.jsonl" \
  > "$DIR/w.out" 2> "$DIR/w.err" &
pid=$!
for _ in $(seq 1 3000); do [ -s "$DIR/w.jsonl" ] && break; sleep 0.01; done
ln -s "$DIR/adir" "$DIR/w.link"
ln "$DIR/w.jsonl" "$DIR/w.saved" && mv -T "$DIR/w.link" "$DIR/w.jsonl" || fail "could not replace the results file"
wait $pid
rc=$?
[ $rc -eq 1 ] || fail "results file gone mid-run: exit $rc, expected 1: $(cat "$DIR/w.err")"
[ "$(wc -l < "$DIR/w.err")" -eq 1 ] || fail "results file gone mid-run: expected one line: $(cat "$DIR/w.err")"
grep -q "$DIR/w.jsonl" "$DIR/w.err" || fail "results file gone mid-run: message does not name the file: $(cat "$DIR/w.err")"
grep -q "terminate called" "$DIR/w.err" && fail "results file gone mid-run: an exception escaped"
saved=$(whole_games "$DIR/w.saved")
reported=$(grep -c '^game ' "$DIR/w.out")
[ "$saved" -ge 1 ] && [ "$saved" -eq "$reported" ] && [ "$(wc -l < "$DIR/w.saved")" -eq "$saved" ] ||
  fail "results file gone mid-run: $reported games reported, $saved whole games saved"

# SPRT parameters: alpha and beta in (0, 0.5), elo0 below elo1, four numbers.
expect_one_line_error "beta" arena --games 2 --results "$DIR/s.jsonl" --sprt 0,50,0.05,2
no_game_played "sprt beta 2"
expect_one_line_error "alpha" arena --games 2 --results "$DIR/s.jsonl" --sprt 0,50,0,0.05
expect_one_line_error "elo0" arena --games 2 --results "$DIR/s.jsonl" --sprt 50,0,0.05,0.05
expect_one_line_error "0.05x" arena --games 2 --results "$DIR/s.jsonl" --sprt 0,50,0.05x,0.05
[ ! -s "$DIR/s.jsonl" ] || fail "sprt errors: games were saved"
echo "ok"
