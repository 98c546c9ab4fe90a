#!/bin/bash
# `quax gtp --variant hex` driven as HexGui drives a program (HexGui's src/hexgui/gui/HexGui.java
# and htp/HtpController.java, github.com/ryanbhayward/hexgui): on connect `name`, `version`,
# `hexgui-analyze_commands`, `boardsize W H`, `showboard`; then `play <colour> <cell>` for the
# human's moves, `play <colour> swap-pieces`, `undo`, `genmove <colour>` for the engine's, with
# colours written black/white, and the analysis commands it lists, with %m replaced by b or w,
# the colour to move. HexGui takes an answer only when it begins "= " or "? " (a multi-line one
# too), so every answer's framing is checked. HexGui's swap keeps its board as it was (the
# swapped stone where it stood, in Black's colour) and White moves again (HexGui.java,
# play() and determineColorToMove()); the engine's swap mirrors the stone and Black moves, so
# after a swap in HexGui's words every colour and cell crosses that symmetry: the second
# block plays through it (a left-right chain of White's in HexGui's words must win as White,
# through the engine's own win detection). Then a whole hex 11 game by genmove with the
# colours HexGui asks for (after swap-pieces the same colour again), the last mover the winner
# that final_score names.
# Usage: gtp_hexgui.sh <quax binary> <source dir>
set -u
QUAX=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Connect, a human's opening and HexGui's swap, undo, analysis (HexGui writes %m as b or w).
script='name
version
hexgui-analyze_commands
boardsize 11 11
showboard
boardsize 11 9
boardsize 11 11
showboard
play black c2
play white swap-pieces
list_stones black
showboard
undo
list_stones white
undo
quax-visits b
quax-values b
quax-pv b
final_score
quit'
printf '%s\n' "$script" | "$QUAX" gtp --variant hex > "$DIR/out" 2> "$DIR/err" || fail "gtp exited with $? ($(cat "$DIR/err"))"

# One answer per command, each ending in an empty line, none empty inside.
mapfile -t commands < <(printf '%s\n' "$script")
answers=$(awk 'BEGIN { RS = ""; FS = "\n" } { line = $1; for (i = 2; i <= NF; ++i) line = line "|" $i; print line }' "$DIR/out")
mapfile -t replies <<< "$answers"
[ "${#replies[@]}" -eq "${#commands[@]}" ] || fail "${#replies[@]} answers to ${#commands[@]} commands"
for i in "${!commands[@]}"; do
  case "${replies[$i]}" in
    "= "* | "? "*) ;;
    *) fail "answer to '${commands[$i]}' does not begin '= ' or '? ': '${replies[$i]}'";;
  esac
done
# The raw bytes too: every answer's first line begins "= " or "? ", and ends with "\n\n".
awk 'BEGIN { RS = "" } { if (substr($0, 1, 2) != "= " && substr($0, 1, 2) != "? ") { print "bad: " $0; exit 1 } }' "$DIR/out" ||
  fail "an answer's first line is not '= ...' or '? ...'"
[ "$(tail -c 2 "$DIR/out" | od -An -c | tr -d ' ')" = '\n\n' ] || fail "the last answer does not end in an empty line"

expect() {  # index, expected answer (| between lines), or a glob with 'glob:'
  local got=${replies[$1]}
  case "$2" in
    glob:*) case "$got" in ${2#glob:}) return;; esac ;;
    *) [ "$got" = "$2" ] && return ;;
  esac
  fail "'${commands[$1]}' answered '$got', expected '$2'"
}
expect 0 'glob:= quax (hex-11.pt)'
expect 1 'glob:= 0.1 (model step [0-9]*)'
expect 2 '= pspairs/Visits/quax-visits %m|pspairs/Values/quax-values %m|var/Principal variation/quax-pv %m'
expect 3 '= '
expect 4 'glob:=  * a b c d e f g h i j k|*11 . . . . . . . . . . . 11|*black to move'
expect 5 "? boardsize 11 9 refused: hex boards are N x N (width and height equal)"
expect 6 '= '
expect 8 '= '
expect 9 '= '
expect 10 '= c2'  # HexGui's swap leaves black c2 where it stands (the engine holds white b3)
# HexGui's board: black c2 where it stood, White to move again.
expect 11 'glob:*|  2 . . V . . . . . . . . 2|*|white to move'
expect 13 '= '
expect 14 '= '
# Analysis of the empty board for black: "cell number" pairs, "cell value" pairs, a line of cells.
[[ "${replies[15]}" =~ ^=\ ([a-k]([1-9]|1[01])\ [0-9]+)(\ [a-k]([1-9]|1[01])\ [0-9]+)*$ ]] || fail "quax-visits: '${replies[15]}'"
[[ "${replies[16]}" =~ ^=\ ([a-k]([1-9]|1[01])\ -?[01]\.[0-9][0-9])(\ [a-k]([1-9]|1[01])\ -?[01]\.[0-9][0-9])*$ ]] || fail "quax-values: '${replies[16]}'"
[[ "${replies[17]}" =~ ^=\ [a-k]([1-9]|1[01])(\ [a-k]([1-9]|1[01]))*$ ]] || fail "quax-pv: '${replies[17]}'"
expect 18 '? game is not over (no score before the end)'

expect 19 '= '

# Then one engine at a time, one command at a time, as HexGui sends them.
start_engine() {
  coproc ENGINE { "$QUAX" gtp --variant hex 2>> "$DIR/err"; }
  engine_pid=$ENGINE_PID
}
# Sends one command; ANSWER is its answer (lines joined by |).
ask() {
  echo "$1" >&"${ENGINE[1]}"
  local line first=1
  ANSWER=""
  while IFS= read -r -t 120 line <&"${ENGINE[0]}"; do
    [ -z "$line" ] && break
    if [ $first -eq 1 ]; then ANSWER=$line; first=0; else ANSWER="$ANSWER|$line"; fi
  done
  [ $first -eq 0 ] || fail "no answer to '$1' ($(cat "$DIR/err"))"
}
must() {  # command, expected answer or glob:pattern
  ask "$1"
  case "$2" in
    glob:*) case "$ANSWER" in ${2#glob:}) return;; esac ;;
    *) [ "$ANSWER" = "$2" ] && return ;;
  esac
  fail "'$1' answered '$ANSWER', expected '$2'"
}
stop_engine() { ask quit; wait "$engine_pid" || fail "gtp exited with $?"; }

# HexGui's frame after its swap. White (the first player now) moves again; a refusal names
# HexGui's colours; White's moves and Black's land where HexGui puts them; undo of the swap
# returns to the engine's own frame; a chain of White's from column a to column k, in
# HexGui's words, wins for White by the engine's rules (the engine holds it as Black's
# chain from row 1 to row 11 after the mirror).
start_engine
must "hexgui-analyze_commands" "glob:= pspairs/Visits/*"
must "play black c2" "= "
must "play white swap-pieces" "= "
must "to_move" "= white"
must "play black d4" "? it is white's turn, not black's"
must "quax-visits b" "? it is white's turn, not black's"
ask "quax-visits w"
[[ "$ANSWER" =~ ^=\ [a-k]([1-9]|1[01])\ [0-9]+ ]] || fail "quax-visits w after the swap: '$ANSWER'"
case " ${ANSWER#= } " in *" c2 "*) fail "quax-visits w lists HexGui's occupied c2: '$ANSWER'";; esac
must "play white c2" "glob:? illegal move: *c2*"
must "play white f6" "= "
must "list_stones white" "= f6"
must "list_stones black" "= c2"
must "to_move" "= black"
must "showboard" "glob:*|      6 . . . . . H . . . . . 6|*|  2 . . V . . . . . . . . 2|*|black to move"
ask "genmove black"
[[ "$ANSWER" =~ ^=\ [a-k]([1-9]|1[01])$ ]] || fail "genmove black after the swap: '$ANSWER'"
played=${ANSWER#= }
[ "$played" != c2 ] && [ "$played" != f6 ] || fail "genmove black played on the occupied $played"
must "list_stones black" "glob:= *$played*"
must "undo" "= "
must "undo" "= "
must "list_stones white" "= "
must "list_stones black" "= c2"
must "undo" "= "
must "to_move" "= white"
must "list_stones black" "= c2"
must "list_stones white" "= "
must "play white swap-pieces" "= "
must "to_move" "= white"
for col in a b c d e f g h i j; do
  must "play white ${col}6" "= "
  must "winner" "= none"
  must "play black ${col}1" "= "
done
must "play white k6" "= "
must "winner" "= white"
must "final_score" "= W+"
must "genmove black" "? game is over"
stop_engine

# A whole hex 11 game by genmove: each genmove for the colour HexGui would ask, a cell or
# swap-pieces (HexPoint.get reads both), until "? game is over"; the last mover wins.
start_engine
must "hexgui-analyze_commands" "glob:= pspairs/Visits/*"
must "boardsize 11 11" "= "
colour=black
moves=0
swapped=no
last=""
while :; do
  ask "genmove $colour"
  case "$ANSWER" in
    "= swap-pieces") [ $moves -eq 1 ] || fail "swap-pieces at move $((moves + 1))"; swapped=yes; last=$colour;;
    "= "[a-k][1-9] | "= "[a-k]1[01]) last=$colour; [ $colour = black ] && colour=white || colour=black;;
    "? game is over") break;;
    *) fail "'genmove $colour' answered '$ANSWER' at move $((moves + 1))";;
  esac
  moves=$((moves + 1))
  [ $moves -le 122 ] || fail "the game did not end in 122 moves"
done
[ $moves -gt 0 ] || fail "no move played"
ask "final_score"; score=$ANSWER
ask "winner"; winner=${ANSWER#= }
case "$winner:$score:$last" in
  "black:= B+:black" | "white:= W+:white") ;;
  *) fail "final_score '$score', winner '$winner', last mover '$last'";;
esac
must "showboard" "glob:*$winner wins*"
stop_engine
echo "hex 11 by genmove: $moves moves (swap: $swapped), $winner wins (${score#= })"
echo "ok"
