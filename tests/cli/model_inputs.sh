#!/bin/bash
# Model and checkpoint files given where they do not fit: export to an --out or --reference
# that cannot be written is one line (no LibTorch stack trace) and writes nothing; a learner
# checkpoint given as a model (gtp --model, play --model, an arena player) is named as a
# learner checkpoint with a pointer to `quax export`.
# Usage: model_inputs.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/tiny_run.sh"
source "$SRC/tests/cli/lib/one_line_error.sh"

tiny_run "$QUAX" "$DIR" 4 10 > /dev/null || fail "tiny training run"
CKPT="$DIR/r/checkpoints/ckpt-0000000010.pt"
MODEL="$DIR/r/models/model-0000000010.pt"
[ -f "$CKPT" ] && [ -f "$MODEL" ] || fail "the tiny run wrote no checkpoint or model"

# /proc takes no new files, even for root; a regular file is no directory; a directory is no file.
: > "$DIR/afile"
mkdir "$DIR/adir"
nothing_left() {  # no output, no temporary or staging file beside it
  local out=$1
  local left
  left=$(ls -d "$out" "$out".tmp* "$out".stage* 2>/dev/null | grep -v "^$DIR/adir\$")
  [ -z "$left" ] || fail "export to $out left: $left"
}
for src in "$CKPT" "$MODEL"; do
  expect_one_line_error "cannot write '/proc/quax-model.pt'" "$QUAX" export --checkpoint "$src" --out /proc/quax-model.pt
  nothing_left /proc/quax-model.pt
  expect_one_line_error "cannot write '$DIR/afile/m.pt'" "$QUAX" export --checkpoint "$src" --out "$DIR/afile/m.pt"
  expect_one_line_error "cannot write '$DIR/adir'" "$QUAX" export --checkpoint "$src" --out "$DIR/adir"
  nothing_left "$DIR/adir"
  # A --reference that cannot be written stops the export before the model is written.
  expect_one_line_error "cannot write '/proc/quax-ref.json'" \
    "$QUAX" export --checkpoint "$src" --out "$DIR/m.pt" --reference /proc/quax-ref.json
  nothing_left "$DIR/m.pt"
done
"$QUAX" export --checkpoint "$CKPT" --out "$DIR/m.pt" > /dev/null || fail "a good export failed"

# A learner checkpoint where a model file belongs.
want="'$CKPT' is a learner checkpoint, not a model file"
expect_one_line_error "$want" "$QUAX" gtp --size 4 --model "$CKPT"
case "$ERROR_LINE" in *"quax export"*) ;; *) fail "gtp: no pointer to quax export: $ERROR_LINE";; esac
expect_one_line_error "$want" "$QUAX" play --size 4 --model "$CKPT" < /dev/null
expect_one_line_error "$want" "$QUAX" arena --size 4 --players "$CKPT",random --results "$DIR/a.jsonl"
expect_one_line_error "$want" "$QUAX" gtp --size 4 --player "$CKPT:sims=8"
# The exported model is accepted where the checkpoint was not.
printf 'genmove black\n' | "$QUAX" gtp --size 4 --model "$DIR/m.pt" --sims 8 | grep -q '^= [a-d][1-4]$' ||
  fail "gtp with the exported model did not answer a move"
echo "ok"
