"""What the tests of several training processes read from a run directory: the metrics
lines, and the games in the shards counted from the shard header (train/shard_format.h:
"QXSH", u32 version 3, u64 payload bytes, u64 checksum, then u8 variant, u8 size, u8 swap,
u8 reserved, u16 rules bytes, the rules text and the u32 game count), independently of the
engine's own reader."""
import collections
import json
import os
import re
import signal
import struct
import time

SHARD_NAME = re.compile(r"shard-(\d{13})-([A-Za-z0-9]+)-(\d{6,})\.qxs")


def metrics(run_dir, kind=None):
    path = os.path.join(run_dir, "metrics.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    return [j for j in lines if kind is None or j.get("kind") == kind]


def shard_games(run_dir):
    """{writer: games} over the shards of <run>/selfplay."""
    games = collections.Counter()
    folder = os.path.join(run_dir, "selfplay")
    for name in os.listdir(folder):
        m = SHARD_NAME.fullmatch(name)
        if not m:
            continue
        with open(os.path.join(folder, name), "rb") as f:
            head = f.read(30)
            assert head[:4] == b"QXSH" and struct.unpack("<I", head[4:8])[0] == 3, name
            f.seek(struct.unpack("<H", head[28:30])[0], os.SEEK_CUR)  # the rules text
            games[m.group(2)] += struct.unpack("<I", f.read(4))[0]
    return games


def mpi_run_config(steps, minutes):
    """The run of the MPI tests: quax 5x5, a 1x16 net and 32 simulations, slow enough that a
    run lasts a few seconds between events; `steps` learner steps within `minutes`."""
    return f"""
game: {{variant: quax, size: 5}}
net: {{blocks: 1, filters: 16, policy_channels: 8, value_channels: 8, value_hidden: 16}}
search: {{simulations: 32}}
selfplay: {{threads: 1, parallel_games: 16, games_per_shard: 8}}
replay: {{min_positions: 400, window_min: 3000}}
learn: {{batch_size: 64, publish_every: 10, checkpoint_every: 20}}
run: {{max_steps: {steps}, max_minutes: {minutes}, progress_seconds: 1}}
"""


def actor_lines(run_dir, rank):
    """The `actor` lines the learner wrote for actor `rank`."""
    return [j for j in metrics(run_dir, "actor") if j["rank"] == rank]


def both_actors_moved_on(run_dir):
    """Actors 1 and 2 each reported games, on a newer model than their first."""
    lines = [actor_lines(run_dir, rank) for rank in (1, 2)]
    return all(x and x[-1]["games"] > 0 and x[-1]["model_step"] > x[0]["model_step"] for x in lines)


def newest_checkpoint_step(run_dir):
    folder = os.path.join(run_dir, "checkpoints")
    steps = [int(m.group(1)) for n in os.listdir(folder) if (m := re.fullmatch(r"ckpt-(\d{10})\.pt", n))] \
        if os.path.isdir(folder) else []
    return max(steps, default=-1)


def learner_pid(log_text):
    """The learner's pid, as `quax train --distributed` prints it first."""
    return int(re.search(r"learner on rank 0 \(host \S+, pid (\d+)\)", log_text).group(1))


def stop_job(job):
    """Kills what is left of a job started in its own session."""
    if job.poll() is None:
        os.killpg(job.pid, signal.SIGKILL)
        job.wait()


def wait_for(predicate, timeout, what, process=None, log_path=None):
    """Polls predicate() until it is true; fails naming `what` after `timeout` seconds, or
    at once when `process` ended first, with the end of the log at `log_path` if given."""
    def failure(why):
        tail = "" if log_path is None or not os.path.exists(log_path) else open(log_path).read()[-3000:]
        return AssertionError(f"{why}: {what}" + (f"\n--- the end of {log_path}:\n{tail}" if tail else ""))
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        if process is not None and process.poll() is not None:
            raise failure(f"the process ended (exit {process.returncode}) before")
        time.sleep(0.2)
    raise failure(f"not within {timeout} s")
