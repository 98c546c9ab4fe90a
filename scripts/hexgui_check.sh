#!/bin/bash
# The real HexGui (github.com/ryanbhayward/hexgui, built with Ant) drives `quax gtp` under
# Xvfb: it attaches `quax gtp --variant hex --size 11` (through a wrapper that logs both
# directions of the protocol), the engine plays a whole hex 11 game for both colours through
# HexGui's "genmove" key (m), HexGui's shell sends final_score, HexGui steps back one move
# (its undo) and runs the three analysis commands of its Analyze window; a screenshot of the
# main window shows the Visits map. docs/PLAY.md, "HexGui", says how to build HexGui.
#
# What it checks, from the protocol log and not from HexGui's own word: every command HexGui
# sent was answered "= " (a "? " would be an error dialog in HexGui), the colours HexGui asked
# for follow its rule (alternating; after swap-pieces the same colour again), no move lands
# on an occupied cell, the board HexGui shows (rebuilt from the log in HexGui's frame: the
# swap leaves the stones as they are) is won exactly at the last move, final_score names that
# winner, and each analysis answer has the form HexGui draws (cell/number pairs, a line) and
# marks only empty cells of HexGui's board.
#
# A manual check, not in the test command: HexGui is fetched from GitHub, which the machines
# that run the tests cannot always reach. A missing tool or HexGui fails with one line.
#
# Usage: scripts/hexgui_check.sh [screenshot.png]   (default ./hexgui-check.png)
# Environment: HEXGUI_JAR (default ~/.cache/quax/hexgui/lib/hexgui.jar), QUAX (default
# build/quax), LEVEL (the engine's --level, default 3), KEEP=1 keeps the work folder.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHOT=${1:-hexgui-check.png}
QUAX=${QUAX:-$ROOT/build/quax}
HEXGUI_JAR=${HEXGUI_JAR:-${XDG_CACHE_HOME:-$HOME/.cache}/quax/hexgui/lib/hexgui.jar}
LEVEL=${LEVEL:-3}
fail() { echo "hexgui_check: FAIL: $*" >&2; exit 1; }

# Debian's Python where there is one (a version manager's shim costs a second a call, and the
# referee runs after every move).
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3 || echo python3)}
for tool in java Xvfb xdotool xwd xwdtopnm pnmquant pnmtopng "$PYTHON"; do
  command -v "$tool" > /dev/null ||
    fail "$tool is missing (apt-get install --no-install-recommends default-jdk-headless xvfb xdotool x11-apps netpbm python3)"
done
[ -f "$HEXGUI_JAR" ] || fail "no HexGui at $HEXGUI_JAR (build it as docs/PLAY.md, HexGui, says, or set HEXGUI_JAR)"
[ -x "$QUAX" ] || fail "no quax binary at $QUAX (build it, or set QUAX)"

WORK=$(mktemp -d /tmp/hexgui-check.XXXXXX)
XVFB_PID=""
JAVA_PID=""
cleanup() {  # HexGui first (its engine then reads the end of its input), then Xvfb
  local pid
  for pid in "$JAVA_PID" "$XVFB_PID"; do
    if [ -n "$pid" ]; then
      kill "$pid" 2> /dev/null || true
      wait "$pid" 2> /dev/null || true
    fi
  done
  if [ "${KEEP:-0}" = 1 ]; then echo "hexgui_check: work folder $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
START=$(date +%s)

# The program HexGui attaches: the engine, both directions logged.
printf '#!/bin/bash\ntee -a %q | %q gtp --variant hex --size 11 --level %q 2>> %q | tee -a %q\n' \
  "$WORK/in.log" "$QUAX" "$LEVEL" "$WORK/engine.err" "$WORK/out.log" > "$WORK/engine.sh"
chmod +x "$WORK/engine.sh"
touch "$WORK/in.log" "$WORK/out.log"

# HexGui's preferences (java.util.prefs under user.home): its shell and Analyze window open on
# connect, and the Analyze window lists Visits, Values, Principal variation.
prefs=$WORK/home/.java/.userPrefs
write_prefs() {  # node, then key=value ...
  mkdir -p "$prefs/$1"
  {
    echo '<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
    echo '<!DOCTYPE map SYSTEM "http://java.sun.com/dtd/preferences.dtd">'
    echo '<map MAP_XML_VERSION="1.0">'
    local kv
    for kv in "${@:2}"; do echo "  <entry key=\"${kv%%=*}\" value=\"${kv#*=}\"/>"; done
    echo '</map>'
  } > "$prefs/$1/prefs.xml"
}
write_prefs hexgui/gui analyze-show-on-connect=true shell-show-on-connect=true
write_prefs net/sf/hexgui/gui/analyzedialog/recentcommands size=3 element_0=Visits element_1=Values \
  "element_2=Principal variation"

Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3> "$WORK/display" > "$WORK/xvfb.log" 2>&1 &
XVFB_PID=$!
for _ in $(seq 1 100); do [ -s "$WORK/display" ] && break; sleep 0.1; done
[ -s "$WORK/display" ] || fail "Xvfb did not start ($(tail -1 "$WORK/xvfb.log"))"
export DISPLAY=:$(tr -d '\n' < "$WORK/display")

java -Duser.home="$WORK/home" -jar "$HEXGUI_JAR" -program "$WORK/engine.sh" > "$WORK/hexgui.log" 2>&1 &
JAVA_PID=$!

# The log as HexGui's commands and the engine's answers; see referee below.
sent() { grep -c '' "$WORK/in.log" || true; }
answered() { grep -c '^$' "$WORK/out.log" || true; }  # an answer ends in its only empty line
wait_until() {  # seconds, what, test command ...
  local deadline=$(($(date +%s) + $1)) what=$2
  shift 2
  until "$@"; do
    [ "$(date +%s)" -lt $deadline ] || fail "timed out waiting for $what (HexGui: $(tail -1 "$WORK/hexgui.log"))"
    kill -0 "$JAVA_PID" 2> /dev/null || fail "HexGui exited while waiting for $what ($(tail -1 "$WORK/hexgui.log"))"
    sleep 0.1
  done
}
all_answered() { [ "$(answered)" -ge "$(sent)" ]; }
more_sent() { [ "$(sent)" -gt "$1" ]; }
window() { xdotool search --name "$1" 2> /dev/null | head -1; }
has_window() { [ -n "$(window "$1")" ]; }

# Connect: name, version, hexgui-analyze_commands, boardsize 11 11, showboard.
wait_until 60 "HexGui's connect sequence" more_sent 4
wait_until 30 "the answers to the connect sequence" all_answered
wait_until 30 "HexGui's windows" has_window '^Analyze$'
MAIN=$(window '^HexGui .* - \[quax')
SHELL_WIN=$(window '\] Shell$')
ANALYZE=$(window '^Analyze$')
[ -n "$MAIN" ] && [ -n "$SHELL_WIN" ] || fail "HexGui's main window or shell did not open"
xdotool windowmove "$ANALYZE" 1310 0  # beside the shell, which HexGui puts beside the board
sleep 0.5

# The game: focus the main window (a click on its title bar), then m (HexGui's genmove
# button) for each move until the board rebuilt from the log is won. A key pressed while
# HexGui is still busy with the last answer is dropped: pressed again after a while.
referee() { "$PYTHON" "$WORK/referee.py" "$WORK/in.log" "$WORK/out.log"; }
cat > "$WORK/referee.py" << 'EOF'
# HexGui's board from the protocol log: the commands HexGui sent and the engine's answers.
# Prints "<state> <moves> <swap> <to move>", state ongoing or the winner; exits 1 naming
# the first fault (a refusal, a colour out of turn, an occupied cell, a move after the end,
# an analysis that marks an occupied cell).
import sys
commands = [l.strip() for l in open(sys.argv[1]) if l.strip()]
answers = open(sys.argv[2]).read().split("\n\n")[:-1]
N = 11
def cell(name):
    if len(name) < 2 or not ("a" <= name[0] <= chr(96 + N)) or not name[1:].isdigit(): return None
    x, y = ord(name[0]) - 97, int(name[1:]) - 1
    return (x, y) if 0 <= y < N else None
def won(board, colour):
    # Black joins rows 1 and 11, White columns a and k (HexGui's and the engine's sides).
    start = [(x, 0) if colour == "black" else (0, x) for x in range(N)]
    todo = [c for c in start if board.get(c) == colour]
    seen = set(todo)
    while todo:
        x, y = todo.pop()
        if (y if colour == "black" else x) == N - 1: return True
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
            c = (x + dx, y + dy)
            if c not in seen and board.get(c) == colour: seen.add(c); todo.append(c)
    return False
def fault(i, why): sys.exit(f"command {i + 1} '{commands[i]}': {why}")
board, history, winner, swap = {}, [], None, "no"
for i, answer in enumerate(answers):
    words = commands[i].split()
    if not answer.startswith("= "): fault(i, f"answered '{answer}'")
    if words[0] == "boardsize": board, history, winner = {}, [], None
    elif words[0] in ("play", "genmove"):
        colour = {"b": "black", "w": "white"}.get(words[1], words[1])
        move = words[2] if words[0] == "play" else answer[2:].strip()
        to_move = "black" if not history else history[-1][2]
        if colour != to_move: fault(i, f"{colour} moves, HexGui's turn is {to_move}'s")
        if winner: fault(i, f"a move after {winner} won")
        if move == "swap-pieces":
            if len(history) != 1: fault(i, "swap-pieces is not the second move")
            history.append((None, colour, colour)); swap = "yes"  # the same colour again
        else:
            c = cell(move)
            if c is None or c in board: fault(i, f"'{move}' is not an empty cell")
            board[c] = colour
            history.append((c, colour, "white" if colour == "black" else "black"))
            if won(board, colour): winner = colour
    elif words[0] == "undo":
        c, _, _ = history.pop()
        if c: del board[c]
        winner = None
    elif words[0] in ("quax-visits", "quax-values", "quax-pv"):
        # The cells HexGui marks must be empty on its board (pairs, or the line's cells).
        named = answer[2:].split()
        named = named if words[0] == "quax-pv" else named[::2]
        for name in named:
            if cell(name) is None or cell(name) in board: fault(i, f"'{name}' is not an empty cell")
        if len(set(named)) != len(named): fault(i, "a cell twice")
to_move = "black" if not history else history[-1][2]
print(winner or "ongoing", len(history), swap, to_move)
EOF

judge() {  # the referee's verdict into STATE (state, moves, swap, to move), or the fault
  local out
  out=$(referee 2>&1) || fail "$out"
  read -r -a STATE <<< "$out"
}
PRESSES=0
press_m() {  # until HexGui sends the command (a second genmove would ask for the same colour)
  local before=$(sent) try i
  sleep 0.2  # HexGui draws the last answer and unlocks its buttons
  for try in $(seq 1 60); do
    xdotool key m
    PRESSES=$((PRESSES + 1))
    for i in $(seq 1 10); do more_sent "$before" && return 0; sleep 0.1; done
  done
  fail "HexGui sent no genmove after 60 presses of m"
}
xdotool mousemove --window "$MAIN" 450 10 click 1
sleep 0.3
GAME_START=$(date +%s)
judge
while [ "${STATE[0]}" = ongoing ]; do
  [ "${STATE[1]}" -lt 121 ] || fail "no winner after ${STATE[1]} moves"
  press_m
  wait_until 120 "the answer to $(tail -1 "$WORK/in.log")" all_answered
  judge
done
GAME_SECONDS=$(($(date +%s) - GAME_START))
winner=${STATE[0]}
moves=${STATE[1]}
swap=${STATE[2]}
grep -q '^genmove' "$WORK/in.log" || fail "HexGui sent no genmove"
[ "$(grep -c '^play ' "$WORK/in.log" || true)" = 0 ] || fail "HexGui sent play commands: the engine did not play every move"

# HexGui's shell sends final_score: the engine names the winner of HexGui's board.
geometry=$(xdotool getwindowgeometry "$SHELL_WIN" | awk '/Geometry/ { print $2 }')
xdotool mousemove --window "$SHELL_WIN" 100 $((${geometry#*x} - 8)) click 1
sleep 0.3
before=$(sent)
xdotool type --delay 20 final_score
xdotool key Return
wait_until 20 "HexGui's shell to send final_score" more_sent "$before"
wait_until 20 "the answer to final_score" all_answered
[ "$(tail -1 "$WORK/in.log")" = final_score ] || fail "the shell sent '$(tail -1 "$WORK/in.log")', not final_score"
score=$("$PYTHON" -c 'import sys; print(open(sys.argv[1]).read().split("\n\n")[-2])' "$WORK/out.log")
expected="= $([ "$winner" = black ] && echo B+ || echo W+)"
[ "$score" = "$expected" ] || fail "final_score answered '$score' where HexGui's board is won by $winner"

# One move back (HexGui's left arrow: undo), then Visits, Values and the principal
# variation from the Analyze window (a double click on each), for the winner to move.
xdotool mousemove --window "$MAIN" 450 10 click 1
sleep 0.3
before=$(sent)
xdotool key Left
wait_until 20 "HexGui's undo" more_sent $((before + 1))  # undo, then showboard
wait_until 20 "the answer to undo" all_answered
[ "$(tail -n +$((before + 1)) "$WORK/in.log" | tr '\n' ' ')" = "undo showboard " ] ||
  fail "the left arrow sent '$(tail -n +$((before + 1)) "$WORK/in.log" | tr '\n' ' ')', not undo and showboard"
judge
[ "${STATE[0]}" = ongoing ] && [ "${STATE[3]}" = "$winner" ] || fail "after undo: ${STATE[*]}"
m=${winner:0:1}
cell='[a-k]([1-9]|1[01])'
analyse() {  # row in the Analyze list, command HexGui must send, answer pattern, screenshot
  before=$(sent)
  xdotool mousemove --window "$ANALYZE" 40 $((8 + 17 * $1)) click --repeat 2 --delay 80 1
  wait_until 20 "HexGui to send $2" more_sent "$before"
  wait_until 60 "the answer to $2" all_answered
  [ "$(tail -1 "$WORK/in.log")" = "$2" ] || fail "the Analyze window sent '$(tail -1 "$WORK/in.log")', not '$2'"
  ANSWER=$("$PYTHON" -c 'import sys; print(open(sys.argv[1]).read().split("\n\n")[-2])' "$WORK/out.log")
  [[ "$ANSWER" =~ $3 ]] || fail "'$2' answered '$ANSWER'"
  sleep 1  # HexGui draws the answer
  xwd -id "$MAIN" -silent | xwdtopnm 2> /dev/null | pnmquant 64 2> /dev/null | pnmtopng > "$WORK/$4.png"
}
analyse 1 "quax-values $m" "^= $cell -?[01]\.[0-9][0-9]( $cell -?[01]\.[0-9][0-9])*$" values
analyse 2 "quax-pv $m" "^= $cell( $cell)*$" pv
analyse 0 "quax-visits $m" "^= $cell [0-9]+( $cell [0-9]+)*$" visits
visits=$ANSWER
cp "$WORK/visits.png" "$SHOT"

judge  # the analysis answers too
echo "hexgui_check: HexGui ($(basename "$HEXGUI_JAR")) drove quax gtp --level $LEVEL: $moves moves by genmove" \
  "(swap: $swap) in ${GAME_SECONDS} s ($PRESSES presses of m), $winner wins, final_score '${score#= }';" \
  "$(sent) commands, every answer '= '; analysis one move before the end: $(($(wc -w <<< "${visits#= }") / 2)) cells visited"
echo "hexgui_check: screenshot $SHOT ($(wc -c < "$SHOT") bytes), $(($(date +%s) - START)) s in all"
