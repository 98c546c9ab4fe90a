#!/usr/bin/env bash
# quax export on a tiny fresh run: the file carries its description, loads in Python with
# the checkpoint's outputs (scripts/check_export.py, run by /usr/bin/python3; skipped with
# exit 77 only where python3-torch is not installed), and bad inputs get one line and a
# non-zero exit.
# Usage: export_roundtrip.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

source "$2/tests/cli/lib/tiny_run.sh"
tiny_run "$QUAX" "$DIR" 4 20
CKPT="$DIR/r/checkpoints/ckpt-0000000020.pt"
[ -f "$CKPT" ] || fail "no checkpoint at step 20"

out=$("$QUAX" export --checkpoint "$CKPT" --out "$DIR/m.pt" --reference "$DIR/ref.json")
echo "$out"
grep -q "wrote $DIR/m.pt: quax 4x4 (swap) at step 20, 8 input planes, 50 actions" <<< "$out" || fail "summary: $out"
[ ! -e "$DIR/m.pt.tmp" ] && [ ! -e "$DIR/m.pt.stage" ] || fail "temporary files left behind"
# The description is a plain file inside the zip archive.
desc=$(unzip -p "$DIR/m.pt" '*/extra/quax.json' 2>/dev/null || python3 -c "
import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.read([n for n in z.namelist() if n.endswith('extra/quax.json')][0]).decode())" "$DIR/m.pt")
for key in '"variant": "quax"' '"size": 4' '"step": 20' '"num_actions": 50' '"format_version": 1' '"own_stones"' \
           '"link_backslash"' '"swap"' '"blocks": 1'; do
  grep -q "$key" <<< "$desc" || fail "description lacks $key"
done

# The exported model plays: a model file of the right game is accepted by gtp.
answer=$(printf 'genmove black\n' | "$QUAX" gtp --size 4 --model "$DIR/m.pt" --sims 8)
grep -q '^= [a-d][1-4]$' <<< "$answer" || fail "gtp with the exported model did not answer a move: $answer"

# Errors: one line, non-zero exit, naming what is wrong.
check_error() {  # <expected substring> <command...>
  local want=$1; shift
  local err rc=0
  err=$("$@" 2>&1 >/dev/null) || rc=$?
  [ $rc -ne 0 ] || fail "$* succeeded"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$*: more than one line: $err"
  case "$err" in *"$want"*) ;; *) fail "$*: said '$err', expected '$want'";; esac
}
check_error "no such file '$DIR/missing.pt'" "$QUAX" export --checkpoint "$DIR/missing.pt" --out "$DIR/x.pt"
head -c 3000 "$CKPT" > "$DIR/cut.pt"
check_error "'$DIR/cut.pt' is neither a quax checkpoint nor a model file" \
  "$QUAX" export --checkpoint "$DIR/cut.pt" --out "$DIR/x.pt"
[ ! -e "$DIR/x.pt" ] || fail "a failed export left $DIR/x.pt"
# Another size plays, with one warning line (the model was trained on 4x4); another variant is refused.
answers=$(printf 'genmove black\nquit\n' | "$QUAX" gtp --size 5 --model "$DIR/m.pt" --sims 8 2> "$DIR/err")
move=${answers%%$'\n'*}
case "$move" in "= "[a-e][1-5]|"= swap") ;; *) fail "gtp --size 5 with a 4x4 model answered '$move'";; esac
[ "$(cat "$DIR/err")" = "warning: model '$DIR/m.pt' was trained on quax 4x4, not 5x5; it plays that size untested" ] ||
  fail "gtp --size 5 with a 4x4 model: stderr '$(cat "$DIR/err")'"
check_error "the model is for quax 4x4, not quickway 4x4" "$QUAX" gtp --variant quickway --size 4 --model "$DIR/m.pt"
check_error "not a TorchScript model file" "$QUAX" gtp --size 4 --model "$DIR/cut.pt"
echo "ok: export and its errors"

# Python: torch.jit.load alone, same outputs as the checkpoint. scripts/install_deps.sh
# installs Debian's PyTorch for Python (python3-torch), which only Debian's own interpreter
# imports: the check runs /usr/bin/python3, not the first python3 on PATH (pyenv, venv).
# Where that package is installed a failing import is an error; skipped only without it.
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
  if dpkg-query -W -f='${Status}' python3-torch 2>/dev/null | grep -q "install ok installed"; then
    fail "python3-torch is installed but /usr/bin/python3 cannot import torch: $(/usr/bin/python3 -c 'import torch' 2>&1 | tail -1)"
  fi
  echo "SKIP: the Python round trip needs python3-torch (scripts/install_deps.sh installs it)"
  exit 77
fi
/usr/bin/python3 "$SRC/scripts/check_export.py" "$DIR/m.pt" "$DIR/ref.json"
