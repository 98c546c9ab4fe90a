#!/usr/bin/env bash
# Every shipped model file, loaded as docs/MODELS.md shows (plain torch.jit.load in Python, no
# .eval()), gives the engine's policy and value on positions of its own variant (16 random
# positions each, within 1e-4: float32 sums in another order), position by position as in a batch, and carries the whole
# description (plane_shape, action_layout, exported_from). Four files were once saved in
# training mode: batch norm then used each batch's statistics (quadrex-19.pt: value +0.837
# where the engine gave -0.040).
# Usage: shipped_models_plain_torch.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
/usr/bin/python3 -c "import torch" 2>/dev/null || fail "/usr/bin/python3 cannot import torch (python3-torch)"

pairs=()
for model in "$SRC"/checkpoints/*.pt; do
  name=$(basename "$model" .pt)
  # The engine's outputs (eval mode, float32) on random positions of the model's game.
  "$QUAX" export --checkpoint "$model" --out "$DIR/$name.copy.pt" --reference "$DIR/$name.json" --seed 7 > /dev/null ||
    fail "$name: quax export --reference failed"
  pairs+=("$model" "$DIR/$name.json")
done
[ "${#pairs[@]}" -ge 42 ] || fail "only $((${#pairs[@]} / 2)) shipped model files"
# One Python for all: plain torch.jit.load, the outputs, the description.
/usr/bin/python3 "$SRC/scripts/check_export.py" "${pairs[@]}" || fail "a shipped model differs from the engine (above)"
/usr/bin/python3 - "$SRC"/checkpoints/*.pt <<'PY' || fail "a description lacks exported_from"
import json, sys, zipfile
for path in sys.argv[1:]:
    z = zipfile.ZipFile(path)
    d = json.loads(z.read([n for n in z.namelist() if n.endswith("extra/quax.json")][0]))
    if not (isinstance(d.get("exported_from"), str) and d["exported_from"]):
        print("FAIL: %s has no exported_from" % path)
        sys.exit(1)
PY
echo "ok: $((${#pairs[@]} / 2)) shipped models give the engine's outputs in plain PyTorch"
