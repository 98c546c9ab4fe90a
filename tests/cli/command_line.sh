#!/bin/bash
# The top level of `quax` and `quax replay`'s record argument: an unknown command, and a bad
# option of a known one, get one line and exit 1 (the unknown command with a pointer to
# --help); --help ends by pointing to the rules of every variant; replay takes an argument
# with '.' or '/' as a file name (no move has either), so a missing game.txt is "no such
# file", not a bad move, and the rule is in its --help.
# Usage: command_line.sh <quax binary> <source dir>
set -u
QUAX=$(realpath "$1")  # absolute: the test changes directory
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"

expect_one_line_error "unknown command 'frobnicate'" "$QUAX" frobnicate
case "$ERROR_LINE" in *"--help"*) ;; *) fail "unknown command: no pointer to --help: $ERROR_LINE";; esac
expect_one_line_error "unknown command 'frobnicate'" "$QUAX" frobnicate --size 5
# Known commands still parse, options before a command are still CLI11's.
"$QUAX" replay --size 3 "a1 b1 a2 b2 a3" > /dev/null || fail "replay after the unknown-command check"

# A bad option of a known command: one line naming the option, exit 1.
expect_one_line_error "--games" "$QUAX" arena --players random,uct:4 --games 0
expect_one_line_error "--nonsense" "$QUAX" replay --nonsense "a1"

help=$("$QUAX" --help) || fail "--help: exit $?"
last=$(printf '%s\n' "$help" | grep -v '^ *$' | tail -n 1)
case "$last" in *"docs/RULES.md"*) ;; *) fail "--help does not end with a pointer to docs/RULES.md: '$last'";; esac

cd "$DIR" || fail "cd"
expect_one_line_error "cannot open record file 'game.txt': No such file or directory" "$QUAX" replay game.txt
expect_one_line_error "cannot open record file 'games/': No such file or directory" "$QUAX" replay games/
printf '%s\n' "a1 b1 a2 b2 a3" > g.txt
out=$("$QUAX" replay --size 3 g.txt) || fail "replay g.txt: exit $?"
printf '%s\n' "$out" | grep -qx 'result: black wins' || fail "replay g.txt: $out"
# A word without '.' or '/' is a record even when a file of that name exists.
printf '%s\n' "a1 b1 a2 b2 a3" > c3
out=$("$QUAX" replay --size 3 c3) || fail "replay c3: exit $?"
printf '%s\n' "$out" | grep -qx 'quax 3x3 (swap), 1 moves' || fail "replay c3 was not read as the move c3: $out"
"$QUAX" replay --help | grep -q "'.' or '/'" || fail "replay --help does not state the file-name rule"
echo "ok"
