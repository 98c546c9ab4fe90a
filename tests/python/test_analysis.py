# `quax analysis` (docs/ANALYSIS.md) driven through its pipes as a client would: several queries
# in flight answered by id (one searcher or several), moveInfos ordered by visits, a win in one
# found with its value, the sign of a lost position, ownership of the stones for the player to
# move, terminate, one error line per bad query, exit 0 at end of input.
import json
import os
import subprocess
import time

import pytest

QUAX = os.environ.get("QUAX_BINARY", "build/quax")
SOURCE_DIR = os.environ.get("QUAX_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
HEX3 = {"variant": "hex", "size": 3, "swap": False}
HEX5 = {"variant": "hex", "size": 5, "swap": False}
# A hex 5x5 net trained with an ownership head, exported (tests/data/README.md).
OWNERSHIP_MODEL = os.path.join(SOURCE_DIR, "tests", "data", "models", "hex5-ownership.pt")
# Black's c1 c2 c3 c4 join row 1 to row 4 and reach row 5 by c5 or b5; White holds a2 e4 d1.
NEAR_END = ["c1", "a2", "c2", "e4", "c3", "d1", "c4"]


def run_engine(lines, timeout=120, args=()):
    """Sends `lines` (dicts or raw strings), closes stdin, returns (answers, returncode)."""
    text = "".join((l if isinstance(l, str) else json.dumps(l)) + "\n" for l in lines)
    p = subprocess.run([QUAX, "analysis", *args], input=text, capture_output=True, text=True, timeout=timeout)
    return [json.loads(l) for l in p.stdout.splitlines()], p.returncode


def test_queries_in_flight_come_back_by_id_sorted_by_visits():
    queries = [{"id": f"q{i}", "moves": ["d4", "c3"][: i % 3], "maxVisits": 60, "size": 7} for i in range(6)]
    answers, rc = run_engine(queries)
    assert rc == 0
    assert sorted(a["id"] for a in answers) == sorted(q["id"] for q in queries)
    for a in answers:
        assert a["isDuringSearch"] is False and "error" not in a
        visits = [m["visits"] for m in a["moveInfos"]]
        assert visits == sorted(visits, reverse=True)
        assert [m["order"] for m in a["moveInfos"]] == list(range(len(visits)))
        assert abs(sum(visits) - 60) <= 2 and a["rootInfo"]["visits"] >= 59
        assert all(m["pv"][0] == m["move"] for m in a["moveInfos"])
        assert abs(a["rootInfo"]["winrate"] - (1 + a["rootInfo"]["value"]) / 2) < 1e-6


@pytest.mark.parametrize("threads,in_flight", [(1, 64), (3, 4), (2, 1)])
def test_every_position_answered_whatever_the_searchers(threads, in_flight):
    # --threads 3 --in-flight 4: three searchers share four positions in flight at a time.
    queries = [dict(HEX5, id=f"s{i}", moves=NEAR_END[: i % 6], maxVisits=40) for i in range(9)]
    answers, rc = run_engine(queries, args=("--threads", str(threads), "--in-flight", str(in_flight)))
    assert rc == 0
    assert sorted(a["id"] for a in answers) == sorted(q["id"] for q in queries)
    for a in answers:
        assert "error" not in a and a["rootInfo"]["visits"] >= 39
        assert abs(sum(m["visits"] for m in a["moveInfos"]) - 40) <= 2


def test_win_in_one_first_and_lost_position_negative():
    # Black joins rows 1 and 3: with a1 a2, a3 wins at once.
    win = dict(HEX3, id="win", moves=["a1", "c1", "a2", "c2"], maxVisits=200, includePolicy=True)
    # White to move against b1 b2, which threatens a3 and b3: lost whatever White plays.
    lost = dict(HEX3, id="lost", moves=["b1", "c1", "b2"], maxVisits=200)
    answers, rc = run_engine([win, lost])
    assert rc == 0
    by_id = {a["id"]: a for a in answers}
    w = by_id["win"]
    assert w["moveInfos"][0]["move"] == "a3" and w["moveInfos"][0]["value"] > 0.99
    assert w["rootInfo"]["value"] > 0.8 and w["rootInfo"]["currentPlayer"] == "black"
    assert set(w["policy"]) == {"a3", "b1", "b2", "b3", "c3"} and abs(sum(w["policy"].values()) - 1) < 1e-4
    lo = by_id["lost"]
    assert lo["rootInfo"]["currentPlayer"] == "white" and lo["rootInfo"]["value"] < -0.8
    assert all(m["value"] < 0 for m in lo["moveInfos"])


def test_ownership_of_the_stones_has_the_sign_of_the_player_to_move():
    white_to_move = dict(HEX5, id="w", moves=NEAR_END, maxVisits=20, includeOwnership=True)
    black_to_move = dict(HEX5, id="b", moves=NEAR_END[:-1], maxVisits=20, includeOwnership=True)
    plain = dict(HEX5, id="plain", moves=NEAR_END, maxVisits=20)
    answers, rc = run_engine([white_to_move, black_to_move, plain], args=("--model", OWNERSHIP_MODEL))
    assert rc == 0
    by_id = {a["id"]: a for a in answers}
    assert set(by_id) == {"w", "b", "plain"}, answers
    cells = {f"{c}{r}" for c in "abcde" for r in range(1, 6)}
    for a in (by_id["w"], by_id["b"]):
        assert set(a["ownership"]) == cells  # one entry per cell of the board, named as moves are
        assert all(-1 <= v <= 1 for v in a["ownership"].values())
    # Stones stay where they are: the mover's own +1, the opponent's -1 (the model's own
    # prediction, so with a margin). White to move: Black's stones are the opponent's.
    w = by_id["w"]
    assert w["rootInfo"]["currentPlayer"] == "white"
    assert all(w["ownership"][c] < -0.5 for c in NEAR_END[0::2]), w["ownership"]
    assert all(w["ownership"][c] > 0.5 for c in NEAR_END[1::2]), w["ownership"]
    b = by_id["b"]
    assert b["rootInfo"]["currentPlayer"] == "black"
    assert all(b["ownership"][c] > 0.5 for c in NEAR_END[:-1:2]), b["ownership"]
    assert all(b["ownership"][c] < -0.5 for c in NEAR_END[1::2]), b["ownership"]
    assert "ownership" not in by_id["plain"]


def test_ownership_is_the_roots_in_every_report():
    q = dict(HEX5, id="r", moves=NEAR_END[:3], maxVisits=4000, includeOwnership=True, reportDuringSearchEvery=0.01)
    answers, rc = run_engine([q], args=("--model", OWNERSHIP_MODEL))
    assert rc == 0 and answers[-1]["isDuringSearch"] is False
    assert all(a["ownership"] == answers[-1]["ownership"] for a in answers)


def test_ownership_from_a_model_without_the_head_is_one_error_line():
    # The shipped models have no ownership head.
    q = dict(HEX3, id="own", maxVisits=10, includeOwnership=True)
    good = dict(HEX3, id="good", maxVisits=10)
    answers, rc = run_engine([q, good])
    assert rc == 0 and len(answers) == 2, answers
    err, ok = answers
    assert err["id"] == "own" and err["field"] == "includeOwnership" and "no ownership head" in err["error"], err
    assert ok["id"] == "good" and "error" not in ok and "ownership" not in ok


def test_analyze_turns_and_game_over():
    q = dict(HEX3, id="g", moves=["a1", "c1", "a2", "c2", "a3"], analyzeTurns=[0, 4, 5], maxVisits=20)
    answers, rc = run_engine([q])
    assert rc == 0
    turns = {a["turnNumber"]: a for a in answers}
    assert sorted(turns) == [0, 4, 5]
    assert turns[5]["gameOver"] is True and turns[5]["winner"] == "black" and turns[5]["moveInfos"] == []
    assert turns[4]["moveInfos"][0]["move"] == "a3"


def test_terminate_stops_a_long_query_and_reports_during_search():
    p = subprocess.Popen([QUAX, "analysis"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    p.stdin.write(json.dumps({"id": "long", "maxVisits": 100000, "reportDuringSearchEvery": 0.2}) + "\n")
    p.stdin.flush()
    first = json.loads(p.stdout.readline())
    assert first["id"] == "long" and first["isDuringSearch"] is True
    start = time.time()
    p.stdin.write(json.dumps({"id": "t", "action": "terminate", "terminateId": "long"}) + "\n")
    p.stdin.flush()
    seen = []
    while True:
        a = json.loads(p.stdout.readline())
        seen.append(a)
        if a.get("id") == "long" and a.get("isDuringSearch") is False:
            break
    assert time.time() - start < 30
    assert {"id": "t", "action": "terminate", "terminateId": "long"} in seen
    assert seen[-1]["rootInfo"]["visits"] < 100000
    p.stdin.close()
    assert p.wait(timeout=60) == 0


BAD = [
    ('{"id": "x", "maxVisits": ', None, ""),                     # malformed JSON
    ("[" * 100 + "]" * 100, None, ""),                           # nested too deep
    ({"id": "a", "maxVisits": "many"}, "a", "maxVisits"),        # wrong type
    ({"id": "b", "moves": ["a1", "a1"], **HEX3}, "b", "moves"),  # illegal move at index 1
    ({"id": "c", "variant": "chess"}, "c", "variant"),           # unknown variant
    ({"id": "d", "variant": "hex", "size": 200}, "d", "size"),   # size out of range
    ({"id": "e", "maxVisits": 0}, "e", "maxVisits"),             # maxVisits out of range
    ({"id": "f", "maxVisits": 100001}, "f", "maxVisits"),
    ({"maxVisits": 5}, None, "id"),                              # missing id
    ({"id": "g", "komi": 7.5}, "g", "komi"),                     # unknown field
    ({"id": "h", "analyzeTurns": [3]}, "h", "analyzeTurns"),     # turn past the moves
    ({"id": "i", "includeOwnership": 1}, "i", "includeOwnership"),  # wrong type
    ('{"id": "big", "moves": ["' + "a" * (1 << 20) + '"]}', None, ""),  # line over 1 MB
]


@pytest.mark.parametrize("bad,id_,field", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_query_one_error_line_then_serving(bad, id_, field):
    good = dict(HEX3, id="good", maxVisits=10)
    answers, rc = run_engine([bad, good])
    assert rc == 0
    assert len(answers) == 2, answers
    err, ok = answers
    assert "error" in err and err["id"] == id_ and err["field"] == field, err
    assert ok["id"] == "good" and "error" not in ok and ok["moveInfos"]


def test_priority_first_when_queries_wait():
    qs = [dict(HEX3, id=f"low{i}", maxVisits=30) for i in range(3)] + [dict(HEX3, id="high", maxVisits=30, priority=5)]
    # One position in flight: the three low queries are read before the first search ends,
    # and the high one overtakes those still waiting.
    text = "".join(json.dumps(q) + "\n" for q in qs)
    p = subprocess.run([QUAX, "analysis", "--in-flight", "1"], input=text, capture_output=True, text=True, timeout=120)
    ids = [json.loads(l)["id"] for l in p.stdout.splitlines()]
    assert p.returncode == 0 and sorted(ids) == ["high", "low0", "low1", "low2"]
    assert ids.index("high") < ids.index("low2")


def test_exits_zero_at_eof_with_no_input():
    answers, rc = run_engine([])
    assert rc == 0 and answers == []
