#!/bin/bash
# `quax gtp` without --model or --player plays the variant's shipped model (not a random
# player), and a change of variant or size takes that game's shipped model, --level kept;
# a model the user named stays (and refuses another variant). name and version say who plays.
# Usage: gtp_default_model.sh <quax binary> <source dir>
set -u
QUAX=$1
fail() { echo "FAIL: $*"; exit 1; }
answers() { "$QUAX" gtp "$@" 2> /dev/null | sed -e 's/[[:space:]]*$//' | grep -v '^$' | tr '\n' '|'; }

# No flags: quax at its default size, the shipped model that plays it.
out=$(printf 'name\nboardsize 7\nname\ngenmove black\n' | answers)
case "$out" in
  "= quax (quax-11.pt)|=|= quax (quax-7.pt)|= "[a-g][1-7]"|") ;;
  *) fail "no flags: $out";;
esac
# --variant hex: hex's model, its step in version.
out=$(printf 'name\nversion\n' | answers --variant hex)
case "$out" in "= quax (hex-11.pt)|= 0.1 (model step "[0-9]*")|") ;; *) fail "--variant hex: $out";; esac

# --level 10, then `variant hex 11`: hex's model at level 10 plays (it used to be refused:
# "the model is for quax 11x11, 9x9, not hex 11x11"), and back to quax takes quax's again.
out=$(printf 'variant hex 11\nname\ngenmove black\nvariant quax 7\nname\ngenmove black\n' | answers --level 10)
case "$out" in
  "=|= quax (hex-11.pt)|= "[a-k]*"|=|= quax (quax-7.pt)|= "[a-g][1-7]"|") ;;
  *) fail "--level 10 then variant hex 11: $out";;
esac
# The level is the one asked for: level 1 plays the policy's draw, so two seeds may differ,
# and it still takes hex's model after the switch.
out=$(printf 'variant hex 11\nname\ngenmove black\n' | answers --level 1)
case "$out" in "=|= quax (hex-11.pt)|= "[a-k]*"|") ;; *) fail "--level 1 then variant hex 11: $out";; esac

# A model the user named is kept: another variant is refused with both games named.
out=$(printf 'variant hex 11\nname\ngenmove black\n' | answers --model "$2/checkpoints/quax-11.pt" --sims 8)
[ "$out" = "=|= quax (quax-11.pt)|? the model is for quax 11x11, 9x9, not hex 11x11|" ] || fail "--model quax-11.pt: $out"
# A baseline named on the command line: name says it.
out=$(printf 'name\nversion\n' | answers --player random)
[ "$out" = "= quax (random)|= 0.1|" ] || fail "--player random: $out"
echo "ok"
