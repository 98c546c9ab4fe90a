# bench/genmove_time.py: genmove at every recorded position of one side, the recorded move
# played after each. The engine is asked at those positions and no others (each answer is a
# legal move there), and unreadable records or a side absent from a game are refused.
import json
import os
import random
import subprocess
import sys

import quax

SOURCE = os.environ["QUAX_SOURCE_DIR"]
QUAX = os.environ["QUAX_BINARY"]
SCRIPT = os.path.join(SOURCE, "bench", "genmove_time.py")


def random_record(seed):
    rng = random.Random(seed)
    game = quax.Game("hex", size=5, swap=False)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game.record()


def run(tmp_path, records, side="ours"):
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    moves = tmp_path / "moves.txt"
    done = subprocess.run([sys.executable, SCRIPT, "--records", str(path), "--games", "5", "--side", side,
                           "--engine", f"{QUAX} gtp --variant hex --size 5 --player random --seed 2",
                           "--setup", "pie off", "--moves", str(moves), "--move-seconds", "30"],
                          capture_output=True, text=True, timeout=300)
    return done, moves.read_text().splitlines() if moves.exists() else []


def test_every_position_of_the_side_is_asked_and_answered_legally(tmp_path):
    records = [{"black": "ours@1" if i % 2 == 0 else "theirs", "white": "theirs" if i % 2 == 0 else "ours@1",
                "moves": random_record(i)} for i in range(4)]
    done, answers = run(tmp_path, records)
    assert done.returncode == 0, done.stderr
    asked = []
    for r in records:
        ours = "black" if r["black"].startswith("ours") else "white"
        game = quax.Game("hex", size=5, swap=False)
        for move in r["moves"].split():
            if game.to_move == ours:
                asked.append(game.clone())
            game.apply_text(move)
    assert len(answers) == len(asked) > 0
    assert f"{len(asked)} genmoves over 4 games" in done.stdout
    for game, line in zip(asked, answers):
        move, seconds = line.split()
        assert game.is_legal(game.text_to_action(move)), (game.record(), move)
        assert float(seconds) >= 0


def test_bad_records_and_a_missing_side_are_refused(tmp_path):
    done, _ = run(tmp_path, [{"black": "a", "white": "b", "moves": random_record(1)}], side="ours")
    assert done.returncode == 2 and "no player named ours" in done.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    done = subprocess.run([sys.executable, SCRIPT, "--records", str(bad), "--side", "x", "--engine", "true"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "cannot read" in done.stderr
