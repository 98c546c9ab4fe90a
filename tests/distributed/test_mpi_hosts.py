"""`quax train --distributed` across separate hosts (tests/distributed/hosts.py: network
namespaces on one bridge, Open MPI over TCP only): the learner on one host and an actor on each
of two others train together; an actor's link cut for longer than the peer timeout leaves that
actor out while the run goes on, a shorter cut loses nobody; the learner killed on its host
resumes with --resume; and a `quax selfplay` started on a fourth host while the run goes on
joins it through the shared run directory."""
import os
import signal
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from hosts import Hosts, HostsUnavailable  # noqa: E402
from run_files import (actor_lines, both_actors_moved_on, learner_pid, metrics, mpi_run_config,  # noqa: E402
                       newest_checkpoint_step, shard_games, stop_job, wait_for)

QUAX = os.path.abspath(os.environ["QUAX_BINARY"])
MPIRUN = os.environ["QUAX_MPIRUN"]
PEER_TIMEOUT = 8


@pytest.fixture
def hosts(tmp_path):
    try:
        made = Hosts.make(4, str(tmp_path))
    except HostsUnavailable as e:
        pytest.skip(str(e))
    yield made
    made.remove()


def start(hosts, tmp_path, run, steps, log_name="job.log", resume=False):
    config = tmp_path / "c.yaml"
    config.write_text(mpi_run_config(steps, 8))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = hosts.exec_argv(0, [MPIRUN, *hosts.mpirun_args(3), "--enable-recovery", QUAX, "train", "--config",
                                  str(config), "--run", run, "--distributed", "--peer-timeout", str(PEER_TIMEOUT),
                                  *(["--resume"] if resume else [])])
    log = open(tmp_path / log_name, "w")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True), log


def stop(job, log):
    stop_job(job)
    log.close()


def learner_step(run):
    steps = [j["step"] for j in metrics(run, "learn")]
    return max(steps, default=0)


def namespace_of(pid):
    out = subprocess.run(["ip", "netns", "identify", str(pid)], capture_output=True, text=True)
    return out.stdout.strip()


def test_three_hosts_train_over_tcp_and_a_fourth_joins_through_the_run_directory(hosts, tmp_path):
    run = str(tmp_path / "r")
    job, log = start(hosts, tmp_path, run, 1500)
    joiner = None
    try:
        wait_for(lambda: learner_step(run) >= 40 and both_actors_moved_on(run), 150,
                 "the learner at step 40 and both actors on a newer model than their first", job)
        # Each rank runs in its own host: the learner in host 0, actor rank r in host r.
        for rank in (1, 2):
            assert namespace_of(actor_lines(run, rank)[-1]["pid"]) == hosts.namespace(rank)
        # A machine added to the running job: self-play on the shared run directory.
        joiner = subprocess.Popen(hosts.exec_argv(3, [QUAX, "selfplay", "--run", run]), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(lambda: any(not w.startswith("r") and g > 0 for w, g in shard_games(run).items()), 90,
                 "shards written by the joining self-play", job)

        def joiner_moved_on():  # its records are the run directory's only self-play lines
            steps = [j["model_step"] for j in metrics(run, "selfplay")]
            return steps and steps[-1] >= steps[0] + 20

        wait_for(joiner_moved_on, 90, "the joining self-play on models two publications newer", job)
        joiner.send_signal(signal.SIGINT)
        assert joiner.wait(timeout=60) == 0
        assert job.wait(timeout=400) == 0, (tmp_path / "job.log").read_text()
    finally:
        if joiner is not None and joiner.poll() is None:
            joiner.kill()
        stop(job, log)
    lines = metrics(run)
    assert [j["step"] for j in lines if j["kind"] == "learn_end"] == [1500]
    assert not [j for j in lines if j["kind"] == "actor_lost"], [j for j in lines if j["kind"] == "actor_lost"]
    writers = shard_games(run)
    for rank in (1, 2):
        assert sum(g for w, g in writers.items() if w.startswith(f"r{rank}")) > 0, writers
    # Every game the joiner finished is in the run's shards.
    joiner_games = sum(g for w, g in writers.items() if not w.startswith("r"))
    assert [j["games"] for j in lines if j["kind"] == "selfplay_end"] == [joiner_games], writers


def test_a_link_cut_longer_than_the_peer_timeout_leaves_the_actor_out(hosts, tmp_path):
    run = str(tmp_path / "r")
    job, log = start(hosts, tmp_path, run, 3000)
    try:
        wait_for(lambda: learner_step(run) >= 40 and both_actors_moved_on(run), 150,
                 "the learner at step 40 and both actors playing", job)
        hosts.cut(2)
        cut_at = time.time()
        wait_for(lambda: metrics(run, "actor_lost"), PEER_TIMEOUT + 30, "the cut actor left out", job)
        lost_after = time.time() - cut_at
        games_of_1, games_of_2 = actor_lines(run, 1)[-1]["games"], actor_lines(run, 2)[-1]["games"]
        time.sleep(2)
        hosts.heal(2)
        # The cut actor, still waiting (it gives up after twice the peer timeout), hears from the
        # learner again and is told to stop: it ends cleanly, and so does the job.
        assert job.wait(timeout=400) == 0, (tmp_path / "job.log").read_text()
    finally:
        hosts.heal(2)
        stop(job, log)
    text = (tmp_path / "job.log").read_text()
    lines = metrics(run)
    lost = [j for j in lines if j["kind"] == "actor_lost"]
    assert [j["rank"] for j in lost] == [2], lost
    assert f"actor rank 2 is left out: silent for {PEER_TIMEOUT} s" in text, text
    # Silent since its last message, which came up to a progress period (1 s) before the cut.
    assert PEER_TIMEOUT - 1.5 <= lost_after < PEER_TIMEOUT + 20, lost_after
    # The run went on to its end on the other actor's games; the cut actor's count stayed.
    assert [j["step"] for j in lines if j["kind"] == "learn_end"] == [3000], text
    assert actor_lines(run, 1)[-1]["games"] > games_of_1
    assert actor_lines(run, 2)[-1]["games"] == games_of_2
    # Nothing of the other actor's was lost: its shards hold every game it reported.
    assert sum(g for w, g in shard_games(run).items() if w.startswith("r1")) == actor_lines(run, 1)[-1]["games"]


def test_a_cut_shorter_than_the_peer_timeout_loses_no_actor(hosts, tmp_path):
    run = str(tmp_path / "r")
    job, log = start(hosts, tmp_path, run, 2500)
    try:
        wait_for(lambda: learner_step(run) >= 40 and both_actors_moved_on(run), 150,
                 "the learner at step 40 and both actors playing", job)
        hosts.cut(2)
        games_of_2 = actor_lines(run, 2)[-1]["games"]
        time.sleep(PEER_TIMEOUT / 2)
        hosts.heal(2)
        wait_for(lambda: actor_lines(run, 2)[-1]["games"] > games_of_2, 60, "the cut actor's games arriving again",
                 job)
        assert job.wait(timeout=400) == 0, (tmp_path / "job.log").read_text()
    finally:
        hosts.heal(2)
        stop(job, log)
    lines = metrics(run)
    assert not [j for j in lines if j["kind"] == "actor_lost"], [j for j in lines if j["kind"] == "actor_lost"]
    assert [j["step"] for j in lines if j["kind"] == "learn_end"] == [2500]


def test_the_learner_killed_on_its_host_resumes_from_its_checkpoint(hosts, tmp_path):
    run = str(tmp_path / "r")
    job, log = start(hosts, tmp_path, run, 3000)
    try:
        wait_for(lambda: learner_step(run) >= 100 and newest_checkpoint_step(run) >= 0 and both_actors_moved_on(run),
                 150, "a checkpoint and both actors playing", job)
        os.kill(learner_pid((tmp_path / "job.log").read_text()), signal.SIGKILL)
        job.wait(timeout=2 * PEER_TIMEOUT + 60)  # the actors give up on it
    finally:
        stop(job, log)
    killed_at = newest_checkpoint_step(run)
    before = len(metrics(run))
    job, log = start(hosts, tmp_path, run, killed_at + 200, "resume.log", resume=True)
    try:
        assert job.wait(timeout=400) == 0, (tmp_path / "resume.log").read_text()
    finally:
        stop(job, log)
    text = (tmp_path / "resume.log").read_text()
    assert f"at step {killed_at}" in text and f"stopped at step {killed_at + 200}" in text, text
    after = metrics(run)[before:]
    for rank in (1, 2):
        resumed = [j for j in after if j["kind"] == "actor" and j["rank"] == rank]
        assert resumed and resumed[-1]["games"] > 0, (rank, resumed)
