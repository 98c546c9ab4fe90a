# `quax serve`'s JSON API: whole games, 1,000 malformed or illegal requests, 20 games at once,
# bounded memory, analysis streams that end when their client leaves, runs and results.
import http.client
import json
import random
import threading
import time

import pytest

from serve_fixture import SOURCE_DIR, start_server, stop_server


def call(server, method, path, body=None, raw=None, timeout=120):
    """One request on a new connection: (status, JSON body). A connection reset before any
    answer is retried, as a browser does: on 2 busy cores the server's accept queue (5
    connections, cpp-httplib's) can overflow when twenty clients connect at once."""
    data = raw if raw is not None else (json.dumps(body) if body is not None else None)
    for attempt in range(5):
        conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=timeout)
        try:
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            payload = response.read()
            return response.status, (json.loads(payload) if payload else None)
        except ConnectionResetError:
            if attempt == 4:
                raise
            time.sleep(0.2)
        finally:
            conn.close()


def ok(server, method, path, body=None):
    status, reply = call(server, method, path, body)
    assert status in (200, 201), (path, status, reply)
    return reply


def play_out(server, view, rng):
    """Plays the human side randomly, asking the engine for its turns, to the end."""
    while view["winner"] is None:
        if view["engine_to_move"]:
            view = ok(server, "POST", "/api/games/%s/engine" % view["id"])
        else:
            view = ok(server, "POST", "/api/games/%s/play" % view["id"], {"action": rng.choice(view["legal"])})
    return view


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    runs = tmp_path_factory.mktemp("runs")
    run = runs / "tiny"
    run.mkdir()
    (run / "metrics.jsonl").write_text(
        '{"kind":"learn","step":50,"loss":3.5,"time_s":10}\n{"kind":"selfplay","games":9,"time_s":12}\n{"kind":"le')
    (run / "ladder-5x5.json").write_text('[{"player":"models/model-0000000050.pt","kind":"model","step":50,"elo":12.5}]')
    (runs / "results.jsonl").write_text(
        '{"black":"a","white":"b","result":"white","moves":3,"variant":"quax","size":5,"swap":false,"record":"c3 d4 b2"}\n')
    started = start_server(["--runs", str(runs), "--max-games", "24", "--max-analyses", "4"])
    started["runs"] = runs
    yield started
    assert stop_server(started) == 0


def test_catalogue(server):
    variants = ok(server, "GET", "/api/variants")
    by_name = {v["name"]: v for v in variants}
    assert len(by_name) == 13 and by_name["quikquax"]["sizes"][:3] == [4, 6, 8]
    assert by_name["quady2"]["sizes"][:2] == [5, 9]
    players = ok(server, "GET", "/api/players")
    names = {m["name"]: m for m in players["models"]}
    assert names["quax-5.pt"]["variant"] == "quax" and names["quax-11.pt"]["sizes"] == [11, 9]
    assert "uct:1000" in players["baselines"]
    levels = players["levels"]
    assert [l["level"] for l in levels] == list(range(1, 11))
    assert levels[0]["name"] == "novice" and levels[-1]["name"] == "full strength"


def test_a_level_plays_the_model_weaker(server):
    """The browser offers the model's levels by name (issue 34): a game opened at a level
    records it in the opponent; a level out of range is refused and opens nothing."""
    view = ok(server, "POST", "/api/games", {"variant": "quax", "size": 5, "opponent": "quax-5.pt", "level": 3,
                                             "sims": 16, "human": "white"})
    assert view["opponent"].endswith("quax-5.pt:level=3")
    view = ok(server, "POST", "/api/games/%s/engine" % view["id"])
    assert view["ply"] == 1
    for bad in (11, -1, "3", 2.5):
        status, reply = call(server, "POST", "/api/games", {"variant": "quax", "size": 5, "opponent": "quax-5.pt",
                                                             "level": bad})
        assert status == 400 and "level" in reply["error"], (bad, status, reply)


def test_a_games_search_keys_are_read_as_a_config_reads_them(server):
    """Every search key of configs/README.md can be given to a model engine under "search",
    with a config's range and its error line; simulations keeps the server's bound of 'sims'."""
    import quax  # the module of the same build: its search_keys() are the schema's
    game = {"variant": "quax", "size": 5, "opponent": "quax-5.pt", "human": "white"}
    for key in quax.search_keys():
        kind = key["kind"]
        value = (int(key["high"]) + 1 if kind == "integer" else key["high"] * 2 + 1 if kind == "number"
                 else "maybe" if kind == "boolean" else "alphabeta")
        expected = f"expected puct or gumbel, got '{value}'" if kind == "rule" else "expected " + key["expected"]
        status, reply = call(server, "POST", "/api/games", dict(game, search={key["key"]: value}))
        assert (status, reply["error"]) == (400, f"bad value for '{key['key']}': {expected}"), key
    status, reply = call(server, "POST", "/api/games", dict(game, search={"simulations": 200000}))
    assert (status, reply["error"]) == (400, "bad value for 'simulations': at most 100000 here")
    status, reply = call(server, "POST", "/api/games", dict(game, search={"fpu": 0.1}))
    assert status == 400 and reply["error"].startswith("unknown search key 'fpu'")
    status, reply = call(server, "POST", "/api/games", dict(game, search=[1]))
    assert status == 400 and "'search' must be an object" in reply["error"]
    view = ok(server, "POST", "/api/games",
              dict(game, search={"simulations": 16, "rule": "gumbel", "gumbel_m": 4, "fpu_reduction": 0.1}))
    assert view["opponent"].endswith("quax-5.pt:sims=16")
    view = ok(server, "POST", "/api/games/%s/engine" % view["id"])
    assert view["ply"] == 1


@pytest.mark.parametrize("variant,size,opponent", [("quax", 5, "quax-5.pt"), ("stymie", 5, "stymie-5.pt"),
                                                   ("hex", 5, "uct:200"), ("torax", 5, "random")])
def test_a_whole_game_against_an_engine(server, variant, size, opponent):
    view = ok(server, "POST", "/api/games", {"variant": variant, "size": size, "opponent": opponent, "sims": 16,
                                             "human": "white"})
    assert view["engine_to_move"] and view["layout"]["items"]
    view = play_out(server, view, random.Random(1))
    assert view["winner"] in ("black", "white") and view["ply"] == view["plies"] == len(view["history"])
    if variant != "torax":  # torax's chain is the connecting seat's: colours and seats differ
        owned = {o["action"] for o in view["occupied"] if o["player"] == view["winner"]}
        assert view["chain"] and set(view["chain"]) <= owned
    replay = ok(server, "POST", "/api/replay", {"variant": variant, "size": size, "record": view["record"]})
    assert replay["winner"] == view["winner"] and replay["plies"] == view["plies"]
    back = ok(server, "POST", "/api/games/%s/goto" % replay["id"], {"ply": 2})
    assert back["ply"] == 2 and back["winner"] is None and back["plies"] == view["plies"]


def test_the_view_says_the_moves_and_the_turn_in_the_games_own_words(server):
    """`move_help` and `status` are the game's own lines, as `quax play` prints them (issue 29):
    hex offers no link and no pass, swap only at White's first move; torax explains its auction;
    the engine is named when it is to move."""
    view = ok(server, "POST", "/api/games", {"variant": "hex", "size": 5, "swap": True, "human": "both"})
    assert view["move_help"] == "Moves: a stone on an empty cell (e.g. a1)." and view["status"] == "Black to move"
    view = ok(server, "POST", "/api/games/%s/play" % view["id"], {"move": "c2"})
    assert view["move_help"] == "Moves: a stone on an empty cell (e.g. a1), or swap (black's c2 becomes your b3)."
    assert view["status"] == "White to move, swap available"
    view = ok(server, "POST", "/api/games/%s/play" % view["id"], {"move": "d4"})
    assert "swap" not in view["move_help"] and view["status"] == "Black to move"

    view = ok(server, "POST", "/api/games", {"variant": "torax", "size": 5, "human": "both"})
    assert view["move_help"].startswith("Auction: place blocks (white stones)") and "or adopt" in view["move_help"]
    assert view["status"] == "Auction: black to move, 0 blocks on the board, 0 this turn (at most 5)"
    view = ok(server, "POST", "/api/games/%s/play" % view["id"], {"move": "c3"})
    assert view["move_help"] == "Auction: another block on an empty cell, up to 4 more this turn, or end to close your turn."
    assert view["status"] == "Auction: black to move, 1 block on the board, 1 this turn (at most 5)"

    view = ok(server, "POST", "/api/games", {"variant": "quax", "size": 5, "opponent": "random", "human": "white"})
    assert view["engine_to_move"] and view["status"] == "Black to move (random)"
    assert "a link between two of your stones" in view["move_help"]


def test_quadrant_points_and_the_torax_auction_in_the_view(server):
    """What the terminal's diagram says beyond the stones, the view says too: the points of a
    quadrant board with each sub-game's winner, and where torax's auction stands."""
    view = ok(server, "POST", "/api/games", {"variant": "quady", "size": 5, "swap": False, "human": "both"})
    assert view["points"] == {"to_win": 3, "black": 0, "white": 0, "winners": [None] * 5,
                              "text": "points (3 of 5 win): black 0, white 0; whole board: open"}
    games = view["layout"]["games"]
    assert [g["level"] for g in games] == [0, 1, 1, 1, 1] and [len(g["sides"]) for g in games] == [0, 3, 3, 3, 3]
    assert not [m for m in view["layout"]["marks"] if m["kind"] == "border"]  # lines now, not a tint
    for move in ("a1", "e5", "a2", "d5", "a3"):  # a1 a2 a3: Black joins the top sub-triangle's sides
        view = ok(server, "POST", "/api/games/%s/play" % view["id"], {"move": move})
    points = view["points"]
    assert (points["black"], points["white"]) == (1, 0) and points["winners"].count("black") == 1
    top = games[points["winners"].index("black")]
    assert top["center"][1] < min(g["center"][1] for g in games[1:] if g is not top)  # the top one
    assert points["text"] == "points (3 of 5 win): black 1, white 0; whole board: open"
    hex_view = ok(server, "POST", "/api/games", {"variant": "hex", "size": 5, "human": "both"})
    assert hex_view["points"] is None and hex_view["layout"]["games"] == [] and hex_view["auction"] is None

    torax = ok(server, "POST", "/api/games", {"variant": "torax", "size": 5, "human": "both"})
    play = lambda move: ok(server, "POST", "/api/games/%s/play" % torax["id"], {"move": move})
    assert torax["auction"] == {"blocks": 0, "max_blocks": 5}
    assert torax["status"] == "Auction: black to move, 0 blocks on the board, 0 this turn (at most 5)"
    play("c3")
    torax = play("d4")
    assert torax["auction"] == {"blocks": 2, "max_blocks": 5}
    assert torax["status"] == "Auction: black to move, 2 blocks on the board, 2 this turn (at most 5)"
    torax = play("end")
    torax = play("b2")
    torax = play("end")
    torax = play("adopt")  # Black adopts: the first seat plays the white stones, White moves first
    assert torax["auction"] is None and torax["status"] == "White (black stones) to move"
    torax = play("a1")
    assert torax["status"] == "Black (white stones) to move"


def test_a_thousand_bad_requests_change_nothing(server):
    game = ok(server, "POST", "/api/games", {"variant": "quax", "size": 5, "swap": False, "human": "both"})
    gid = game["id"]
    game = ok(server, "POST", "/api/games/%s/play" % gid, {"move": "c3"})
    c3 = game["history"][0]["action"]
    bad = [
        ("POST", "/api/games", None, "not json", 400),
        ("POST", "/api/games", None, "[1, 2]", 400),
        ("POST", "/api/games", {"variant": 5}, None, 400),
        ("POST", "/api/games", {"variant": "nope"}, None, 400),
        ("POST", "/api/games", {"variant": "quax", "size": "x"}, None, 400),
        ("POST", "/api/games", {"variant": "quax", "size": 2}, None, 400),
        ("POST", "/api/games", {"variant": "quikquax", "size": 5}, None, 400),
        ("POST", "/api/games", {"variant": "quax", "opponent": "uct:99999999"}, None, 400),
        ("POST", "/api/games", {"variant": "quax", "opponent": "/etc/passwd"}, None, 400),
        ("POST", "/api/games", {"variant": "quax", "opponent": "hex-9.pt"}, None, 400),
        ("POST", "/api/games", {"variant": "hex", "opponent": "quax-5.pt"}, None, 400),
        ("POST", "/api/games", {"variant": "quax", "human": "red"}, None, 400),
        ("POST", "/api/games", {"variant": "quax", "opponent": "quax-5.pt", "sims": -1}, None, 400),
        ("POST", "/api/games/%s/play" % gid, {"action": c3}, None, 400),
        ("POST", "/api/games/%s/play" % gid, {"action": -1}, None, 400),
        ("POST", "/api/games/%s/play" % gid, {"action": 10 ** 6}, None, 400),
        ("POST", "/api/games/%s/play" % gid, {"action": "c4"}, None, 400),
        ("POST", "/api/games/%s/play" % gid, {"move": "z99"}, None, 400),
        ("POST", "/api/games/%s/play" % gid, {"move": "c3"}, None, 400),
        ("POST", "/api/games/%s/play" % gid, None, "{", 400),
        ("POST", "/api/games/%s/engine" % gid, {}, None, 409),
        ("POST", "/api/games/%s/goto" % gid, {"ply": 7}, None, 400),
        ("POST", "/api/games/%s/goto" % gid, {"ply": "1"}, None, 400),
        ("GET", "/api/games/nosuchgame", None, None, 404),
        ("POST", "/api/games/nosuchgame/play", {"action": 0}, None, 404),
        ("GET", "/api/games/%s/analysis?sims=0" % gid, None, None, 400),
        ("GET", "/api/games/%s/analysis?sims=x" % gid, None, None, 400),
        ("GET", "/api/games/%s/analysis?model=nope.pt" % gid, None, None, 400),
        ("GET", "/api/nothing", None, None, 404),
        ("GET", "/../../etc/passwd", None, None, 404),
        ("GET", "/api/runs/..", None, None, 404),
        ("GET", "/api/runs/nosuchrun", None, None, 404),
        ("GET", "/api/results?path=/etc/passwd&variant=quax", None, None, 403),
        ("GET", "/api/results?path=missing.jsonl&variant=quax", None, None, 403),  # not under --runs
        ("DELETE", "/api/games/nosuchgame", None, None, 404),
        ("PUT", "/api/games", {"variant": "quax"}, None, 404),
        ("POST", "/api/games", None, "x" * (2 << 20), 413),  # read and dropped, then refused
    ]
    rng = random.Random(7)
    for i in range(1000):
        method, path, body, raw, want = bad[i % len(bad)] if i < len(bad) else rng.choice(bad)
        status, reply = call(server, method, path, body, raw)
        assert status == want, (method, path, body, raw and raw[:20], status, reply)
        assert isinstance(reply["error"], str) and "\n" not in reply["error"] and reply["error"]
    after = ok(server, "GET", "/api/games/%s" % gid)
    assert (after["ply"], after["record"], after["to_move"]) == (1, "c3", "white")


def test_twenty_games_at_once(server):
    results, errors = [], []

    def one(i):
        try:
            rng = random.Random(i)
            opponent = ["random", "uct:100", "quax-5.pt"][i % 3]
            view = ok(server, "POST", "/api/games", {"variant": "quax", "size": 5, "opponent": opponent, "sims": 8,
                                                     "human": ["black", "white"][i % 2]})
            results.append(play_out(server, view, rng)["winner"])
        except Exception as e:  # reported below, with the others
            errors.append(repr(e))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 20 and set(results) <= {"black", "white"}
    assert ok(server, "GET", "/api/variants")


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(next(line for line in f if line.startswith("VmRSS")).split()[1])


def test_games_in_memory_are_bounded(server):
    first = ok(server, "POST", "/api/games", {"variant": "quax", "size": 11, "human": "both"})["id"]
    ids, sizes = [], []
    for wave in range(3):
        for _ in range(100):
            view = ok(server, "POST", "/api/games", {"variant": "quax", "size": 11, "human": "both"})
            for action in view["legal"][:30:3]:
                view = ok(server, "POST", "/api/games/%s/play" % view["id"], {"action": action})
            ids.append(view["id"])
        sizes.append(rss_kb(server["process"].pid))
    assert call(server, "GET", "/api/games/%s" % first)[0] == 404  # dropped: at most 24 are kept
    assert all(call(server, "GET", "/api/games/%s" % i)[0] == 200 for i in ids[-24:])
    assert call(server, "GET", "/api/games/%s" % ids[-25])[0] == 404
    assert sizes[2] - sizes[0] < 30_000, sizes  # kB: the second and third hundred games cost no memory


def read_events(response, count):
    events = []
    while len(events) < count:
        line = response.fp.readline().decode()
        if not line:
            break
        if line.startswith("data: "):
            events.append(json.loads(line[6:]))
            if events[-1]["done"]:
                break
    return events


def open_analysis(server, gid, sims):
    conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=60)
    conn.request("GET", "/api/games/%s/analysis?sims=%d" % (gid, sims))
    return conn, conn.getresponse()


def test_analysis_streams_and_stops_when_the_client_leaves(server):
    view = ok(server, "POST", "/api/games", {"variant": "quax", "size": 5, "opponent": "quax-5.pt", "human": "black"})
    conn, response = open_analysis(server, view["id"], 300)
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
    events = read_events(response, 1000)
    conn.close()
    last = events[-1]
    assert last["done"] and last["simulations"] == 300 and last["best"] in view["legal"]
    assert abs(sum(p for _, p in last["prior"]) - 1.0) < 1e-3
    assert sum(t["visits"] for t in last["top"]) <= 300 and last["top"][0]["action"] == last["best"]
    # Four endless analyses fill the slots and a fifth is refused; once their clients leave,
    # the slots come back (within a search step or two): the second round gets all four again.
    for round in range(2):
        streams = open_analyses(server, view["id"], 4)
        for c, r in streams:
            assert read_events(r, 1)
        status, reply = call(server, "GET", "/api/games/%s/analysis?sims=10" % view["id"])
        assert status == 503 and "too many" in reply["error"]
        for c, r in streams:
            c.sock.close()
            c.close()


def open_analyses(server, gid, count):
    """Opens `count` endless analyses, retrying refusals for up to 10 s."""
    streams, deadline = [], time.time() + 10
    while len(streams) < count:
        conn, response = open_analysis(server, gid, 100_000)
        if response.status == 200:
            streams.append((conn, response))
            continue
        conn.close()
        assert response.status == 503 and time.time() < deadline, "the slots of analyses whose clients left were not freed"
        time.sleep(0.1)
    return streams


def test_runs_and_results(server):
    assert ok(server, "GET", "/api/runs") == [{"name": "tiny", "path": str(server["runs"] / "tiny")}]
    run = ok(server, "GET", "/api/runs/tiny")
    assert [m["kind"] for m in run["metrics"]] == ["learn", "selfplay"]  # the cut last line is skipped
    assert run["ladder"]["5x5"][0]["elo"] == 12.5
    results = ok(server, "GET", "/api/results?path=%s&variant=quax&size=5&swap=false" % (server["runs"] / "results.jsonl"))
    assert results["games"][0]["record"] == "c3 d4 b2" and results["games"][0]["winner"] == "white"
    status, reply = call(server, "GET", "/api/results?path=%s&variant=quax" % (server["runs"] / "missing.jsonl"))
    assert status == 404 and "no results file" in reply["error"]


def test_the_page_and_its_files_are_served(server):
    conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=10)
    for path, kind in [("/", "text/html"), ("/app.js", "text/javascript"), ("/board.js", "text/javascript"),
                       ("/chart.js", "text/javascript"), ("/style.css", "text/css")]:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200 and response.getheader("Content-Type").startswith(kind) and body
        if path == "/":
            assert (SOURCE_DIR / "web" / "index.html").read_bytes() == body
    conn.close()
