# `quax serve` against issue 58's hostile clients and files: clients that dribble their requests
# a byte at a time, POSTs without a length, symbolic links in the served folders that point out
# of them, reads of a game while its engine searches, and JSON nested 100,000 deep.
# Other clients come from other loopback addresses (127.0.0.3, ...) than the hostile ones
# (127.0.0.2): the server's cap on connections is per client address.
import http.client
import json
import os
import select
import shutil
import socket
import threading
import time

import pytest

import serve_fixture
from serve_fixture import SOURCE_DIR, start_server, stop_server

SECRET = "secret-of-issue-58"
REQUEST_SECONDS = 10  # the whole-request deadline (docs/SECURITY.md)
CLIENT_CONNECTIONS = 8  # connections of one client address served at once


def call(server, method, path, body=None, timeout=60, source=None, raw=None):
    """One request on a new connection: (status, body text)."""
    conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=raw if raw is not None else json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        conn.close()


def call_json(server, method, path, body=None, timeout=60, source=None):
    status, text = call(server, method, path, body, timeout, source)
    return status, (json.loads(text) if text else None)


def timed(server, method, path, body=None, timeout=5, source=None):
    """(status, JSON body, seconds); status None when no answer came within `timeout`."""
    start = time.time()
    try:
        status, reply = call_json(server, method, path, body, timeout, source)
    except (socket.timeout, ConnectionError):
        status, reply = None, None
    return status, reply, time.time() - start


def alive(server, source="127.0.0.9"):
    status, reply, seconds = timed(server, "GET", "/api/variants", timeout=10, source=source)
    return status == 200 and len(reply) == 13


def raw_exchange(port, head, source, timeout=5):
    """Sends `head` on a new connection and reads until the server closes it: (answer bytes,
    seconds)."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(timeout)
    start = time.time()
    sock.connect(("127.0.0.1", port))
    sock.sendall(head)
    answer = b""
    try:
        while True:
            more = sock.recv(65536)
            if not more:
                break
            answer += more
    except (socket.timeout, ConnectionError):
        pass
    finally:
        sock.close()
    return answer, time.time() - start


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # What the links point at: files and folders outside every served folder, each holding
    # the secret in content the server would otherwise serve (JSON, text, SVG).
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.txt").write_text(SECRET + "\n")
    (outside / "secret.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><!-- %s --></svg>' % SECRET)
    (outside / "ladder.json").write_text(json.dumps([{"player": SECRET, "kind": "model", "step": 1, "elo": 0}]))
    (outside / "metrics.jsonl").write_text(json.dumps({"kind": "learn", "step": 1, "note": SECRET}) + "\n")
    (outside / "run").mkdir()
    (outside / "run" / "metrics.jsonl").write_text(json.dumps({"kind": "learn", "step": 2, "note": SECRET}) + "\n")
    (outside / "report").mkdir()
    shutil.copy(SOURCE_DIR / "docs" / "balance" / "hex-9" / "balance.json", outside / "report" / "balance.json")
    (outside / "report" / "report.txt").write_text(SECRET + "\n")
    line = '{"black":"a","white":"b","result":"white","moves":3,"variant":"quax","size":5,"swap":false,"record":"c3 d4 b2"}\n'
    (outside / "results.jsonl").write_text(line)

    runs = tmp_path_factory.mktemp("runs")
    r1 = runs / "r1"
    r1.mkdir()
    (r1 / "metrics.jsonl").write_text('{"kind":"learn","step":50,"loss":3.5,"time_s":10}\n')
    (r1 / "ladder.json").write_text('[{"player":"a","kind":"model","step":50,"elo":7.5}]')
    os.symlink(outside / "ladder.json", r1 / "ladder-9x9.json")  # a ladder file linked out
    os.symlink(outside / "run", runs / "linked")  # a run folder linked out
    (runs / "r2").mkdir()
    os.symlink(outside / "metrics.jsonl", runs / "r2" / "metrics.jsonl")  # a run's metrics linked out
    os.symlink(r1, runs / "r1-again")  # a link that stays inside: served as r1 is
    os.symlink(outside / "results.jsonl", runs / "results.jsonl")  # a results file linked out

    balance = tmp_path_factory.mktemp("balance")
    (balance / "rep1").mkdir()
    shutil.copy(SOURCE_DIR / "docs" / "balance" / "hex-9" / "balance.json", balance / "rep1" / "balance.json")
    os.symlink(outside / "secret.svg", balance / "rep1" / "openings.svg")  # an opening map linked out
    (balance / "rep2").mkdir()
    (balance / "rep2" / "balance.json").write_text('{"openings": [{"move": "a1"}]}')  # one this build cannot read
    os.symlink(outside / "secret.txt", balance / "rep2" / "report.txt")  # the text shown for it, linked out
    os.symlink(outside / "report", balance / "rep3")  # a report folder linked out

    web = tmp_path_factory.mktemp("web")
    (web / "index.html").write_text("<html><body>the page</body></html>")
    os.symlink(outside / "secret.txt", web / "leak.html")
    os.symlink(outside / "secret.svg", web / "leak.svg")

    # Its own page folder (the links in it), whatever QUAX_WEB_DIR says (serve_fixture.py).
    web_dir, serve_fixture.WEB_DIR = serve_fixture.WEB_DIR, None
    try:
        started = start_server(["--runs", str(runs), "--balance", str(balance), "--web", str(web)])
    finally:
        serve_fixture.WEB_DIR = web_dir
    started.update(runs=runs, outside=outside)
    yield started
    assert stop_server(started) == 0


def test_slow_clients_are_cut_at_the_deadline_and_leave_workers_to_the_others(server):
    # 40 connections from one address, each sending one byte of a request head every half
    # second: the old per-byte read timeout never fired, and they held all 16 workers.
    port = server["port"]
    head = b"GET /api/variants HTTP/1.1\r\nHost: x\r\nX-Dribble: " + b"d" * 200
    dribblers = {}  # socket -> when it sent its first byte
    for _ in range(40):
        sock = socket.socket()
        sock.bind(("127.0.0.2", 0))
        sock.settimeout(5)
        sock.connect(("127.0.0.1", port))
        sock.sendall(head[:1])
        dribblers[sock] = time.time()
    # Two more from other addresses, cut with a 408 saying why: one whose head stops after its
    # first header, one whose body stops after 10 of its 100 bytes.
    late = []
    for source, request in [("127.0.0.7", b"GET /api/variants HTTP/1.1\r\nHost: x\r\n"),
                            ("127.0.0.8", b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"variant\"")]:
        sock = socket.create_connection(("127.0.0.1", port), timeout=REQUEST_SECONDS + 5, source_address=(source, 0))
        sock.sendall(request)
        late.append(sock)
    start = time.time()
    cut = {}  # socket -> seconds after its first byte when the server closed it
    waits = []
    sent = 1
    while time.time() - start < REQUEST_SECONDS + 3:
        for sock in dribblers:
            if sock in cut:
                continue
            try:
                sock.send(head[sent % len(head):sent % len(head) + 1])
            except OSError:
                cut[sock] = time.time() - dribblers[sock]
        sent += 1
        open_ones = [s for s in dribblers if s not in cut]
        for sock in select.select(open_ones, [], [], 0)[0]:
            try:
                sock.recv(65536)  # an error status or the end of the connection: cut either way
            except OSError:
                pass
            cut[sock] = time.time() - dribblers[sock]
        status, _, seconds = timed(server, "GET", "/api/variants", timeout=3, source="127.0.0.3")
        waits.append(seconds if status == 200 else float("inf"))
        time.sleep(0.5)
    for sock in dribblers:
        sock.close()
    answers = []
    for sock in late:
        try:
            answers.append(sock.recv(65536))
        except OSError as e:
            answers.append(repr(e).encode())
        sock.close()
    # Another client was answered at once all along.
    assert max(waits) < 1.0, waits
    # The connections served first were cut at the deadline of their request, not before.
    first = sorted(cut.values())[:CLIENT_CONNECTIONS]
    assert len(first) == CLIENT_CONNECTIONS, sorted(cut.values())
    assert REQUEST_SECONDS - 1 < first[0] and first[-1] < REQUEST_SECONDS + 2.5, first
    for answer in answers:  # a half head, a half body: a 408 saying why
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b'"the request\'s head and body did not arrive within 10 s"' in answer, answer
    assert alive(server)


def test_a_post_without_a_length_has_an_empty_body_answered_at_once(server):
    # HTTP says such a body is empty (RFC 9112, 6.3): it was awaited for 10 s, then a 400.
    game = call_json(server, "POST", "/api/games", {"variant": "quax", "size": 5, "human": "both"})[1]
    assert call_json(server, "POST", "/api/games/%s/play" % game["id"], {"move": "c3"})[1]["ply"] == 1
    answer, seconds = raw_exchange(server["port"], b"POST /api/games/%s/undo HTTP/1.1\r\nHost: x\r\n\r\n"
                                   % game["id"].encode(), "127.0.0.4")
    assert seconds < 1.0 and answer.startswith(b"HTTP/1.1 200"), (seconds, answer[:200])
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["ply"] == 0
    answer, seconds = raw_exchange(server["port"], b"POST /api/games HTTP/1.1\r\nHost: x\r\n\r\n", "127.0.0.4")
    assert seconds < 1.0 and answer.startswith(b"HTTP/1.1 400"), (seconds, answer[:200])
    assert b'"the request body is not a JSON object"' in answer
    # Sixteen at once, as many as the workers: answered at once too.
    results = []

    def one():
        results.append(raw_exchange(server["port"], b"POST /api/games HTTP/1.1\r\nHost: x\r\n\r\n", "127.0.0.5"))

    threads = [threading.Thread(target=one) for _ in range(16)]
    start = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert time.time() - start < 2.0 and all(a.startswith(b"HTTP/1.1 400") for a, _ in results), results
    assert alive(server)


def test_links_out_of_the_served_folders_are_not_followed(server):
    results = "/api/results?path=%s&variant=quax&size=5&swap=false" % (server["runs"] / "results.jsonl")
    for path, expected in [("/api/balance/rep1/openings.svg", 404), ("/api/balance/rep3", 404),
                           ("/api/balance/rep3/openings.svg", 404), ("/api/runs/linked", 404),
                           ("/api/runs/r2", 404), ("/leak.html", 404), ("/leak.svg", 404), (results, 403)]:
        status, text = call(server, "GET", path)
        assert status == expected and SECRET not in text, (path, status, text[:300])
    # What the folders hold themselves is served, without what their links point at.
    status, text = call(server, "GET", "/api/balance/rep2")  # a report this build cannot read: its report.txt
    assert status == 200 and SECRET not in text and json.loads(text)["text"] == "", text[:300]
    status, text = call(server, "GET", "/api/balance/rep1")
    assert status == 200 and SECRET not in text and json.loads(text)["report"]
    status, text = call(server, "GET", "/api/balance")
    assert status == 200 and sorted(r["name"] for r in json.loads(text)["reports"]) == ["rep1", "rep2"], text
    status, text = call(server, "GET", "/api/runs")
    assert status == 200 and sorted(r["name"] for r in json.loads(text)) == ["r1", "r1-again"], text
    for name in ["r1", "r1-again"]:  # a link that resolves inside the folder is followed
        status, text = call(server, "GET", "/api/runs/" + name)
        run = json.loads(text)
        assert status == 200 and SECRET not in text and run["metrics"][0]["step"] == 50, text[:300]
        assert run["ladder"] == {"": [{"player": "a", "kind": "model", "step": 50, "elo": 7.5}]}
    status, text = call(server, "GET", "/")
    assert status == 200 and "the page" in text
    assert alive(server)


def test_reads_of_a_game_answer_while_its_engine_searches(server):
    # A timed engine move held the game's lock for its whole search: every read of that game
    # waited for it, each holding a worker.
    game = call_json(server, "POST", "/api/games", {"variant": "quax", "size": 7, "opponent": "quax-7.pt",
                                                      "seconds": 4, "human": "black"})[1]
    gid = game["id"]
    assert call_json(server, "POST", "/api/games/%s/play" % gid, {"move": "d4"})[1]["engine_to_move"]

    def engine_move(out):
        out.append(timed(server, "POST", "/api/games/%s/engine" % gid, timeout=120))

    engine = []
    searching = threading.Thread(target=engine_move, args=(engine,))
    searching.start()
    time.sleep(0.5)
    reads = []

    def read(source):
        reads.append(timed(server, "GET", "/api/games/" + gid, timeout=10, source=source))

    readers = [threading.Thread(target=read, args=("127.0.0.%d" % (10 + i % 4),)) for i in range(20)]
    for t in readers:
        t.start()
    other = timed(server, "GET", "/api/variants", timeout=10, source="127.0.0.6")
    for t in readers:
        t.join()
    assert other[0] == 200 and other[2] < 1.0, other[2]
    assert len(reads) == 20 and all(status == 200 and seconds < 1.0 for status, _, seconds in reads), \
        [(status, seconds) for status, _, seconds in reads]
    assert all(view["ply"] == 1 and view["engine_to_move"] for _, view, _ in reads)  # the search goes on
    # Meanwhile the human may not play, nor ask the engine again.
    status, reply, seconds = timed(server, "POST", "/api/games/%s/play" % gid, {"move": "a1"})
    assert status == 409 and seconds < 1.0, (status, reply)
    status, reply, seconds = timed(server, "POST", "/api/games/%s/engine" % gid)
    assert status == 409 and "already" in reply["error"] and seconds < 1.0, (status, reply)
    searching.join()
    status, view, seconds = engine[0]
    assert status == 200 and view["ply"] >= 2 and not view["engine_to_move"], (status, view and view.get("error"))
    # The settled stop may end a timed search early, but never before half its time: the lead
    # it needs (more than the simulations the time left would give) cannot pass the
    # simulations done until then.
    assert 1.9 < seconds < 30, seconds
    ply = view["ply"]
    # An undo during the search is answered at once, and the engine's move, searched on the
    # position before it, is not played.
    assert call_json(server, "POST", "/api/games/%s/play" % gid, {"action": view["legal"][0]})[1]["ply"] == ply + 1
    engine = []
    searching = threading.Thread(target=engine_move, args=(engine,))
    searching.start()
    time.sleep(0.5)
    status, view, seconds = timed(server, "POST", "/api/games/%s/undo" % gid)
    assert status == 200 and view["ply"] == ply and seconds < 1.0, (status, seconds)
    searching.join()
    status, reply, _ = engine[0]
    assert status == 409 and "changed" in reply["error"], (status, reply)
    view = call_json(server, "GET", "/api/games/" + gid)[1]
    assert view["ply"] == ply and not view["engine_to_move"]
    assert alive(server)


def test_json_nested_100000_deep_is_refused_not_a_crash(tmp_path):
    # Issue 58, item 1 (the server's part): JSON nested this deep overflowed the stack where the
    # JSON library wrote it out (40,000 was fine). A server of its own: the crash ended it.
    depth = 100_000
    runs = tmp_path / "runs"
    (runs / "deep").mkdir(parents=True)
    with open(runs / "deep" / "metrics.jsonl", "w") as f:
        f.write('{"kind":"learn","step":7,"loss":1.5,"time_s":1}\n')
        f.write('{"a":' * depth + "1" + "}" * depth + "\n")
        f.write("[" * depth + "]" * depth + "\n")
    (runs / "deep" / "ladder.json").write_text("[" * depth + "]" * depth)
    (tmp_path / "balance" / "deep").mkdir(parents=True)
    (tmp_path / "balance" / "deep" / "balance.json").write_text('{"a":' + "[" * depth + "]" * depth + "}")
    deep = start_server(["--runs", str(runs), "--balance", str(tmp_path / "balance")])
    try:
        status, reply, seconds = timed(deep, "GET", "/api/runs/deep", timeout=30)
        assert deep["process"].poll() is None, "the server died: %s" % deep["process"].stderr.read()[-2000:]
        assert status == 200 and seconds < 10, (status, seconds)
        assert [m["step"] for m in reply["metrics"]] == [7] and reply["ladder"] == {}
        status, reply, _ = timed(deep, "GET", "/api/balance/deep", timeout=30)
        assert deep["process"].poll() is None, "the server died: %s" % deep["process"].stderr.read()[-2000:]
        assert status == 404 and "nested deeper than" in reply["error"], (status, reply)
        body = '{"variant":"quax","opponent":"quax-5.pt","search":' + "[" * depth + "]" * depth + "}"
        status, text = call(deep, "POST", "/api/games", timeout=30, raw=body)
        assert status == 400 and "nested deeper than" in json.loads(text)["error"], (status, text)
        assert alive(deep)
    finally:
        if deep["process"].poll() is None:
            assert stop_server(deep) == 0
