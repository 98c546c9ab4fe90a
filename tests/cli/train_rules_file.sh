#!/usr/bin/env bash
# A rules file through training (docs/VARIANTS.md): game.variant names a file beside the config;
# the run warm-starts from the shipped quikquax model (the same planes and actions), writes a
# model that carries the rules and plays without the file, and a --resume after the file's rules
# changed is refused naming the field. Usage: train_rules_file.sh <quax binary> <source dir>
set -euo pipefail
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$DIR/conf"
cp "$SRC/examples/variants/twostep.yaml" "$DIR/conf/twostep.yaml"
cat > "$DIR/conf/run.yaml" <<YAML
game: {variant: twostep.yaml, size: 6, swap: false}
net: {blocks: 4, filters: 48, policy_channels: 16, value_channels: 16, value_hidden: 64}  # quikquax-6.pt's
search: {simulations: 16}
selfplay: {parallel_games: 16, games_per_shard: 8}
replay: {min_positions: 200, window_min: 1000}
learn: {batch_size: 32, publish_every: 10, checkpoint_every: 20}
run: {max_steps: 20, progress_seconds: 5, init_from: $SRC/checkpoints/quikquax-6.pt}
YAML
# From another directory: the file is read beside the config that names it.
(cd "$DIR" && "$QUAX" train --config conf/run.yaml --run "$DIR/r" > "$DIR/train.log" 2>&1) ||
  fail "training failed: $(tail -5 "$DIR/train.log")"
grep -q "initialised from $SRC/checkpoints/quikquax-6.pt" "$DIR/train.log" || fail "no warm start: $(cat "$DIR/train.log")"
grep -q "^  variant: $DIR/conf/twostep.yaml$" "$DIR/r/config.yaml" || fail "the run's config: $(grep variant "$DIR/r/config.yaml")"

# The model plays without the file: its rules come with it.
mv "$DIR/conf/twostep.yaml" "$DIR/twostep.yaml.away"
out=$(printf 'genmove black\nvariant\nquit\n' | "$QUAX" gtp --model "$DIR/r/model.pt" 2>&1) || fail "gtp: $out"
grep -q "^= twostep" <<< "$out" || fail "the model's variant: $out"

# The file changed since: the same name, another game. --resume is refused in one line.
sed 's/stones_per_turn: \[1, 2\]/stones_per_turn: [1, 3]/' "$DIR/twostep.yaml.away" > "$DIR/conf/twostep.yaml"
out=$("$QUAX" train --config "$DIR/r/config.yaml" --run "$DIR/r" --resume --set run.max_steps=40 2>&1) &&
  fail "resumed under other rules"
echo "$out"
[ "$(wc -l <<< "$out")" -eq 1 ] && grep -q "stones_per_turn: \[1, 2\], not \[1, 3\]" <<< "$out" || fail "bad message: $out"
echo "ok: a rules file trains, its model plays without it, a changed file is caught"
