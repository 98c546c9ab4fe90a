#!/usr/bin/env bash
# `quax export --onnx`: every shipped model as an ONNX file, run by ONNX Runtime for Node.js
# (tests/onnx, from the npm registry; not LibTorch) on random positions of its variant: policy
# logits and values within 1e-4 of LibTorch's, as one batch and one position alone (the batch
# axis is dynamic); hex-11.pt also at 13x13, a size it was not trained on (the board side is
# fixed per file); the description in the file's metadata; bad sizes and unwritable outputs
# refused in one line, nothing written. --onnx-int8 files (the static page's models and the
# largest boards, and torax-9.pt, whose padding across the seam the calibration evaluates) within int8's rounding of LibTorch (tests/onnx/check_onnx.js --int8), their
# tower convolutions in QDQ form with int8 kernels, smaller than float32's; an old opset refused.
# Usage: export_onnx.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"
[ -d "$SRC/tests/onnx/node_modules/onnxruntime-node" ] ||
  fail "ONNX Runtime for Node.js is missing: scripts/install_deps.sh installs it into tests/onnx"

pairs=()
for model in "$SRC"/checkpoints/*.pt; do
  name=$(basename "$model" .pt)
  "$QUAX" export --checkpoint "$model" --onnx "$DIR/$name.onnx" --reference "$DIR/$name.json" --seed 5 > "$DIR/out" ||
    fail "$name: $(cat "$DIR/out")"
  grep -q "^wrote $DIR/$name.onnx: ONNX opset 13, " "$DIR/out" || fail "$name: $(cat "$DIR/out")"
  pairs+=("$DIR/$name.onnx" "$DIR/$name.json")
done
[ "${#pairs[@]}" -ge 42 ] || fail "only $((${#pairs[@]} / 2)) shipped models"
ls "$DIR" | grep -q 'tmp' && fail "temporary files left: $(ls "$DIR")"
"$QUAX" export --checkpoint "$SRC/checkpoints/hex-11.pt" --onnx "$DIR/hex-13.onnx" --onnx-size 13 \
  --reference "$DIR/hex-13.json" > /dev/null 2>&1 || fail "hex-11.pt at 13x13"
pairs+=("$DIR/hex-13.onnx" "$DIR/hex-13.json")
node "$SRC/tests/onnx/check_onnx.js" "${pairs[@]}" || fail "ONNX Runtime disagrees with LibTorch (above)"

int8=()
for name in hex-11 quax-11 crossway-19 y-15 quadrex-19 torax-9; do
  "$QUAX" export --checkpoint "$SRC/checkpoints/$name.pt" --onnx "$DIR/$name.int8.onnx" --onnx-int8 \
    --reference "$DIR/$name.int8.json" --seed 6 --reference-count 64 > "$DIR/out" || fail "$name int8: $(cat "$DIR/out")"
  grep -q "a dynamic batch axis, int8 convolutions$" "$DIR/out" || fail "$name int8: $(cat "$DIR/out")"
  [ "$(stat -c %s "$DIR/$name.int8.onnx")" -lt "$(stat -c %s "$DIR/$name.onnx")" ] || fail "$name: int8 is not smaller"
  int8+=("$DIR/$name.int8.onnx" "$DIR/$name.int8.json")
done
node "$SRC/tests/onnx/check_onnx.js" --int8 "${int8[@]}" || fail "int8 ONNX files too far from LibTorch (above)"
/usr/bin/python3 - "$DIR/hex-11.int8.onnx" <<'PY' || fail "int8 graph"
import collections, json, sys
import onnx
m = onnx.load(sys.argv[1])
from onnx import numpy_helper
ops = collections.Counter(n.op_type for n in m.graph.node)
made_by = {o: n for n in m.graph.node for o in n.output}
kernels = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
# The tower's eight 3x3 convolutions in int8 (QDQ form: input and kernel through DequantizeLinear,
# the kernel stored as int8, one scale per output channel), the first (on the planes) and the
# heads' 1x1 in float32.
int8 = [n for n in m.graph.node if n.op_type == "Conv" and n.input[1] in made_by
        and made_by[n.input[1]].op_type == "DequantizeLinear"]
assert ops["Conv"] == 12 and len(int8) == 8 and "ConvInteger" not in ops, ops
for conv in int8:
    kernel = made_by[conv.input[1]]
    assert kernels[kernel.input[0]].dtype.name == "int8" and kernels[kernel.input[1]].shape == (48,), conv.name
    assert made_by[conv.input[0]].op_type == "DequantizeLinear", conv.name
float_convs = [n for n in m.graph.node if n.op_type == "Conv" and n not in int8]
assert all(n.input[1] in kernels and kernels[n.input[1]].dtype.name == "float32" for n in float_convs)
d = json.loads({p.key: p.value for p in m.metadata_props}["quax.json"])
assert d["onnx"]["precision"] == "int8", d["onnx"]
PY

# The exporter checks its calibration positions: hex-9.pt's 9x9 positions do not calibrate a 13x13 file.
expect_one_line_error "calibration positions of shape [16, 7, 9, 9], not [B, C, 13, 13]" \
  /usr/bin/python3 "$SRC/scripts/export_onnx.py" "$SRC/checkpoints/hex-11.pt" "$DIR/bad.onnx" 13 13 int8 "$DIR/hex-9.json"
[ ! -e "$DIR/bad.onnx" ] || fail "a refused int8 export wrote $DIR/bad.onnx"
ls "$DIR" | grep -q 'tmp' && fail "temporary files left: $(ls "$DIR")"
# The description travels in the metadata.
/usr/bin/python3 - "$DIR/hex-13.onnx" <<'PY' || fail "metadata"
import json, sys
import onnx
m = onnx.load(sys.argv[1])
d = json.loads({p.key: p.value for p in m.metadata_props}["quax.json"])
assert d["variant"] == "hex" and d["sizes"] == [11, 9] and d["onnx"]["size"] == 13 and d["onnx"]["opset"] == 13, d
assert d["onnx"]["precision"] == "fp32", d["onnx"]
assert [i.name for i in m.graph.input] == ["planes"] and [o.name for o in m.graph.output] == ["policy", "value"]
PY

expect_one_line_error "--onnx-size: " "$QUAX" export --checkpoint "$SRC/checkpoints/quadhex-10.pt" --onnx "$DIR/x.onnx" --onnx-size 9
expect_one_line_error "--onnx-int8 needs --onnx-opset 13" "$QUAX" export --checkpoint "$SRC/checkpoints/quax-5.pt" \
  --onnx "$DIR/x.onnx" --onnx-int8 --onnx-opset 12
expect_one_line_error "give --out (a model file), --onnx, or both" "$QUAX" export --checkpoint "$SRC/checkpoints/quax-5.pt"
touch "$DIR/file"
expect_one_line_error "$DIR/file/x.onnx" "$QUAX" export --checkpoint "$SRC/checkpoints/quax-5.pt" --onnx "$DIR/file/x.onnx"
[ ! -e "$DIR/x.onnx" ] || fail "a refused export wrote $DIR/x.onnx"
echo "ok: $((${#pairs[@]} / 2)) ONNX files agree with LibTorch within 1e-4, $((${#int8[@]} / 2)) int8 files within int8's rounding"
