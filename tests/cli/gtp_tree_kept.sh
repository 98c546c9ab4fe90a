#!/bin/bash
# `quax gtp` keeps its search tree across `undo` and drops it at `clear_board`. A genmove whose
# root carries Dirichlet noise leaves a tree unlike the noise-free search of analysis; asked
# for analysis at that same position after `undo`, the engine shows the kept tree (its
# visits already reach the budget), not a fresh search. After `clear_board` it searches afresh
# and shows what an engine that never played shows.
# Usage: gtp_tree_kept.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }
PLAYER="$SRC/checkpoints/hex-11.pt:sims=300:dirichlet_fraction=0.5:stop_when_settled=false"

# The answer number $2 (from 1) of the commands in $1, one line per command.
answer() {
  printf '%s\nquit\n' "$1" | "$QUAX" gtp --variant hex --size 11 --player "$PLAYER" --seed 3 2> /dev/null |
    awk -v n="$2" 'BEGIN { RS = "" } NR == n { print; exit }'
}
visit_sum() { tr ' ' '\n' <<< "${1#= }" | awk 'NR % 2 == 0 { s += $1 } END { print s + 0 }'; }

fresh=$(answer $'pie off\nquax-visits b' 2)
kept=$(answer $'pie off\ngenmove b\nundo\nquax-visits b' 4)
cleared=$(answer $'pie off\ngenmove b\nclear_board\nquax-visits b' 4)
[[ "$fresh" =~ ^=\ [a-k] ]] || fail "quax-visits on the empty board: '$fresh'"
[ "$(visit_sum "$fresh")" -eq 300 ] || fail "a fresh analysis of 300 simulations shows $(visit_sum "$fresh") visits"
[ "$(visit_sum "$kept")" -eq 300 ] || fail "the analysis after undo shows $(visit_sum "$kept") visits, not the 300 kept"
[ "$kept" != "$fresh" ] || fail "after undo the analysis is a fresh search: the genmove's tree was dropped"
[ "$cleared" = "$fresh" ] || fail "after clear_board the analysis is not a fresh search: '$cleared' against '$fresh'"
echo "ok"
