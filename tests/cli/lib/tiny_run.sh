# Sourced by the CLI tests that need a trained model: tiny_run QUAX DIR SIZE STEPS trains a
# 1-block quax SIZExSIZE network for STEPS learner steps into DIR/r (models every 10 steps,
# checkpoints every 10) and returns the training command's exit code.
tiny_run() {
  local quax=$1 dir=$2 size=$3 steps=$4
  cat > "$dir/tiny.yaml" <<YAML
game: {variant: quax, size: $size}
net: {blocks: 1, filters: 8, policy_channels: 4, value_channels: 4, value_hidden: 8}
search: {simulations: 8}
selfplay: {parallel_games: 16, games_per_shard: 16}
replay: {min_positions: 100, window_min: 500}
learn: {batch_size: 32, lr_warmup_steps: 1, publish_every: 10, checkpoint_every: 10}
run: {max_steps: $steps, max_minutes: 1}
YAML
  "$quax" train --config "$dir/tiny.yaml" --run "$dir/r" --quiet
}
