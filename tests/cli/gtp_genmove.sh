#!/bin/bash
# `quax gtp` as an interactive engine: every answer is flushed at once (the script waits for
# each before sending the next), genmove plays a listed legal move, games run to one winner.
# Usage: gtp_genmove.sh <quax binary> <source dir>
set -u
QUAX=$1
fail() { echo "FAIL: $*"; exit 1; }

for variant in quax link quickway crossway quadrex; do
  coproc ENGINE { "$QUAX" gtp --variant "$variant" --size 5 --player random --seed 7; }
  engine_pid=$ENGINE_PID  # bash may unset ENGINE_PID once the engine has exited
  # Sends one command and sets REPLY_TEXT to the answer without its `= `, failing on `?`.
  ask() {
    echo "$1" >&"${ENGINE[1]}"
    local line answer="" first=1
    while IFS= read -r -t 10 line <&"${ENGINE[0]}"; do
      [ -z "$line" ] && break
      if [ $first -eq 1 ]; then answer=$line; first=0; else answer="$answer"$'\n'"$line"; fi
    done
    [ $first -eq 0 ] || fail "$variant: no answer to '$1'"
    STATUS=${answer:0:1}
    REPLY_TEXT=${answer:2}
  }
  ask "genmove white"
  [ "$STATUS" = "?" ] || fail "$variant: genmove white accepted on black's turn"
  plies=0
  while true; do
    ask "to_move"; mover=$REPLY_TEXT
    [ "$mover" = none ] && break
    ask "legal_moves"; legal=" $REPLY_TEXT "
    ask "genmove $mover"
    [ "$STATUS" = "=" ] || fail "$variant: genmove $mover failed: $REPLY_TEXT"
    case "$legal" in *" $REPLY_TEXT "*) ;; *) fail "$variant: genmove answered '$REPLY_TEXT', not in [$legal]";; esac
    plies=$((plies + 1))
    [ $plies -le 200 ] || fail "$variant: game did not end"
  done
  ask "winner"
  case "$REPLY_TEXT" in black|white) ;; *) fail "$variant: winner '$REPLY_TEXT' after $plies plies";; esac
  ask "legal_moves"
  [ -z "$REPLY_TEXT" ] || fail "$variant: legal moves after the end: $REPLY_TEXT"
  ask "genmove black"
  [ "$STATUS$REPLY_TEXT" = "?game is over" ] || fail "$variant: genmove after the end: $STATUS $REPLY_TEXT"
  # Undo takes back the winning move: the game is on again with the same player to move.
  ask "undo"
  ask "winner"
  [ "$REPLY_TEXT" = none ] || fail "$variant: winner after undo is '$REPLY_TEXT'"
  ask "quit"
  wait "$engine_pid" || fail "$variant: gtp exited with $?"
  echo "$variant: $plies plies"
done
echo "ok"
