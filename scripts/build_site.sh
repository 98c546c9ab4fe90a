#!/usr/bin/env bash
# Builds the static page: the whole engine in the browser, no server (docs/PLAY.md).
#   scripts/build_site.sh [OUT] [MODEL ...]
# OUT (default build/site) gets index.html and the board's scripts (web/, the same files as
# `quax serve`'s page), page_backend.js (site/web), the engine compiled to WebAssembly
# (quax_engine.js/.wasm, from site/engine by Debian's emscripten), ONNX Runtime Web (ort/, from
# site/node_modules: `npm ci` there, which scripts/install_deps.sh runs; its WebAssembly
# gzip-compressed) and models/: each
# shipped checkpoint (or each MODEL named, e.g. hex-11 quax-11) exported by `build/quax export
# --onnx` at every size it was trained on, with int8 convolutions (--onnx-int8, what the page
# plays) and in float32 (?network=fp32), with models.json (names, sizes, files, descriptions).
# Needs build/quax (scripts/build.sh). Host OUT with any static file server.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/build/site}
shift || true
QUAX=${QUAX:-$ROOT/build/quax}
WASM_BUILD=${WASM_BUILD:-$ROOT/build/site-wasm}
JOBS=${JOBS:-2}
fail() { echo "build_site.sh: $*" >&2; exit 1; }

command -v emcmake > /dev/null || fail "emscripten is missing: scripts/install_deps.sh installs it (apt package emscripten)"
[ -x "$QUAX" ] || fail "$QUAX is missing: scripts/build.sh builds it"
ORT=$ROOT/site/node_modules/onnxruntime-web/dist
[ -f "$ORT/ort.wasm.min.js" ] || fail "ONNX Runtime Web is missing: run 'npm ci --ignore-scripts' in site/ (scripts/install_deps.sh does)"

# The engine. Debian's emscripten runs its optimizer with Debian's acorn (/usr/share/nodejs).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
if [ ! -f "$WASM_BUILD/CMakeCache.txt" ]; then
  emcmake cmake -S "$ROOT/site/engine" -B "$WASM_BUILD" -DCMAKE_BUILD_TYPE=Release > "$WASM_BUILD.log" 2>&1 ||
    { cat "$WASM_BUILD.log"; fail "configuring the WebAssembly build failed"; }
fi
cmake --build "$WASM_BUILD" -j "$JOBS" > "$WASM_BUILD.log" 2>&1 || { tail -40 "$WASM_BUILD.log"; fail "the WebAssembly build failed"; }

mkdir -p "$OUT/ort" "$OUT/models"
# The page: the server's index.html with the engine's scripts before the board's own.
sed -e 's|<title>quax board</title>|<title>quax board (in the browser)</title>|' \
    -e 's|  <script src="board.js" defer></script>|  <script src="ort/ort.wasm.min.js" defer></script>\n  <script src="quax_engine.js" defer></script>\n  <script src="page_backend.js" defer></script>\n&|' \
    "$ROOT/web/index.html" > "$OUT/index.html"
grep -q 'page_backend.js' "$OUT/index.html" || fail "web/index.html: no board.js script tag to put the engine before"
cp "$ROOT/web/app.js" "$ROOT/web/board.js" "$ROOT/web/chart.js" "$ROOT/web/style.css" "$ROOT/site/web/page_backend.js" "$ROOT/site/web/sw.js" "$OUT/"
cp "$WASM_BUILD/quax_engine.js" "$WASM_BUILD/quax_engine.wasm" "$OUT/"
cp "$ORT/ort.wasm.min.js" "$ORT/ort-wasm-simd-threaded.mjs" "$OUT/ort/"
# ONNX Runtime's WebAssembly (14 MB) compressed: the page unpacks it (page_backend.js), so that
# it weighs 3.7 MB on any host, compressing or not.
rm -f "$OUT/ort/ort-wasm-simd-threaded.wasm"
gzip -9 -n -c "$ORT/ort-wasm-simd-threaded.wasm" > "$OUT/ort/ort-wasm-simd-threaded.wasm.gz.part"
mv "$OUT/ort/ort-wasm-simd-threaded.wasm.gz.part" "$OUT/ort/ort-wasm-simd-threaded.wasm.gz"

# The models: one ONNX file per trained size (the board side is fixed in each file).
if [ $# -gt 0 ]; then
  models=()
  for name in "$@"; do
    f=$ROOT/checkpoints/${name%.pt}.pt
    [ -f "$f" ] || fail "no shipped model $f"
    models+=("$f")
  done
else
  models=("$ROOT"/checkpoints/*.pt)
fi
export_model() {  # export_model <checkpoint> <size or ''> <file> [int8]
  local args=()
  [ -n "$2" ] && args=(--onnx-size "$2")
  [ "${4:-}" = int8 ] && args+=(--onnx-int8)
  if [ ! -f "$3" ] || [ "$1" -nt "$3" ] || [ "$QUAX" -nt "$3" ]; then
    "$QUAX" export --checkpoint "$1" --onnx "$3.part.onnx" "${args[@]}" > "$3.log" 2>&1 ||
      { cat "$3.log"; rm -f "$3.part.onnx"; fail "exporting $1 ${2:+at size $2 }failed"; }
    mv "$3.part.onnx" "$3"
    rm -f "$3.log"
  fi
}
description() { /usr/bin/python3 -c '
import json, sys
import onnx
m = onnx.load(sys.argv[1], load_external_data=False)
print({p.key: p.value for p in m.metadata_props}["quax.json"])' "$1"; }
entries=()
for model in "${models[@]}"; do
  name=$(basename "$model" .pt)
  cache=$OUT/models/.$name.description.json  # the description, read once per checkpoint
  if [ ! -f "$cache" ] || [ "$model" -nt "$cache" ] || [ "$QUAX" -nt "$cache" ]; then
    rm -f "$OUT/models/$name".*.onnx
    export_model "$model" "" "$OUT/models/$name.onnx"
    description "$OUT/models/$name.onnx" > "$cache"
    first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["onnx"]["size"])' "$cache")
    mv "$OUT/models/$name.onnx" "$OUT/models/$name.$first.onnx"
  fi
  d=$(cat "$cache")
  # Its trained sizes ("sizes"; a model of one size may give only "size").
  sizes=$(python3 -c 'import json,sys; d = json.loads(sys.argv[1]); print(" ".join(str(n) for n in d.get("sizes") or [d["size"]]))' "$d") ||
    fail "$model: no sizes in its description"
  for n in $sizes; do
    export_model "$model" "$n" "$OUT/models/$name.$n.onnx"
    # int8 convolutions: the page's network when ONNX Runtime has one thread (page_backend.js).
    export_model "$model" "$n" "$OUT/models/$name.$n.int8.onnx" int8
  done
  entries+=("$name" "$d")
done
python3 - "$OUT/models/models.json" "${entries[@]}" <<'PY'
import json, os, sys
out, rest = sys.argv[1], sys.argv[2:]
models = []
for name, text in zip(rest[0::2], rest[1::2]):
    d = json.loads(text)
    d.pop("onnx", None)
    sizes = d.get("sizes") or [d["size"]]
    files = {str(n): f"{name}.{n}.onnx" for n in sizes}
    files_int8 = {str(n): f"{name}.{n}.int8.onnx" for n in sizes}
    models.append({"name": f"{name}.pt", "variant": d["variant"], "sizes": sizes, "step": d.get("step", 0),
                   "files": files, "files_int8": files_int8, "description": d})
with open(out + ".part", "w") as f:
    json.dump(models, f, indent=1)
os.replace(out + ".part", out)
PY
echo "site in $OUT: $(du -sh --apparent-size "$OUT" | cut -f1) ($(ls "$OUT"/models/*.onnx | wc -l) ONNX files); serve it with any static file server, e.g. (cd $OUT && python3 -m http.server)"
