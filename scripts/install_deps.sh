#!/usr/bin/env bash
# Installs the Debian packages the project builds with, only those that are missing.
set -euo pipefail
PACKAGES=(build-essential cmake libtorch-dev libyaml-cpp-dev libeigen3-dev libgtest-dev libgmock-dev
          libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev libzstd-dev libxxhash-dev)
PACKAGES+=(python3-torch)  # Debian's PyTorch for /usr/bin/python3: tests/cli/export_roundtrip.sh, examples/
# The Python module (python/) and its tests.
PACKAGES+=(python3-dev pybind11-dev python3-numpy python3-pytest)
# `quax serve` (cpp-httplib, found by pkg-config) and its browser test (headless Chromium).
PACKAGES+=(pkg-config libcpp-httplib-dev chromium chromium-driver python3-selenium)
# `quax train --distributed` and its tests (Open MPI; iproute2 makes the test hosts: network
# namespaces, tests/distributed/hosts.py).
PACKAGES+=(libopenmpi-dev openmpi-bin iproute2)
# `quax export --onnx` (PyTorch's exporter and the onnx package for /usr/bin/python3) and its
# test, which runs the files in ONNX Runtime for Node.js (tests/onnx, from the npm registry).
PACKAGES+=(python3-onnx nodejs)
# The static page (scripts/build_site.sh): the engine compiled by emscripten; ONNX Runtime Web
# from the npm registry (site/).
PACKAGES+=(emscripten)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# npm: Debian's package, unless the nodejs installed brings its own (NodeSource's does, and
# conflicts with Debian's npm).
if ! command -v npm > /dev/null; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm
fi
# ONNX Runtime for Node.js, pinned by tests/onnx/package.json and its lock file. Its install
# script only fetches GPU libraries (from outside the npm registry): skipped.
ONNX_DIR="$(cd "$(dirname "$0")/../tests/onnx" && pwd)"
if [ ! -d "$ONNX_DIR/node_modules/onnxruntime-node" ]; then
  echo "installing onnxruntime-node into tests/onnx (npm)"
  (cd "$ONNX_DIR" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
fi
# ONNX Runtime Web for the static page, pinned by site/package.json and its lock file.
SITE_DIR="$(cd "$(dirname "$0")/../site" && pwd)"
if [ ! -d "$SITE_DIR/node_modules/onnxruntime-web" ]; then
  echo "installing onnxruntime-web into site/ (npm)"
  (cd "$SITE_DIR" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
fi
