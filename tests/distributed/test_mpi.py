"""`mpirun -np 3 quax train --distributed`: rank 0 learns, ranks 1 and 2 play. Both actors'
games reach the learner, the actors play the models it sends, the run survives the death of
an actor, and after the learner's death `--resume` continues it."""
import os
import re
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from run_files import (actor_lines, both_actors_moved_on, learner_pid, metrics, mpi_run_config,  # noqa: E402
                       newest_checkpoint_step, shard_games, stop_job, wait_for)

QUAX = os.environ["QUAX_BINARY"]
MPIRUN = os.environ["QUAX_MPIRUN"]
PEER_TIMEOUT = 5


def start(tmp_path, run, steps, log_name, resume=False):
    config = tmp_path / "c.yaml"
    config.write_text(mpi_run_config(steps, 3))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # --enable-recovery: the job outlives a rank that dies (Open MPI 4).
    command = [MPIRUN, "-np", "3", "--oversubscribe", "--enable-recovery", QUAX, "train", "--config", str(config),
               "--run", run, "--distributed", "--peer-timeout", str(PEER_TIMEOUT)]
    if resume:
        command.append("--resume")
    log = open(tmp_path / log_name, "w")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True), log


def test_actors_feed_the_learner_and_a_killed_job_resumes(tmp_path):
    run = str(tmp_path / "r")
    # No step limit: the learner must still be running when the test kills it (with 1,200 steps
    # the job once ended first, on a CI machine where the actors' reports came late).
    job, log = start(tmp_path, run, 0, "first.log")
    try:
        wait_for(lambda: newest_checkpoint_step(run) >= 100 and both_actors_moved_on(run), 120,
                 "a checkpoint at step 100, and both actors on a newer model than their first", job,
                 tmp_path / "first.log")
        # The learner dies: the actors give up after the peer timeout and the job ends.
        os.kill(learner_pid((tmp_path / "first.log").read_text()), signal.SIGKILL)
        job.wait(timeout=PEER_TIMEOUT + 60)
    finally:
        stop_job(job)
        log.close()
    killed_at = newest_checkpoint_step(run)
    for rank in (1, 2):
        lines = actor_lines(run, rank)
        assert lines and lines[-1]["games"] > 0, (rank, lines)
        # The actor played newer and newer models sent by the learner.
        steps = [j["model_step"] for j in lines]
        assert steps == sorted(steps) and steps[-1] >= 10, (rank, steps)
    writers = shard_games(run)
    for rank in (1, 2):
        assert sum(g for w, g in writers.items() if w.startswith(f"r{rank}")) > 0, writers

    lines_before = len(metrics(run))
    final_step = killed_at + 200
    job, log = start(tmp_path, run, final_step, "resume.log", resume=True)
    try:
        assert job.wait(timeout=150) == 0, (tmp_path / "resume.log").read_text()
    finally:
        stop_job(job)
        log.close()
    text = (tmp_path / "resume.log").read_text()
    assert f"at step {killed_at}" in text and f"stopped at step {final_step}" in text, text
    after = metrics(run)[lines_before:]
    assert [j["step"] for j in after if j["kind"] == "learn_end"] == [final_step]
    for rank in (1, 2):
        resumed = [j for j in after if j["kind"] == "actor" and j["rank"] == rank]
        assert resumed and resumed[-1]["games"] > 0
        # The resumed actors start from the checkpoint's model, not from scratch.
        assert min(j["model_step"] for j in resumed if j["model_step"] >= 0) >= killed_at, resumed
    # Every shard an actor sent during the resumed run is named for its rank.
    assert all(re.fullmatch(r"r[12][A-Za-z0-9]+t0", w) for w in shard_games(run)), shard_games(run)


def test_actors_stay_heard_on_a_busy_machine(tmp_path):
    """Every core busy four times over, as beside other tests: the actors' model loads slow
    down, and the actors must still be heard within the peer timeout (a load once held back an
    actor's counters, and the learner left both actors out in the first 5 seconds)."""
    run = str(tmp_path / "r")
    # Each in a session of its own: with the scheduler's autogroups, burners sharing one session
    # would share one slice of the CPU between them. Each ends by itself after 200 s, should
    # this test be killed before it kills them.
    burn = "import time\nend = time.time() + 200\nwhile time.time() < end: pass"
    burners = [subprocess.Popen([sys.executable, "-c", burn], start_new_session=True)
               for _ in range(4 * os.cpu_count())]
    try:
        job, log = start(tmp_path, run, 150, "run.log")
        try:
            job.wait(timeout=150)
        finally:
            stop_job(job)
            log.close()
    finally:
        for b in burners:
            b.kill()
            b.wait()
    text = (tmp_path / "run.log").read_text()
    assert "left out" not in text and f"stopped at step 150" in text, text
    for rank in (1, 2):
        assert actor_lines(run, rank)[-1]["games"] > 0, actor_lines(run, rank)


def test_the_run_finishes_without_an_actor_that_died(tmp_path):
    run = str(tmp_path / "r")
    job, log = start(tmp_path, run, 1500, "run.log")
    try:
        wait_for(lambda: actor_lines(run, 2) and actor_lines(run, 1) and newest_checkpoint_step(run) >= 40, 120,
                 "both actors report and the learner reaches step 40", job, tmp_path / "run.log")
        victim = actor_lines(run, 2)[-1]["pid"]
        os.kill(victim, signal.SIGKILL)
        killed_games = actor_lines(run, 2)[-1]["games"]
        games_of_1 = actor_lines(run, 1)[-1]["games"]
        job.wait(timeout=150)
    finally:
        stop_job(job)
        log.close()
    text = (tmp_path / "run.log").read_text()
    assert f"actor rank 2 is left out: silent for {PEER_TIMEOUT} s" in text, text
    lines = metrics(run)
    lost = [i for i, j in enumerate(lines) if j["kind"] == "actor_lost"]
    assert len(lost) == 1 and lines[lost[0]]["rank"] == 2, lost
    assert [j["step"] for j in lines if j["kind"] == "learn_end"] == [1500], text
    # The run went on after the loss: the learner kept training on the other actor's games.
    later = lines[lost[0]:]
    steps_after = [j["step"] for j in later if j["kind"] == "learn"]
    assert len(steps_after) >= 2 and steps_after[-1] > steps_after[0], later
    games_after = [j["games"] for j in later if j["kind"] == "actor" and j["rank"] == 1]
    assert games_after and games_after[-1] > games_of_1
    assert actor_lines(run, 2)[-1]["games"] == killed_games
