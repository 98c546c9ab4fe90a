#!/bin/bash
# `quax gtp` with turns of several actions: the same colour plays again until its turn ends
# (quikquax's 1-3-4 stones, stymie's `end`, torax's auction), errors name the rule, undo
# takes back one action, and genmove answers inside a turn.
# Usage: multi_gtp.sh <quax binary> <source dir>
set -u
QUAX=$1
fail() { echo "FAIL: $*"; exit 1; }

input='boardsize 6
variant quikquax
play black c1
to_move
play white f1
to_move
play white f2
play white a6
play white f6
to_move
play black c2-d3
undo
to_move
list_stones white
variant stymie
boardsize 3
play black b2
play white a1+
to_move
legal_moves
play black b1
play white end
to_move
variant torax
boardsize 5
play black c3
play black e5
to_move
play black adopt
play black end
play white adopt
to_move
play black a1
play white e5-a1
to_move
list_stones white
pie on
quit'

expected='=

=

=

= white

=

= white

? illegal move: f2: the south-east quadrant already holds a stone of this turn

=

=

= black

? '"'"'c2-d3'"'"': quikquax has only stone placements (links are automatic, no swap)

=

= white

= f1 a6

=

=

=

=

= white

= a1 b1 a2 end

? it is white'"'"'s turn, not black'"'"'s

=

= black

=

=

=

=

= black

? illegal move: adopt: only before placing blocks in a turn

=

=

= black

=

? illegal move: a1-e5: both cells must hold white stones

= white

= c3 e5

? torax has no pie rule (the auction replaces it): set swap off

='

actual=$(printf '%s\n' "$input" | "$QUAX" gtp --variant quax --size 5)
rc=$?
[ $rc -eq 0 ] || fail "gtp exited with $rc"
norm() { sed -e 's/[[:space:]]*$//'; }
diff <(printf '%s\n' "$expected" | norm) <(printf '%s\n' "$actual" | norm) || fail "answers differ (expected <, actual >)"

# genmove inside a turn: a quikquax player's second stone keeps the turn, then a 3-stone turn
# of random moves ends with the other colour to move.
out=$(printf 'boardsize 6\nvariant quikquax\ngenmove black\ngenmove white\nto_move\ngenmove white\ngenmove white\nto_move\nquit\n' |
      "$QUAX" gtp --player random --seed 3 | grep -v '^$')
[ "$(printf '%s\n' "$out" | sed -n 5p)" = "= white" ] || fail "after one of three stones white should still move: $out"
[ "$(printf '%s\n' "$out" | sed -n 8p)" = "= black" ] || fail "after three stones black should move: $out"
echo "ok"
