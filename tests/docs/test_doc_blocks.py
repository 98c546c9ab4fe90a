"""Runs every example of the documents (tests/docs/doc_blocks.py says which and how), so an
example that stops working fails the suite. Each runs in a scratch directory that looks like
the repository after a build: build/quax and build/python are the tested build's, and the
folders an example reads (checkpoints, configs, examples, scripts) are the source's."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doc_blocks  # noqa: E402

SOURCE_DIR = Path(os.environ.get("QUAX_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BINARY = Path(os.environ.get("QUAX_BINARY", SOURCE_DIR / "build" / "quax"))
PYTHON_DIR = Path(os.environ.get("PYTHONPATH", str(SOURCE_DIR / "build" / "python")).split(os.pathsep)[0])
BLOCKS = doc_blocks.all_blocks(SOURCE_DIR)
RUN = [b for b in BLOCKS if b.language in doc_blocks.RUNNABLE and b.marker is not None and b.not_run is None]
LIMIT_SECONDS = 180  # a block meant to finish does so well within this on 2 cores


def test_every_example_says_whether_it_runs():
    problems = [b.problem() for b in BLOCKS if b.problem()]
    assert not problems, "\n".join(problems)
    assert len(RUN) >= 10, f"only {len(RUN)} runnable examples found: is the marker syntax broken?"


def scratch_repository(tmp_path):
    for name in ("bench", "checkpoints", "configs", "examples", "scripts", "docs", "variants", "web"):
        (tmp_path / name).symlink_to(SOURCE_DIR / name)
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "quax").symlink_to(BINARY)
    (tmp_path / "build" / "python").symlink_to(PYTHON_DIR)
    env = dict(os.environ)
    env["PATH"] = f"{tmp_path / 'build'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(tmp_path / "build" / "python")
    return env


@pytest.mark.parametrize("block", RUN, ids=[b.name for b in RUN])
def test_example_runs(block, tmp_path):
    env = scratch_repository(tmp_path)
    script = tmp_path / ("example.py" if block.language == "python" else "example.sh")
    script.write_text(block.code)
    command = [sys.executable, str(script)] if block.language == "python" else ["bash", "-eo", "pipefail", str(script)]
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    interrupted = False
    try:
        output, _ = process.communicate(timeout=block.stop_after or LIMIT_SECONDS)
    except subprocess.TimeoutExpired:
        if not block.stop_after:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            pytest.fail(f"{block.name}: still running after {LIMIT_SECONDS} s\n{output[-3000:]}")
        # A long job stopped the way a user stops it: Ctrl-C reaches the whole process group.
        interrupted = True
        os.killpg(process.pid, signal.SIGINT)
        try:
            output, _ = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            pytest.fail(f"{block.name}: did not stop within 60 s of Ctrl-C\n{output[-3000:]}")
    ok = process.returncode == 0 or (interrupted and process.returncode in (130, -signal.SIGINT))
    assert ok, f"{block.name}: exit status {process.returncode}\n{block.code}\n{output[-3000:]}"
    if interrupted:
        # It was working when stopped, not waiting on an error.
        assert "error" not in output.lower(), f"{block.name}: stopped with an error\n{output[-3000:]}"
