#!/bin/bash
# `quax gtp --model`: a model made on the fly (tiny training run, then quax export) answers
# a scripted session: every genmove is a listed legal move, the stones and the board agree
# with the moves, undo takes a move back, a change of board size plays on with one warning
# line on stderr (the model was trained on 5x5 only), a change of variant is answered with an
# error naming both games (and play resumes when the game is back), --time plays too.
# Usage: gtp_model.sh <quax binary> <source dir>
set -u
QUAX=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

source "$2/tests/cli/lib/tiny_run.sh"
tiny_run "$QUAX" "$DIR" 5 10 || fail "tiny training run"
"$QUAX" export --checkpoint "$DIR/r/checkpoints/ckpt-0000000010.pt" --out "$DIR/m.pt" > /dev/null || fail "export"

for mode in "--sims 24" "--time 0.05"; do
  coproc ENGINE { "$QUAX" gtp --size 5 --model "$DIR/m.pt" $mode 2> "$DIR/err"; }
  engine_pid=$ENGINE_PID
  ask() {
    echo "$1" >&"${ENGINE[1]}"
    local line answer="" first=1
    while IFS= read -r -t 30 line <&"${ENGINE[0]}"; do
      [ -z "$line" ] && break
      if [ $first -eq 1 ]; then answer=$line; first=0; else answer="$answer"$'\n'"$line"; fi
    done
    [ $first -eq 0 ] || fail "$mode: no answer to '$1'"
    STATUS=${answer:0:1}
    REPLY_TEXT=${answer:2}
  }
  ask "name"
  [ "$STATUS$REPLY_TEXT" = "=quax (m.pt)" ] || fail "$mode: name said $REPLY_TEXT"
  # The engine plays both sides; after each genmove its stone (or link) is on the board.
  plies=0
  checked=0
  while true; do
    ask "to_move"; mover=$REPLY_TEXT
    [ "$mover" = none ] && break
    ask "legal_moves"; legal=" $REPLY_TEXT "
    ask "genmove $mover"
    [ "$STATUS" = "=" ] || fail "$mode: genmove $mover failed: $REPLY_TEXT"
    move=$REPLY_TEXT
    case "$legal" in *" $move "*) ;; *) fail "$mode: genmove answered '$move', not in [$legal]";; esac
    case "$move" in
      [a-e][1-5])
        ask "list_stones $mover"
        case " $REPLY_TEXT " in *" $move "*) ;; *) fail "$mode: $move is not among $mover's stones: $REPLY_TEXT";; esac;;
    esac
    if [ $plies -eq 2 ] && [ $checked -eq 0 ]; then  # undo, and a board of another size
      checked=1
      ask "undo"
      ask "to_move"
      [ "$REPLY_TEXT" = "$mover" ] || fail "$mode: after undo $REPLY_TEXT is to move, not $mover"
      ask "genmove $mover"
      [ "$STATUS" = "=" ] || fail "$mode: genmove after undo failed: $REPLY_TEXT"
      ask "boardsize 6"
      ask "legal_moves"; legal6=" $REPLY_TEXT "
      ask "genmove black"
      [ "$STATUS" = "=" ] || fail "$mode: genmove on 6x6 failed: $REPLY_TEXT"
      case "$legal6" in *" $REPLY_TEXT "*) ;; *) fail "$mode: genmove on 6x6 answered '$REPLY_TEXT', not in [$legal6]";; esac
      [ "$(cat "$DIR/err")" = "warning: model '$DIR/m.pt' was trained on quax 5x5, not 6x6; it plays that size untested" ] ||
        fail "$mode: stderr after genmove on 6x6: '$(cat "$DIR/err")'"
      ask "variant quickway"
      ask "genmove black"
      [ "$STATUS$REPLY_TEXT" = "?the model is for quax 5x5, not quickway 6x6" ] ||
        fail "$mode: genmove in quickway said '$STATUS$REPLY_TEXT'"
      ask "variant quax"
      ask "boardsize 5"
      plies=0
      continue
    fi
    plies=$((plies + 1))
    [ $plies -le 80 ] || fail "$mode: game did not end"
  done
  ask "winner"
  winner=$REPLY_TEXT
  case "$winner" in black|white) ;; *) fail "$mode: winner '$winner' after $plies plies";; esac
  ask "genmove black"
  [ "$STATUS$REPLY_TEXT" = "?game is over" ] || fail "$mode: genmove after the end: $STATUS $REPLY_TEXT"
  ask "quit"
  wait "$engine_pid" || fail "$mode: gtp exited with $?"
  echo "$mode: $plies plies, winner $winner"
done

# Option errors: one line, non-zero exit.
err=$("$QUAX" gtp --size 5 --model "$DIR/m.pt" --sims 0 2>&1 < /dev/null) && fail "--sims 0 accepted"
err=$("$QUAX" gtp --size 5 --model "$DIR/m.pt:sims=abc" 2>&1 < /dev/null) && fail "sims=abc accepted"
[ "$err" = "quax gtp: bad player '$DIR/m.pt:sims=abc': sims takes 1 to 10000000" ] || fail "sims=abc said '$err'"
echo "ok"
