#!/bin/bash
# `quax gtp` under a clock (time_settings, time_left): genmove spends a share of the time left
# instead of its fixed simulations, and a whole hex 11 game (the shipped model, both colours)
# never takes more than each colour's clock, measured from outside around every genmove.
# Usage: gtp_clock.sh <quax binary> <source dir>
set -u
QUAX=$1
fail() { echo "FAIL: $*"; exit 1; }
now() { date +%s.%N; }
seconds_since() { echo "$(now) - $1" | bc -l; }
less() { [ "$(echo "$1 < $2" | bc -l)" = 1 ]; }

start_engine() {
  coproc ENGINE { "$QUAX" gtp "$@" 2> /dev/null; }
  engine_pid=$ENGINE_PID
}
# Sends one command; STATUS is = or ?, REPLY_TEXT the rest of the answer, TOOK its seconds.
ask() {
  local t0
  t0=$(now)
  echo "$1" >&"${ENGINE[1]}"
  local line answer="" first=1
  while IFS= read -r -t 60 line <&"${ENGINE[0]}"; do
    [ -z "$line" ] && break
    if [ $first -eq 1 ]; then answer=$line; first=0; else answer="$answer"$'\n'"$line"; fi
  done
  [ $first -eq 0 ] || fail "no answer to '$1'"
  TOOK=$(seconds_since "$t0")
  STATUS=${answer:0:1}
  REPLY_TEXT=${answer:2}
}
stop_engine() { ask quit; wait "$engine_pid" || fail "gtp exited with $?"; }

start_engine --variant hex
ask "name"  # reads the shipped models' cards
# Refusals leave the clock off.
ask "time_settings 5 x 0"; [ "$STATUS" = "?" ] || fail "time_settings 5 x 0 accepted"
ask "time_left blue 5 0"; [ "$STATUS" = "?" ] || fail "time_left blue accepted"
ask "time_left black -1 0"; [ "$STATUS" = "?" ] || fail "time_left -1 accepted"

# 5 seconds a side, sudden death: a whole game.
ask "time_settings 5 0 0"; [ "$STATUS$REPLY_TEXT" = "=" ] || fail "time_settings 5 0 0: $STATUS $REPLY_TEXT"
spent_black=0; spent_white=0; moves=0; longest=0
while true; do
  ask "to_move"; mover=$REPLY_TEXT
  [ "$mover" = none ] && break
  ask "genmove $mover"
  [ "$STATUS" = "=" ] || fail "genmove $mover: $REPLY_TEXT"
  if [ "$mover" = black ]; then spent_black=$(echo "$spent_black + $TOOK" | bc -l); else spent_white=$(echo "$spent_white + $TOOK" | bc -l); fi
  less "$longest" "$TOOK" && longest=$TOOK
  moves=$((moves + 1))
  [ $moves -le 121 ] || fail "the game did not end"
done
ask "final_score"; score=$REPLY_TEXT
printf 'hex 11 game under 5 s a side: %d moves, black %.2f s, white %.2f s, longest move %.2f s, %s\n' \
  "$moves" "$spent_black" "$spent_white" "$longest" "$score"
less "$spent_black" 5 || fail "black spent $spent_black s of a 5 s clock"
less "$spent_white" 5 || fail "white spent $spent_white s of a 5 s clock"
# It used the clock, not a fixed 200 simulations: much of it is spent even in a short game
# (46 moves once spent 0.94 s when every empty cell was taken for a move still to come).
less 2 "$spent_black" || fail "black spent only $spent_black s of 5"
stop_engine

# A long clock buys a long first move (its share: 60 s over the 24 moves black is guessed
# still to make, 0.4 of the 121 cells halved); time_left then says 2 s are left, and the move
# after keeps well within them.
start_engine --variant hex
ask "time_settings 60 0 0"
ask "genmove black"; first=$TOOK
less 1.2 "$first" && less "$first" 3 || fail "first move under 60 s took $first s"
ask "time_left white 2 0"
ask "genmove white"; second=$TOOK
less "$second" 0.5 || fail "a move with 2 s left took $second s"
# Byo-yomi: no main time, 1 s for every 5 moves: 5 moves in less than 1 s together.
ask "time_settings 0 1 5"
total=0
for c in black white black white black; do ask "genmove $c"; [ "$STATUS" = "=" ] || fail "byo-yomi genmove: $REPLY_TEXT"; total=$(echo "$total + $TOOK" | bc -l); done
less "$total" 1 || fail "5 moves of a 1 s byo-yomi period took $total s"
# GTP: byo-yomi time with no stones is no time limit at all; genmove plays its own size again.
ask "time_settings 0 10 0"; [ "$STATUS" = "=" ] || fail "time_settings 0 10 0: $REPLY_TEXT"
ask "genmove white"; [ "$STATUS" = "=" ] || fail "genmove without a limit: $REPLY_TEXT"
printf 'first move of 60 s: %.2f s; with 2 s left: %.2f s; 5 byo-yomi moves of 1 s: %.2f s\n' "$first" "$second" "$total"
stop_engine
echo "ok"
