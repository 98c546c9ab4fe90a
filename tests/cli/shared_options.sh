#!/usr/bin/env bash
# The options every door shares (command/game_spec_option.h, command/player_options.h): declared
# in those helpers only, and each takes one range and gives one error line in every command.
# Usage: shared_options.sh <quax binary> <source dir>
set -uo pipefail
QUAX=$1
SRC=$2
fail() { echo "FAIL: $*"; exit 1; }

# Declared nowhere else.
for option in --variant --size --swap --model --sims --player --level --time; do
  found=$(grep -ln "\"$option\"" "$SRC"/command/*.cpp "$SRC"/serve/*.cpp |
    grep -v -e command/game_spec_option.cpp -e command/player_options.cpp)
  [ -z "$found" ] || fail "$option declared outside the shared helpers: $found"
done

# Baseline descriptions (uct:N, mcts:N) are read in one place (mcts/baseline_agents.cpp).
found=$(grep -rln -e 'rfind("uct:"' -e 'rfind("mcts:"' -e '"mcts:") == 0' "$SRC"/{core,env,mcts,solve,nets,arena,train,command,serve,distributed,python} 2>/dev/null |
  grep -v mcts/baseline_agents.cpp)
[ -z "$found" ] || fail "baseline descriptions read outside mcts/baseline_agents.cpp: $found"

# One range of --sims in every door that takes it: the largest value passes the parse (the
# command then fails on its missing files or its unknown variant, not on --sims: nothing
# searches), one more is refused naming --sims.
for door in "gtp --model m.pt" "balance" "ladder no-run" "perfect-check --model m.pt --positions p" \
  "bench search --variant nosuch" "bench strength"; do
  # shellcheck disable=SC2086
  out=$(timeout 60 "$QUAX" $door --sims 10000001 2>&1 < /dev/null) && fail "$door accepted --sims 10000001"
  [ "$out" = "quax ${door%% --*}: --sims: Value 10000001 not in range 1 to 10000000 (see quax ${door%% --*} --help)" ] ||
    case "$door" in
      "ladder no-run") [ "$out" = "quax ladder: --sims: Value 10000001 not in range 1 to 10000000 (see quax ladder --help)" ] ||
        fail "$door: $out" ;;
      *) fail "$door: $out" ;;
    esac
  # shellcheck disable=SC2086
  out=$(timeout 60 "$QUAX" $door --sims 10000000 2>&1 < /dev/null)
  [ $? != 124 ] || fail "$door --sims 10000000 did not stop"
  case "$out" in *"--sims"*) fail "$door refused --sims 10000000: $out" ;; esac
done

# --variant and --size: the same one-line refusal in every door that takes them.
for door in gtp play solve analysis demo "bench search"; do
  # shellcheck disable=SC2086
  out=$("$QUAX" $door --variant nosuch 2>&1 < /dev/null) && fail "$door accepted --variant nosuch"
  [ "$(echo "$out" | wc -l)" = 1 ] && case "$out" in "quax $door: unknown variant 'nosuch' (known: quax,"*) true ;; *) false ;; esac ||
    fail "$door --variant nosuch: $out"
  # shellcheck disable=SC2086
  out=$("$QUAX" $door --variant quax --size 2 2>&1 < /dev/null) && fail "$door accepted --size 2"
  [ "$(echo "$out" | wc -l)" = 1 ] && case "$out" in "quax $door: "*"quax"*"2"*) true ;; *) false ;; esac ||
    fail "$door --size 2: $out"
done
echo "ok"
