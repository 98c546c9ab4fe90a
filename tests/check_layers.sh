#!/usr/bin/env bash
# The layers point one way: core -> env -> rules (rules files) -> mcts, solve -> nets, arena ->
# train -> distributed -> command, and nets, arena -> serve -> command; python.
# Fails naming every #include of a project header from a folder that may not see it.
# Usage: check_layers.sh <source dir>
set -u
cd "$1" || exit 2
declare -A allowed=(
  [core]="core"
  [env]="core env"
  [rules]="core env rules"
  [mcts]="core env mcts"
  [solve]="core env solve"
  [nets]="core env rules mcts nets"
  [arena]="core env mcts solve arena"
  [train]="core env rules mcts solve nets arena train"
  [serve]="core env rules mcts solve nets arena serve"
  [distributed]="core env rules mcts solve nets arena train distributed"
  [command]="core env rules mcts solve nets arena train serve distributed command"
  [python]="core env rules mcts solve nets arena train python"
  # The static page's engine (WebAssembly): the rules, the search and the board's views, no nets.
  [site]="core env mcts serve site"
)
status=0
for folder in "${!allowed[@]}"; do
  while IFS=: read -r file line text; do
    target=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$text")
    [[ " ${allowed[$folder]} " == *" $target "* ]] && continue
    echo "$file:$line: $folder may not include $target/ ($text)"
    status=1
  done < <(grep -rnE '^#include "[a-z_]+/' "$folder" --include='*.h' --include='*.cpp')
done
# No LibTorch below nets/.
if grep -rnE '#include <(torch|ATen|c10)/' core env mcts solve arena; then
  echo "LibTorch included below nets/"
  status=1
fi
exit $status
