"""Two `quax selfplay` processes and one `quax learn` on one run directory (the mode for
machines that share a file system): every game either process finished is in exactly one
shard, the learner reads each exactly once, and each process takes up the learner's newer
models as they appear."""
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from run_files import metrics, shard_games, wait_for  # noqa: E402

QUAX = os.environ["QUAX_BINARY"]
CONFIG = """
game: {variant: quax, size: 4}
net: {blocks: 1, filters: 16, policy_channels: 8, value_channels: 8, value_hidden: 16}
search: {simulations: 16}
selfplay: {threads: 2, parallel_games: 16, games_per_shard: 16}
replay: {min_positions: 300, window_min: 2000}
learn: {batch_size: 64, publish_every: 10, checkpoint_every: 40}
run: {max_minutes: 3, progress_seconds: 1}
"""
GAMES_PER_ACTOR = 2500


def test_two_actors_and_a_learner_share_a_run_directory(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG)
    run = str(tmp_path / "r")
    # Without a run directory there is nothing to play for.
    lonely = subprocess.run([QUAX, "selfplay", "--run", run], capture_output=True, text=True)
    assert lonely.returncode != 0 and "is not a run directory (no config.yaml)" in lonely.stderr

    logs = {name: open(tmp_path / f"{name}.log", "w") for name in ("learn", "a", "b")}
    learner = subprocess.Popen([QUAX, "learn", "--config", str(config), "--run", run], stdout=logs["learn"],
                               stderr=subprocess.STDOUT)
    actors = []
    try:
        wait_for(lambda: os.path.exists(os.path.join(run, "config.yaml")), 30, "the learner starts the run", learner)
        # Two threads each: four writers in all, and each process's threads share its game budget.
        for name in ("a", "b"):
            actors.append(subprocess.Popen(
                [QUAX, "selfplay", "--run", run, "--set", f"run.max_games={GAMES_PER_ACTOR}"],
                stdout=logs[name], stderr=subprocess.STDOUT))
        for actor in actors:
            assert actor.wait(timeout=150) == 0, (tmp_path / "a.log").read_text() + (tmp_path / "b.log").read_text()
        # The learner reads the shards that are still new when it stops.
        learner.send_signal(signal.SIGINT)
        assert learner.wait(timeout=60) == 0, (tmp_path / "learn.log").read_text()
    finally:
        for p in [learner] + actors:
            if p.poll() is None:
                p.kill()
        for f in logs.values():
            f.close()

    ends = metrics(run, "selfplay_end")
    assert len(ends) == 2 and len({e["actor"] for e in ends}) == 2
    by_writer = shard_games(run)
    for end in ends:
        assert end["games"] >= GAMES_PER_ACTOR
        # The process's two threads wrote under names of their own; no game was lost to a clash.
        writers = [w for w in by_writer if w.startswith(end["actor"] + "t")]
        assert len(writers) == 2, by_writer
        assert sum(by_writer[w] for w in writers) == end["games"], (end, by_writer)
    assert sum(by_writer.values()) == sum(e["games"] for e in ends)
    # Each game read once: the learner's lines add up to every game in the shards.
    read = sum(j["games_read"] for j in metrics(run, "learn") + metrics(run, "learn_end"))
    assert read == sum(by_writer.values())
    assert metrics(run, "learn_end")[-1]["step"] > 0

    # Both processes moved on to newer models while they played, and said how far behind they were.
    for end in ends:
        lines = [j for j in metrics(run, "selfplay") if j["actor"] == end["actor"] and "model_step" in j]
        assert lines, end
        steps = [j["model_step"] for j in lines]
        assert steps == sorted(steps) and steps[-1] > steps[0], steps
        assert all(j["lag_steps"] >= 0 for j in lines)
