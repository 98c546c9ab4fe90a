# `quax serve --variants DIR`: the board offers the rules files of DIR beside the shipped variants
# (docs/VARIANTS.md), and plays each to the end against an engine, the turns of several stones
# as their rules say, and against the model trained on it (examples/models/); a directory it
# cannot take stops the server before it listens, in one line.
import random
import subprocess

import pytest

from serve_fixture import QUAX, SOURCE_DIR, start_server, stop_server
from test_api import call, ok, play_out


@pytest.fixture(scope="module")
def server():
    started = start_server(["--variants", "examples/variants", "--models", "examples/models"])
    yield started
    assert stop_server(started) == 0


def test_the_files_are_listed_beside_the_shipped_variants(server):
    listed = {v["name"]: v for v in ok(server, "GET", "/api/variants")}
    assert {"quax", "hex", "twostep", "quadrex-pairs", "quikquax-free"} <= set(listed)
    assert listed["twostep"]["default_size"] == 9 and listed["twostep"]["swap"] is False
    assert listed["quadrex-pairs"]["sizes"] == list(range(4, 27, 2))  # one stone per quadrant: even sides


@pytest.mark.parametrize("variant,size", [("twostep", 5), ("quadrex-pairs", 6), ("quikquax-free", 6)])
def test_a_whole_game_of_each_file(server, variant, size):
    view = ok(server, "POST", "/api/games", {"variant": variant, "size": size, "opponent": "uct:200",
                                             "human": "white"})
    assert view["layout"]["items"] and view["status"].startswith("Black to move")
    view = play_out(server, view, random.Random(size))
    assert view["winner"] in ("black", "white")
    replay = ok(server, "POST", "/api/replay", {"variant": variant, "size": size, "record": view["record"]})
    assert replay["winner"] == view["winner"] and replay["plies"] == view["plies"]
    # Black's one stone, then turns of two (quikquax-free: three, then four), ply by ply.
    first_turns = {"twostep": ["black", "white", "white", "black", "black", "white"],
                   "quadrex-pairs": ["black", "white", "white", "black", "black", "white"],
                   "quikquax-free": ["black", "white", "white", "white", "black", "black"]}[variant]
    movers = [ok(server, "POST", "/api/games/%s/goto" % replay["id"], {"ply": ply})["to_move"]
              for ply in range(min(len(first_turns), view["plies"]))]
    assert movers == first_turns[:len(movers)]


@pytest.mark.parametrize("variant,size,parent", [("twostep", 9, "quickway"), ("quadrex-pairs", 8, "quadrex"),
                                                  ("quikquax-free", 10, "quikquax")])
def test_the_model_of_a_file_plays_its_game(server, variant, size, parent):
    model = "%s-%d.pt" % (variant, size)
    models = {m["name"]: m for m in ok(server, "GET", "/api/players")["models"]}
    assert models[model]["variant"] == variant and models[model]["sizes"] == [size]
    view = ok(server, "POST", "/api/games", {"variant": variant, "size": size, "opponent": model, "sims": 16,
                                             "human": "white"})
    assert view["opponent"].endswith(model + ":sims=16")
    view = play_out(server, view, random.Random(size))
    assert view["winner"] in ("black", "white")
    # Its rules, not its parent's: a model of one game does not open a game of another.
    status, reply = call(server, "POST", "/api/games", {"variant": parent, "size": size, "opponent": model})
    assert status == 400 and variant in reply["error"], reply


def test_a_size_the_file_does_not_allow_is_refused(server):
    status, reply = call(server, "POST", "/api/games", {"variant": "quadrex-pairs", "size": 7, "human": "both"})
    assert status == 400 and "even size" in reply["error"], reply


def test_a_bad_directory_stops_the_server_in_one_line(tmp_path):
    (tmp_path / "bad.yaml").write_text("name: bad\ndiagonal: link\nfourth_point: forbidden\nsizes: {default: 5}\n")
    for args, said in ((["--variants", str(tmp_path)], "bad.yaml: fourth_point: forbidden is played with diagonal: always"),
                       (["--variants", str(tmp_path / "none")], "not a directory of rules files")):
        done = subprocess.run([QUAX, "serve", "--port", "0", *args], cwd=SOURCE_DIR, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode != 0 and done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1 and said in done.stderr, done.stderr
