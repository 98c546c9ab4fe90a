# One rule for where the shipped models are found (nets/model_locations.h), whatever the
# working directory: the commands, `quax serve`'s model list, the Python module and the
# examples, each started from an empty directory; QUAX_MODELS replaces the folders; a program
# installed with `cmake --install` finds the copies installed beside it. (Started elsewhere
# than the repository, `quax serve` once offered no model, examples/play_vs_uct.py failed with
# FileNotFoundError and quax.load_model('quax-5.pt') found nothing.)
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from conftest import SOURCE_DIR

QUAX = os.environ.get("QUAX_BINARY", str(SOURCE_DIR / "build" / "quax"))
BUILD_DIR = Path(QUAX).resolve().parent
SHIPPED = (SOURCE_DIR / "checkpoints").resolve()


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if k != "QUAX_MODELS"}
    env["PYTHONPATH"] = str(BUILD_DIR / "python")
    env.update(extra)
    return env


def run(args, cwd, env=None, stdin="quit\n"):
    return subprocess.run(args, cwd=cwd, env=env or environment(), input=stdin, capture_output=True, text=True,
                          timeout=300)


def engine_of_play(out):
    """The engine's name in `quax play`'s first line: '... the engine (<name>) plays ...'."""
    first = out.splitlines()[0]
    return first.split("the engine (", 1)[1].rsplit(") plays", 1)[0]


def test_commands_find_the_shipped_models_from_an_empty_directory(tmp_path):
    out = run([QUAX, "play", "--size", "7", "--player", "random"], tmp_path)  # starts at all
    assert out.returncode == 0, out.stderr
    play = run([QUAX, "play", "--size", "7"], tmp_path)
    assert play.returncode == 0, play.stderr
    assert engine_of_play(play.stdout).startswith(str(SHIPPED / "quax-7.pt")), play.stdout
    # A shipped model by its name alone, and as the docs write it from the repository root.
    for name in ("quax-7.pt", "checkpoints/quax-7.pt"):
        gtp = run([QUAX, "gtp", "--size", "7", "--model", name, "--sims", "8"], tmp_path, stdin="genmove black\nquit\n")
        assert gtp.returncode == 0 and gtp.stdout.startswith("= "), (name, gtp.stdout, gtp.stderr)
    # A name that is nowhere: one line naming the folders looked in.
    missing = run([QUAX, "gtp", "--model", "no-such-model.pt"], tmp_path)
    assert missing.returncode != 0
    assert "no-such-model.pt" in missing.stderr and str(SHIPPED) in missing.stderr, missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1, missing.stderr


def test_the_server_offers_the_shipped_models_from_an_empty_directory(tmp_path):
    process = subprocess.Popen([QUAX, "serve", "--port", "0"], cwd=tmp_path, env=environment(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("quax serve: http://"), (line, process.stderr.read())
        url = line.split(": ", 1)[1].strip().rstrip("/")
        players = json.load(urllib.request.urlopen(url + "/api/players", timeout=30))
        names = sorted(Path(m["path"]).name for m in players["models"])
        shipped = sorted(p.name for p in SHIPPED.glob("*.pt"))
        assert names == shipped, names
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_python_and_the_examples_find_the_shipped_models_from_an_empty_directory(tmp_path):
    code = "import quax; m = quax.load_model('quax-5.pt'); print(m.path)"
    out = run([sys.executable, "-c", code], tmp_path)
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()) == SHIPPED / "quax-5.pt"
    missing = run([sys.executable, "-c", "import quax; quax.load_model('no-such-model.pt')"], tmp_path)
    assert "FileNotFoundError" in missing.stderr and str(SHIPPED) in missing.stderr, missing.stderr
    example = run([sys.executable, str(SOURCE_DIR / "examples" / "play_vs_uct.py"), "--games", "1", "--sims", "8",
                   "--uct", "20"], tmp_path)
    assert example.returncode == 0, example.stderr
    assert json.loads(example.stdout.strip().splitlines()[-1])["games"] == 1


def test_quax_models_replaces_the_folders(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    shutil.copy(SHIPPED / "quax-5.pt", mine / "my-five.pt")
    env = environment(QUAX_MODELS=str(mine))
    play = run([QUAX, "play", "--size", "5"], tmp_path, env)
    assert play.returncode == 0, play.stderr
    assert engine_of_play(play.stdout).startswith(str(mine / "my-five.pt")), play.stdout
    # The shipped folders are not looked in any more.
    gone = run([QUAX, "gtp", "--model", "quax-7.pt"], tmp_path, env)
    assert gone.returncode != 0 and str(mine) in gone.stderr, gone.stderr


def test_an_installed_program_finds_the_models_installed_beside_it(tmp_path):
    prefix = tmp_path / "prefix"
    out = subprocess.run(["cmake", "--install", str(BUILD_DIR), "--prefix", str(prefix)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    installed = prefix / "share" / "quax" / "checkpoints"
    assert sorted(p.name for p in installed.glob("*.pt")) == sorted(p.name for p in SHIPPED.glob("*.pt"))
    assert not (installed / "learner").exists()  # the learner states stay in the repository
    play = run([str(prefix / "bin" / "quax"), "play", "--size", "7"], tmp_path)
    assert play.returncode == 0, play.stderr
    assert engine_of_play(play.stdout).startswith(str(installed.resolve() / "quax-7.pt")), play.stdout
