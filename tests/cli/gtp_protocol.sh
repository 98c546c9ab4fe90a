#!/bin/bash
# `quax gtp`: exact answers to a scripted session (framing, ids, errors that leave the state
# unchanged, undo, swap, links, the end of the game, variant and size changes, quit).
# Usage: gtp_protocol.sh <quax binary> <source dir>
set -u
QUAX=$1
fail() { echo "FAIL: $*"; exit 1; }

input='protocol_version
1 name
2 version
known_command play
known_command fly
boardsize 3
to_move
legal_moves
play white a1
play black b2
play black a1
play white b2
play white z9
play white b2-c3
5 play white zz
play white swap
to_move
list_stones white
list_stones black
legal_moves
undo
list_stones white
list_stones black
to_move
legal_moves
# a comment line gets no answer

play white c3
play black a1
play white c1
legal_moves
play black a1-b2
list_links black
list_links white
play white c2
winner
play black b3
winner
to_move
legal_moves
genmove white
play white a2
variant foo
boardsize 27
boardsize x
list_stones blue
winner
variant crossway
boardsize
variant
to_move
list_stones black
pie off
play black b2
legal_moves
play white swap
play white pass
play white b2-c3
frobnicate
10 quit
name'

expected='= 2

=1 quax (random)

=2 0.1

= true

= false

=

= black

= a1 b1 c1 a2 b2 c2 a3 b3 c3

? it is black'"'"'s turn, not white'"'"'s

=

? it is white'"'"'s turn, not black'"'"'s

? illegal move: b2 is occupied

? '"'"'z9'"'"' is off the 3x3 board

? illegal move: b2-c3: both cells must hold white stones

?5 '"'"'zz'"'"' is not a move (expected e.g. c5, e2-f3, swap)

=

= black

= b2

=

= a1 b1 c1 a2 c2 a3 b3 c3

=

=

= b2

= white

= a1 b1 c1 a2 c2 a3 b3 c3 swap

=

=

=

= b1 a2 c2 a3 b3 a1-b2

=

= a1-b2

=

=

= none

=

= black

= none

=

? game is over

? game is over

? unknown variant '"'"'foo'"'"' (known: ...)

? size 27 is out of range for quax (3..26)

? boardsize takes one number, e.g. boardsize 11 (or width and height, equal: boardsize 11 11)

? unknown color '"'"'blue'"'"' (black or white)

= black

=

= 3

= crossway

= black

=

=

=

= a1 b1 c1 a2 c2 a3 b3 c3

? illegal move: swap: the pie rule is off in this game

? illegal move: pass is only allowed when no placement is legal

? illegal move: b2-c3: crossway has no link moves

? unknown command '"'"'frobnicate'"'"'

=10'

actual=$(printf '%s\n' "$input" | "$QUAX" gtp --variant quax --size 5 --player random)
rc=$?
[ $rc -eq 0 ] || fail "gtp exited with $rc"
# Empty answers end in "= "; compare without trailing blanks.
# The list of known variants grows with the variants (gtp_options.sh checks its shape).
norm() { sed -e 's/[[:space:]]*$//' -e 's/(known: [^)]*)$/(known: ...)/'; }
diff <(printf '%s\n' "$expected" | norm) <(printf '%s\n' "$actual" | norm) || fail "answers differ (expected <, actual >)"

# Switching variants: a size the new variant does not allow becomes its nearest allowed one
# (said in the answer); `variant <name> <n>` sets both; a size it refuses leaves the game.
actual=$(printf '%s\n' 'variant quikquax' 'boardsize' 'variant quikquax 8' 'boardsize' 'variant quikquax 7' \
  'variant quax' 'boardsize' 'variant quady2' 'boardsize' 'variant quikquax 3x' |
  "$QUAX" gtp --variant quax --size 5 | sed -e 's/[[:space:]]*$//' | grep -v '^$')
expected='= size 6 (quikquax needs an even size, not 5)
= 6
=
= 8
? quikquax needs an even size, not 7
=
= 8
= size 9 (quady2 needs a size of the form 4k+1, not 8)
= 9
? variant takes a size as a number, e.g. variant quikquax 6'
[ "$actual" = "$expected" ] || fail "variant switching: got
$actual"

"$QUAX" gtp --help | grep -q 'variant <name> <n>' || fail "gtp --help does not tell how variant changes the size"

# Hostile lines: 10 MB without a newline gets one short refusal, not 10 MB back, and the
# session goes on; a long unknown word is quoted cut short; bytes above ASCII come back
# escaped.
long_word=$(head -c 60000 /dev/zero | tr '\0' 'x')
out=$({ head -c 10000000 /dev/zero | tr '\0' 'a'; printf '\n1 name\n%s\nplay black \377\376\n' "$long_word"; } |
  timeout 60 "$QUAX" gtp --variant quax --size 5 --player random)
rc=$?
[ $rc -eq 0 ] || fail "long lines: gtp exited with $rc"
[ ${#out} -lt 400 ] || fail "long lines: ${#out} bytes of answers"
expected="? line longer than 64 KB refused

=1 quax (random)

? unknown command '$(printf 'x%.0s' $(seq 60))'...

? '\xff\xfe' is not a move (expected e.g. c5, e2-f3, swap)"
[ "$(printf '%s\n' "$out" | sed -e 's/[[:space:]]*$//')" = "$expected" ] || fail "long lines: got
$out"
echo "ok"
