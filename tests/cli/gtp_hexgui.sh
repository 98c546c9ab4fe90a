#!/bin/bash
# `quax gtp --variant hex` driven as HexGui drives a program (HexGui's src/hexgui/gui/HexGui.java
# and htp/HtpController.java, github.com/ryanbhayward/hexgui): on connect `name`, `version`,
# `hexgui-analyze_commands`, `boardsize W H`, `showboard`; then `play <colour> <cell>` for the
# human's moves, `play <colour> swap-pieces`, `undo`, `genmove <colour>` for the engine's, with
# colours written black/white, and the analysis commands it lists, with %m replaced by the
# colour to move. HexGui takes an answer only when it begins "= " or "? " (a multi-line one
# too), so every answer's framing is checked; then a whole hex 11 game by genmove, whose moves
# must be cells or swap-pieces, ends with final_score naming the winner.
# Usage: gtp_hexgui.sh <quax binary> <source dir>
set -u
QUAX=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Connect, a human's opening and HexGui's swap, undo, analysis; then the engine plays both
# sides (HexGui's "genmove" button) until the game is over, and the score.
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
list_stones white
showboard
undo
list_stones white
undo
quax-visits black
quax-values black
quax-pv black
final_score'
for _ in $(seq 1 70); do script="$script"$'\ngenmove black\ngenmove white'; done
script="$script"$'\nfinal_score\nwinner\nshowboard\nquit'
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
expect 10 '= b3'  # swap-pieces mirrors black c2 onto white b3 (across the diagonal through a1)
expect 13 '= '
expect 14 '= '
# Analysis of the empty board for black: "cell number" pairs, "cell value" pairs, a line of cells.
[[ "${replies[15]}" =~ ^=\ ([a-k]([1-9]|1[01])\ [0-9]+)(\ [a-k]([1-9]|1[01])\ [0-9]+)*$ ]] || fail "quax-visits: '${replies[15]}'"
[[ "${replies[16]}" =~ ^=\ ([a-k]([1-9]|1[01])\ -?[01]\.[0-9][0-9])(\ [a-k]([1-9]|1[01])\ -?[01]\.[0-9][0-9])*$ ]] || fail "quax-values: '${replies[16]}'"
[[ "${replies[17]}" =~ ^=\ [a-k]([1-9]|1[01])(\ [a-k]([1-9]|1[01]))*$ ]] || fail "quax-pv: '${replies[17]}'"
expect 18 '? game is not over (no score before the end)'

# The game: every genmove a cell or swap-pieces (HexPoint.get reads both) until the end,
# then "? game is over"; the score names the winner winner names.
n=${#commands[@]}
moves=0
for ((i = 19; i < n - 4; ++i)); do
  case "${replies[$i]}" in
    "= swap-pieces") [ $moves -eq 1 ] || fail "swap-pieces at move $((moves + 1))"; moves=$((moves + 1));;
    "= "[a-k][1-9] | "= "[a-k]1[01]) moves=$((moves + 1));;
    "? game is over") break;;
    *) fail "'${commands[$i]}' answered '${replies[$i]}'";;
  esac
done
[ $moves -gt 0 ] && [ $i -lt $((n - 4)) ] || fail "the game did not end in 140 moves"
winner=${replies[n - 3]#= }
case "$winner:${replies[n - 4]}" in
  "black:= B+" | "white:= W+") ;;
  *) fail "final_score '${replies[n - 4]}' with winner '$winner'";;
esac
expect $((n - 2)) "glob:*$winner wins*"
echo "hex 11 by genmove: $moves moves, $winner wins (${replies[n - 4]})"
echo "ok"
