#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job: training quax 5x5 from
# configs/quickstart.yaml (under 10 minutes on 2 cores), then a short evaluation of the
# trained model against random and uct:200 in the arena.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
run="runs/quickstart-$(date +%Y%m%d-%H%M%S)"
build/quax train --config configs/quickstart.yaml --run "$run"
echo
echo "evaluation of $run/model.pt (64 simulations per move), colour-balanced:"
build/quax arena --variant quax --size 5 --players "$run/model.pt:sims=64,random,uct:200" --games 20 \
  --anchor random --results "$run/arena.jsonl"
echo
echo "play it: build/quax play --size 5 --model $run/model.pt"
