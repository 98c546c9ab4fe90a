#!/bin/bash
# Config files that cannot be a configuration: a directory, a missing file, an empty file or
# one of comments only (which would silently run every default: an unlimited 11x11 run), and
# a key given twice (YAML keeps both; the file is ambiguous). Each is one line naming the
# file (and for a duplicate the key and both lines) and exit 1, for train and learn alike.
# Usage: config_errors.sh <quax binary> <source dir>
set -u
QUAX=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$SRC/tests/cli/lib/one_line_error.sh"

# --print-config: the old behaviour (defaults) would print and exit 0 instead of training.
train() { "$QUAX" train --config "$1" --run "$DIR/run" --print-config; }

mkdir "$DIR/cfgdir"
expect_one_line_error "'$DIR/cfgdir' is a directory, not a regular config file" train "$DIR/cfgdir"
expect_one_line_error "cannot open config file '$DIR/missing.yaml'" train "$DIR/missing.yaml"
: > "$DIR/empty.yaml"
expect_one_line_error "$DIR/empty.yaml: the config is empty" train "$DIR/empty.yaml"
printf '# only a comment\n\n   # and another\n' > "$DIR/comments.yaml"
expect_one_line_error "$DIR/comments.yaml: the config is empty" train "$DIR/comments.yaml"
expect_one_line_error "$DIR/cfgdir' is a directory" timeout 20 "$QUAX" learn --config "$DIR/cfgdir" --run "$DIR/run2"
[ ! -e "$DIR/run" ] && [ ! -e "$DIR/run2" ] || fail "a run directory was made for a bad config"

printf 'game:\n  variant: quax\n  size: 5\n  size: 7\n' > "$DIR/dup.yaml"
expect_one_line_error "$DIR/dup.yaml:4: duplicate key 'game.size' (first at line 3)" train "$DIR/dup.yaml"
printf 'game:\n  size: 5\nnet:\n  blocks: 1\ngame:\n  swap: false\n' > "$DIR/dup_section.yaml"
expect_one_line_error "$DIR/dup_section.yaml:5: duplicate key 'game' (first at line 1)" train "$DIR/dup_section.yaml"
printf 'game: {size: 5, size: 7}\n' > "$DIR/dup_flow.yaml"
expect_one_line_error "$DIR/dup_flow.yaml:1: duplicate key 'game.size' (first at line 1)" train "$DIR/dup_flow.yaml"

# Files that are no config file, for the config and for a file it extends: a device that
# never ends (/dev/zero), a FIFO without a writer (opening it would wait for ever), a file
# above the 1 MB limit. One line naming the file, at once, within bounded memory.
source "$SRC/tests/cli/lib/bounded_run.sh"
mkfifo "$DIR/fifo.yaml"
truncate -s 2M "$DIR/huge.yaml"
expect_one_line_error "'/dev/zero' is a character device, not a regular config file" bounded_run "$QUAX" train \
  --config /dev/zero --run "$DIR/run" --print-config
expect_one_line_error "'$DIR/fifo.yaml' is a FIFO, not a regular config file" bounded_run "$QUAX" train \
  --config "$DIR/fifo.yaml" --run "$DIR/run" --print-config
expect_one_line_error "'$DIR/huge.yaml' is 2 MB, more than the 1 MB limit for a config file" bounded_run "$QUAX" train \
  --config "$DIR/huge.yaml" --run "$DIR/run" --print-config
printf 'extends: /dev/zero\ngame: {size: 5}\n' > "$DIR/ext_zero.yaml"
expect_one_line_error "$DIR/ext_zero.yaml:1: extends '/dev/zero': '/dev/zero' is a character device, not a regular config file" \
  bounded_run "$QUAX" train --config "$DIR/ext_zero.yaml" --run "$DIR/run" --print-config
printf 'extends: fifo.yaml\ngame: {size: 5}\n' > "$DIR/ext_fifo.yaml"
expect_one_line_error "$DIR/ext_fifo.yaml:1: extends 'fifo.yaml': '$DIR/fifo.yaml' is a FIFO, not a regular config file" \
  bounded_run "$QUAX" train --config "$DIR/ext_fifo.yaml" --run "$DIR/run" --print-config

# YAML anchors and aliases: a mapping that holds itself (unbounded recursion before) and a
# billion laughs (ten lines standing for 10^9 nodes) are refused at once, naming the line.
printf 'game: &g\n  x: *g\n' > "$DIR/self.yaml"
expect_one_line_error "$DIR/self.yaml:1: YAML anchors and aliases (&name, *name) are not accepted in a config" \
  bounded_run "$QUAX" train --config "$DIR/self.yaml" --run "$DIR/run" --print-config
{
  echo 'a: &a [x, x, x, x, x, x, x, x, x, x]'
  prev=a
  for n in b c d e f g h i; do echo "$n: &$n [*$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev]"; prev=$n; done
  echo 'game: {size: *i}'
} > "$DIR/laughs.yaml"
start=$(date +%s)
expect_one_line_error "$DIR/laughs.yaml:1: YAML anchors and aliases" \
  bounded_run "$QUAX" train --config "$DIR/laughs.yaml" --run "$DIR/run" --print-config
[ $(( $(date +%s) - start )) -le 5 ] || fail "the billion laughs took $(( $(date +%s) - start )) s to refuse"
# Nesting deeper than a config goes is refused too (yaml-cpp's own limit is 2000 levels).
printf 'game: %s5%s\n' "$(printf '[%.0s' $(seq 20))" "$(printf ']%.0s' $(seq 20))" > "$DIR/deep.yaml"
expect_one_line_error "$DIR/deep.yaml:1: nested more than 8 levels deep" \
  bounded_run "$QUAX" train --config "$DIR/deep.yaml" --run "$DIR/run" --print-config
[ ! -e "$DIR/run" ] || fail "a run directory was made for a bad config"

# A good config still loads.
printf '# a comment\ngame: {variant: quax, size: 5}\n' > "$DIR/good.yaml"
train "$DIR/good.yaml" | grep -q '^  size: 5  # ' || fail "a good config was not read"
echo "ok"
