#!/bin/bash
# Model files made to hurt (issue 27): a description whose size its variant cannot play (each
# crashed every command that loaded it with SIGSEGV, and `serve` at start-up), a FIFO given as
# a model, and TorchScript models whose outputs do not fit the batch. Every command that loads
# a model exits 1 with one line; `serve` skips the file with a warning and serves the rest.
# The descriptions are rewritten with python3's zipfile; the scripted models need Debian's
# python3-torch (exit 77 only where it is missing, after the other checks).
# Usage: hostile_model.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
SERVER=""
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
  rm -rf "$DIR"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"
MODEL5="$SRC/checkpoints/quax-5.pt"

# edited MODEL OUT KEY JSON: a copy of MODEL whose quax.json has KEY set to JSON.
edited() {
  python3 - "$@" <<'PY'
import json, sys, zipfile
src, out, key, value = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
with zipfile.ZipFile(src) as a, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as b:
    for info in a.infolist():
        data = a.read(info.filename)
        if info.filename.endswith("/extra/quax.json"):
            description = json.loads(data)
            description[key] = value
            data = json.dumps(description).encode()
        b.writestr(info.filename, data)
PY
}

# A small solved book for perfect-check (the model is read after it).
echo 'c3 b3 c2 b2 c4 b4 d1 b1 e5 b5 a1 a2 d5' > "$DIR/games.txt"
"$QUAX" solve --variant quax --size 5 --swap on --memory-mb 64 --progress 0 --book --records "$DIR/games.txt" \
  --min-ply 10 --out "$DIR/book.jsonl" > /dev/null || fail "book"

for size in 0 -7 1000 2147483647; do
  bad="$DIR/size$size.pt"
  edited "$MODEL5" "$bad" size "$size" || fail "python3 could not rewrite the description"
  want="model '$bad' has no valid quax.json description (size $size is out of range for quax (3..26))"
  expect_one_line_error "$want" "$QUAX" gtp --model "$bad" < /dev/null
  expect_one_line_error "$want" "$QUAX" play --size 5 --model "$bad" < /dev/null
  expect_one_line_error "$want" "$QUAX" arena --size 5 --players "$bad",random --results "$DIR/a.jsonl"
  expect_one_line_error "$want" "$QUAX" perfect-check --model "$bad" --positions "$DIR/book.jsonl"
  expect_one_line_error "$want" "$QUAX" export --checkpoint "$bad" --out "$DIR/out.pt"
  [ ! -e "$DIR/out.pt" ] || fail "export of $bad wrote a file"
done
edited "$MODEL5" "$DIR/sizes.pt" sizes '[5, 1000]'
expect_one_line_error "(sizes: size 1000 is out of range for quax" "$QUAX" gtp --model "$DIR/sizes.pt" < /dev/null
edited "$MODEL5" "$DIR/step.pt" step -1
expect_one_line_error "(step -1 is not in" "$QUAX" gtp --model "$DIR/step.pt" < /dev/null

# A FIFO is refused at once (timeout: reading it would wait for a writer for ever).
mkfifo "$DIR/fifo.pt"
expect_one_line_error "'$DIR/fifo.pt' is a FIFO, not a regular model file" timeout 20 "$QUAX" gtp --model "$DIR/fifo.pt"

# serve with one bad file among its models: starts, warns once, serves the good one.
mkdir "$DIR/models"
cp "$DIR/size1000.pt" "$DIR/models/bad.pt"
cp "$MODEL5" "$DIR/models/good.pt"
"$QUAX" serve --port 0 --models "$DIR/models" > "$DIR/serve.out" 2> "$DIR/serve.err" &
SERVER=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's|^quax serve: http://[^:]*:\([0-9]*\)/.*|\1|p' "$DIR/serve.out")
  [ -n "$port" ] && break
  kill -0 "$SERVER" 2>/dev/null || fail "serve died at start-up: $(cat "$DIR/serve.err")"
  sleep 0.2
done
[ -n "$port" ] || fail "serve printed no address"
players=$(curl -s "http://127.0.0.1:$port/api/players") || fail "serve does not answer"
case "$players" in *'"good.pt"'*) ;; *) fail "serve does not list the good model: $players";; esac
case "$players" in *'"bad.pt"'*) fail "serve lists the bad model: $players";; esac
grep -q "^warning: skipping '$DIR/models/bad.pt': .*size 1000 is out of range" "$DIR/serve.err" ||
  fail "no warning for the bad model: $(cat "$DIR/serve.err")"
kill -INT "$SERVER"
wait "$SERVER"
SERVER=""

# Outputs that do not fit the batch (scripted with PyTorch).
/usr/bin/python3 -c "import torch" 2> /dev/null || { echo "python3-torch is not installed: output checks skipped"; exit 77; }
# In a file: TorchScript compiles from the source it reads there.
cat > "$DIR/script_models.py" <<'PY'
import sys, torch

class OneRow(torch.nn.Module):  # a policy of one row whatever the batch
    def forward(self, x: torch.Tensor):
        return torch.zeros([1, 77]), torch.zeros([1])

class EightRows(torch.nn.Module):  # rows for the load probe's 8 positions only
    def forward(self, x: torch.Tensor):
        return torch.zeros([8, 77]), torch.zeros([8])

class OneTensor(torch.nn.Module):  # no tuple
    def forward(self, x: torch.Tensor):
        return torch.zeros([x.size(0), 77])

extra = {"quax.json": ""}
torch.jit.load(sys.argv[1], map_location="cpu", _extra_files=extra)
for name, module in [("one", OneRow()), ("eight", EightRows()), ("tensor", OneTensor())]:
    torch.jit.save(torch.jit.script(module), "%s/%s.pt" % (sys.argv[2], name), _extra_files=extra)
PY
/usr/bin/python3 "$DIR/script_models.py" "$MODEL5" "$DIR" || fail "could not script the models"
expect_one_line_error "model '$DIR/one.pt' gives policy logits [1, 77] and value [1]; a batch of 8 positions of 5x5 needs" \
  "$QUAX" gtp --size 5 --model "$DIR/one.pt" < /dev/null
expect_one_line_error "model '$DIR/tensor.pt' gives a Tensor, not a tuple" "$QUAX" gtp --size 5 --model "$DIR/tensor.pt" < /dev/null
# The eight-row model passes the probe; the search's first batch of 1 is refused.
expect_one_line_error "model '$DIR/eight.pt' gives policy logits [8, 77] and value [8]; a batch of 1 positions" \
  "$QUAX" arena --size 5 --players "$DIR/eight.pt:sims=16",random --games 2 --results "$DIR/b.jsonl"
answer=$(printf 'genmove black\nplay black c3\ngenmove white\n' | "$QUAX" gtp --size 5 --model "$DIR/eight.pt" --sims 16 2> /dev/null)
[ "$(printf '%s\n' "$answer" | grep -c "^? model '$DIR/eight.pt' gives policy logits \[8, 77\]")" -eq 2 ] ||
  fail "gtp does not answer each genmove with the error: $answer"
echo "ok"
