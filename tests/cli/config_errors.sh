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
expect_one_line_error "config file '$DIR/cfgdir' is a directory" train "$DIR/cfgdir"
expect_one_line_error "cannot read config file '$DIR/missing.yaml'" train "$DIR/missing.yaml"
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

# A good config still loads.
printf '# a comment\ngame: {variant: quax, size: 5}\n' > "$DIR/good.yaml"
train "$DIR/good.yaml" | grep -qx '  size: 5' || fail "a good config was not read"
echo "ok"
