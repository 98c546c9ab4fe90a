#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job on the small default config.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
build/quax demo --variant quax --size 7 --games 2
