# bench/gtp_match.py: a match between two GTP engines, refereed by `quax gtp`. The records it
# writes replay to the winners it states, the stronger engine wins, and an engine's faults
# (an illegal move, a refused setup command, a death) are told apart from a lost game.
import json
import os
import subprocess
import sys

import quax

SOURCE = os.environ["QUAX_SOURCE_DIR"]
QUAX = os.environ["QUAX_BINARY"]
SCRIPT = os.path.join(SOURCE, "bench", "gtp_match.py")


def match(tmp_path, a, b, *extra, a_setup="variant hex 5;pie off", b_setup="variant hex 5;pie off"):
    results = tmp_path / "games.jsonl"
    run = subprocess.run([sys.executable, SCRIPT, "--variant", "hex", "--size", "5", "--referee", QUAX,
                          "--a", a, "--a-name", "a", "--a-setup", a_setup, "--b", b, "--b-name", "b",
                          "--b-setup", b_setup, "--results", str(results), "--move-seconds", "30", *extra],
                         capture_output=True, text=True, timeout=600)
    games = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    return run, games


def fake_engine(tmp_path, genmove_answer, die_on_genmove=False, genmove_sleep=0.0):
    """A GTP engine that answers every command with success and genmove with one fixed answer
    (after `genmove_sleep` seconds): `genmove_answer` follows '= ' and may hold more lines."""
    path = tmp_path / "fake_engine.py"
    path.write_text(f"""import sys, time
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        print("=\\n", flush=True)
        break
    if words[0] == "genmove":
        if {die_on_genmove!r}:
            sys.exit(3)
        time.sleep({genmove_sleep!r})
        print("= {genmove_answer}\\n", flush=True)
    else:
        print("=\\n", flush=True)
""")
    return f"{sys.executable} {path}"


def test_the_stronger_engine_wins_and_every_record_replays(tmp_path):
    run, games = match(tmp_path, f"{QUAX} gtp --player uct:1000 --seed 3", f"{QUAX} gtp --player random --seed 4",
                       "--openings", "a1,c3,e5")
    assert run.returncode == 0, run.stderr
    assert len(games) == 6
    # Each opening once with each engine as Black, the opening being Black's first move.
    assert sorted((g["opening"], g["black"]) for g in games) == sorted(
        (o, e) for o in ("a1", "c3", "e5") for e in ("a", "b"))
    for g in games:
        assert g["moves"].split()[0] == g["opening"]
        replayed = quax.Game.from_record("hex", g["moves"], size=5, swap=False)
        assert replayed.is_over and replayed.winner == g["winner"], g
        assert g["reason"] == "connection"
    assert all(g[g["winner"]] == "a" for g in games), games
    assert run.stdout.splitlines()[-1].startswith("a: 6/6 (100.0%"), run.stdout


def test_mirror_plays_each_opening_and_its_half_turn_image_with_the_colours_exchanged(tmp_path):
    run, games = match(tmp_path, f"{QUAX} gtp --player random --seed 8", f"{QUAX} gtp --player random --seed 9",
                       "--openings", "a1,b4", "--mirror")
    assert run.returncode == 0, run.stderr
    # On hex 5x5 the half turn sends a1 to e5 and b4 to d2; A is Black from the listed cell.
    assert [(g["opening"], g["black"]) for g in games] == [("a1", "a"), ("e5", "b"), ("b4", "a"), ("d2", "b")]
    for g in games:
        assert g["moves"].split()[0] == g["opening"]
        assert quax.Game.from_record("hex", g["moves"], size=5, swap=False).winner == g["winner"]


def test_mirror_refuses_the_centre_and_a_pair_of_images(tmp_path):
    for openings in ("c3", "a1,e5"):
        run, games = match(tmp_path, f"{QUAX} gtp --player random", f"{QUAX} gtp --player random",
                           "--openings", openings, "--mirror")
        assert run.returncode == 2 and games == [], openings
        assert "must all differ" in run.stderr.strip().splitlines()[-1], run.stderr


def test_games_from_the_empty_board_alternate_colours(tmp_path):
    run, games = match(tmp_path, f"{QUAX} gtp --player random --seed 5", f"{QUAX} gtp --player random --seed 6",
                       "--games", "3")
    assert run.returncode == 0, run.stderr
    assert [g["black"] for g in games] == ["a", "b", "a"]
    for g in games:
        assert quax.Game.from_record("hex", g["moves"], size=5, swap=False).winner == g["winner"]


def test_an_illegal_move_loses_the_game_and_the_match_goes_on(tmp_path):
    # The fake engine always answers c3: legal once, then occupied.
    run, games = match(tmp_path, fake_engine(tmp_path, "c3"), f"{QUAX} gtp --player random --seed 7", "--games", "2")
    assert run.returncode == 0, run.stderr
    assert len(games) == 2
    for g in games:
        faulty = "black" if g["black"] == "a" else "white"
        assert g["winner"] != faulty and "illegal" in g["reason"] and "c3" in g["reason"], g


def test_each_engines_thinking_time_is_recorded(tmp_path):
    # The fake engine takes 0.3 s a genmove and plays c3: its first move is legal, its second
    # illegal, so each game holds one or two of its genmoves, all timed; quax's random player
    # answers at once.
    run, games = match(tmp_path, fake_engine(tmp_path, "c3", genmove_sleep=0.3),
                       f"{QUAX} gtp --player random --seed 7", "--games", "2")
    assert run.returncode == 0, run.stderr
    for g in games:
        moves_of_a = g["genmoves"]["a"]
        assert moves_of_a in (1, 2), g
        assert 0.3 * moves_of_a <= g["seconds"]["a"] < 0.3 * moves_of_a + 2, g
        assert g["genmoves"]["b"] >= 1 and g["seconds"]["b"] < 0.3 * g["genmoves"]["b"], g
    summary = run.stdout.splitlines()[-1]
    a_seconds = float(summary.split("seconds a move: a ")[1].split(",")[0])
    assert 0.3 <= a_seconds < 1.3, summary


def test_an_engine_that_dies_ends_the_match_with_one_line(tmp_path):
    run, games = match(tmp_path, fake_engine(tmp_path, "c3", die_on_genmove=True),
                       f"{QUAX} gtp --player random", "--games", "2")
    assert run.returncode == 1
    assert games == []
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gtp_match: a: exited (status 3)"), run.stderr


def test_a_refused_setup_command_is_named(tmp_path):
    run, _ = match(tmp_path, f"{QUAX} gtp --player random", f"{QUAX} gtp --player random",
                   b_setup="variant hex 5;boardsize 99")
    assert run.returncode == 1
    assert "b: 'boardsize 99' refused" in run.stderr, run.stderr


def endless_engine(tmp_path):
    """An engine that answers genmove with lines without end (no blank line ever)."""
    path = tmp_path / "endless_engine.py"
    path.write_text("""import sys
for line in sys.stdin:
    if line.startswith("genmove"):
        sys.stdout.write("= c3\\n")
        while True:
            sys.stdout.write("x" * 1000 + "\\n")
    else:
        print("=\\n", flush=True)
""")
    return f"{sys.executable} {path}"


def test_an_engine_that_writes_without_end_is_stopped_at_the_bound(tmp_path):
    # It once drove the script to 3.8 GB.
    run, games = match(tmp_path, endless_engine(tmp_path), f"{QUAX} gtp --player random", "--games", "1")
    assert run.returncode == 1 and games == []
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "answer to 'genmove black' longer than 1048576 bytes" in lines[0], run.stderr


def test_an_empty_answer_or_two_answers_to_one_command_are_named(tmp_path):
    # Each once ended in an IndexError traceback.
    run, _ = match(tmp_path, fake_engine(tmp_path, ""), f"{QUAX} gtp --player random", "--games", "1")
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "a: an empty answer to 'genmove black'" in lines[0], run.stderr
    run, _ = match(tmp_path, fake_engine(tmp_path, "c3\\n\\n= d4"), f"{QUAX} gtp --player random", "--games", "1")
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "a: wrote '= d4' before" in lines[0] and "more answers than commands" in lines[0], \
        run.stderr
