# `quax serve` against hostile ports, requests, files and models (issue 27): a second server on
# a taken port, bodies over the limit however they are sent, the statuses cpp-httplib answers
# by itself, a model that raises inside an analysis stream, FIFOs in a run directory, large
# results files read at once, and the memory the searches may hold.
import http.client
import json
import os
import socket
import subprocess
import threading
import time

import pytest

from serve_fixture import QUAX, SOURCE_DIR, start_server, stop_server


def call(server, method, path, body=None, raw=None, timeout=60, headers=None):
    data = raw if raw is not None else (json.dumps(body) if body is not None else None)
    conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=timeout)
    try:
        conn.request(method, path, body=data, headers=headers or {"Content-Type": "application/json"})
        response = conn.getresponse()
        payload = response.read()
        return response.status, (json.loads(payload) if payload else None)
    finally:
        conn.close()


def status_kb(pid, key="VmRSS"):
    with open("/proc/%d/status" % pid) as f:
        return int(next(line for line in f if line.startswith(key)).split()[1])


def alive(server):
    status, reply = call(server, "GET", "/api/variants", timeout=10)
    return status == 200 and len(reply) == 13


def craft_failing_model(path, good_size=5):
    """quax-5.pt wrapped so that its forward raises (a multi-line error) on any board but
    good_size: it loads and passes the probe (at its own size), then fails at another size."""
    torch = pytest.importorskip("torch")  # Debian's python3-torch is a build dependency
    extra = {"quax.json": ""}
    inner = torch.jit.load(str(SOURCE_DIR / "checkpoints" / "quax-5.pt"), map_location="cpu", _extra_files=extra)

    class FailsOffSize(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner
            self.good_size = good_size

        def forward(self, x):
            if x.size(-1) != self.good_size:
                raise RuntimeError("crafted failure on this board size\nsecond line of the trace")
            return self.inner(x)

    torch.jit.save(torch.jit.script(FailsOffSize(inner)), str(path), _extra_files=extra)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    runs = tmp_path_factory.mktemp("runs")
    run = runs / "r1"
    run.mkdir()
    (run / "metrics.jsonl").write_text('{"kind":"learn","step":50,"loss":3.5,"time_s":10}\n')
    (run / "ladder.json").write_text('[{"player":"a","kind":"model","step":50,"elo":7.5}]')
    os.mkfifo(run / "ladder-5x5.json")  # no writer: opening it for reading would wait for ever
    models = tmp_path_factory.mktemp("models")
    craft_failing_model(models / "fails-off-5.pt")
    line = '{"black":"a","white":"b","result":"white","moves":3,"variant":"quax","size":5,"swap":false,"record":"c3 d4 b2"}\n'
    (models / "results.jsonl").write_text(line)  # results-shaped, but outside --runs
    (runs / "results.jsonl").write_text(line)
    started = start_server(["--models", str(models), "--runs", str(runs), "--memory-mb", "512"])
    started.update(runs=runs, models=models, line=line)
    yield started
    assert stop_server(started) == 0


def test_a_second_server_on_a_taken_port_exits_with_one_line(server):
    second = subprocess.run([QUAX, "serve", "--port", str(server["port"]), "--models", "checkpoints"], cwd=SOURCE_DIR,
                            capture_output=True, text=True, timeout=30)
    assert second.returncode != 0
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and "port %d is in use" % server["port"] in lines[0], second.stderr
    assert alive(server)


def send_unbounded_body(port, method, path, chunked, megabytes):
    """Sends a JSON game-creation body padded with spaces to `megabytes`, chunked or without
    any length (ended by closing the sending side); returns (status, error) of the answer."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    head = "%s %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" % (method, path)
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else "\r\n"
    sock.sendall(head.encode())
    piece = b" " * 65536
    pieces = [b'{"variant":"quax","size":5,"human":"both"'] + [piece] * (megabytes * 16) + [b"}"]

    def send():
        try:
            for p in pieces:
                sock.sendall(b"%x\r\n%s\r\n" % (len(p), p) if chunked else p)
            sock.sendall(b"0\r\n\r\n" if chunked else b"")
            if not chunked:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server answered and stopped reading: what is checked below

    sender = threading.Thread(target=send)
    sender.start()
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            more = sock.recv(65536)
            if not more:
                break
            data += more
        head, _, rest = data.partition(b"\r\n\r\n")
        length = int([l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0].split(b":")[1])
        while len(rest) < length:
            rest += sock.recv(65536)
    finally:
        sock.close()
        sender.join()
    return int(head.split()[1]), json.loads(rest[:length])["error"]


@pytest.mark.parametrize("method,chunked", [("POST", True), ("POST", False), ("PUT", True)])
def test_bodies_without_a_length_are_held_to_the_limit(server, method, chunked):
    pid = server["process"].pid
    before = status_kb(pid)
    status, error = send_unbounded_body(server["port"], method, "/api/games", chunked, 64)
    if chunked:
        assert status == 413 and "1 MB limit" in error, (status, error)
    else:
        # Neither a length nor chunks: HTTP says the body is empty (issue 58). Answered at once,
        # and what follows the head is not read, as a body or as a next request.
        assert status == 400 and "not a JSON object" in error, (status, error)
    assert status_kb(pid) - before < 32_000  # kB: the 64 MB body was never held
    assert alive(server)


def test_the_statuses_of_the_http_layer_say_what_is_wrong(server):
    status, reply = call(server, "POST", "/api/games", raw="x" * (2 << 20))
    assert status == 413 and reply["error"] == "the request body is more than the 1 MB limit"
    status, reply = call(server, "GET", "/api/" + "a" * 9000)
    assert status == 414 and "longer than 8192 bytes" in reply["error"]
    sock = socket.create_connection(("127.0.0.1", server["port"]), timeout=10)
    sock.sendall(b"NONSENSE\r\n\r\n")
    # The head and the body may come in separate packets: read until the server closes or
    # the body is there.
    answer = b""
    while b'"}' not in answer:
        more = sock.recv(65536)
        if not more:
            break
        answer += more
    answer = answer.decode()
    sock.close()
    assert answer.startswith("HTTP/1.1 400") and '"malformed HTTP request"' in answer
    # Errors quote inputs clipped, never whole.
    status, reply = call(server, "GET", "/api/" + "b" * 5000)
    assert status == 404 and reply["error"].startswith("no such path: GET /api/bbb") and len(reply["error"]) < 200
    for body in [{"variant": "v" * 100_000}, {"variant": "quax", "opponent": "o" * 100_000}]:
        status, reply = call(server, "POST", "/api/games", body)
        assert status == 400 and len(reply["error"]) < 300 and "100" in reply["error"], reply


def test_a_model_that_raises_inside_an_analysis_ends_the_stream_not_the_server(server):
    game = call(server, "POST", "/api/games", {"variant": "quax", "size": 7, "human": "both"})[1]
    conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=60)
    conn.request("GET", "/api/games/%s/analysis?sims=50&model=fails-off-5.pt" % game["id"])
    response = conn.getresponse()
    assert response.status == 200
    events = [json.loads(line[6:]) for line in response.read().decode().splitlines() if line.startswith("data: ")]
    conn.close()
    assert events and "crafted failure" in events[-1]["error"] and "\n" not in events[-1]["error"] and events[-1]["done"]
    assert alive(server)
    # Through an engine move the same model is a clean 500.
    game = call(server, "POST", "/api/games", {"variant": "quax", "size": 7, "opponent": "fails-off-5.pt",
                                                 "human": "white", "sims": 8})[1]
    status, reply = call(server, "POST", "/api/games/%s/engine" % game["id"])
    assert status == 500 and "crafted failure" in reply["error"] and "\n" not in reply["error"]
    assert alive(server)


def test_a_fifo_in_a_run_directory_blocks_nothing(server):
    answers = []

    def one():
        answers.append(call(server, "GET", "/api/runs/r1", timeout=10))

    threads = [threading.Thread(target=one) for _ in range(24)]  # more than the 16 workers
    start = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 24 and time.time() - start < 20
    for status, run in answers:
        assert status == 200 and run["metrics"][0]["step"] == 50
        assert run["ladder"] == {"": [{"player": "a", "kind": "model", "step": 50, "elo": 7.5}]}  # the FIFO is left out


def test_results_are_read_from_the_runs_directory_only(server):
    query = "variant=quax&size=5&swap=false"
    status, reply = call(server, "GET", "/api/results?path=%s&%s" % (server["runs"] / "results.jsonl", query))
    assert status == 200 and reply["games"][0]["record"] == "c3 d4 b2"
    for outside in [server["models"] / "results.jsonl", server["runs"] / ".." / server["models"].name / "results.jsonl",
                    SOURCE_DIR / "README.md"]:
        status, reply = call(server, "GET", "/api/results?path=%s&%s" % (outside, query))
        assert status == 403 and "not under the runs directory" in reply["error"], (outside, status, reply)


def test_a_large_results_file_read_at_once_keeps_memory_bounded(server):
    big = server["runs"] / "big.jsonl"
    line = server["line"].replace('"record":"c3 d4 b2"', '"record":"' + " ".join(["c3 d4 b2"] * 10) + '"')
    with open(big, "w") as f:
        f.write(line * (24_000_000 // len(line)))  # 24 MB
    pid = server["process"].pid
    before = status_kb(pid, "VmHWM")
    answers = []

    def one():
        conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=120)
        conn.request("GET", "/api/results?path=%s&variant=quax&size=5&swap=false" % big)
        response = conn.getresponse()
        answers.append((response.status, len(response.read())))
        conn.close()

    threads = [threading.Thread(target=one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 6 and all(status == 200 and size > 24_000_000 for status, size in answers), answers
    assert status_kb(pid, "VmHWM") - before < 400_000, (before, status_kb(pid, "VmHWM"))  # kB
    big.write_text(line * (40_000_000 // len(line)))  # over the 32 MB limit of a served results file
    status, reply = call(server, "GET", "/api/results?path=%s&variant=quax&size=5&swap=false" % big)
    assert status == 400 and "32 MB limit" in reply["error"]
    big.unlink()
    assert alive(server)


def test_searches_share_a_memory_budget_and_games_keep_no_tree(server):
    pid = server["process"].pid
    # 26x26 quax has 676 actions: 100,000 simulations would hold several GB, more than the
    # whole 512 MB budget: refused at once instead of searched.
    game = call(server, "POST", "/api/games", {"variant": "quax", "size": 26, "opponent": "quax-11.pt",
                                                 "sims": 100_000, "human": "white"})[1]
    status, reply = call(server, "POST", "/api/games/%s/engine" % game["id"], timeout=30)
    assert status == 503 and "--memory-mb" in reply["error"], (status, reply)
    status, reply = call(server, "GET", "/api/games/%s/analysis?sims=100000" % game["id"], timeout=30)
    assert status == 503 and "--memory-mb" in reply["error"]
    # The first network evaluations at 26x26 grow LibTorch's caches for that board's shapes
    # once, outside any search budget: measured on a loaded 2-core machine, the rise below was
    # 414-454 MB without this small move first and 317-334 MB after it (once 538 MB, over the
    # bound, without it).
    warm = call(server, "POST", "/api/games", {"variant": "quax", "size": 26, "opponent": "quax-11.pt",
                                                "sims": 50, "human": "white"})[1]
    assert call(server, "POST", "/api/games/%s/engine" % warm["id"], timeout=120)[0] == 200
    # Moves of ~180 MB each (estimated; 4,000 simulations): two fit beside each other in
    # 512 MB, not four; those refused say so, the others play (a third may start once one of
    # the first two has ended and released its share).
    before = status_kb(pid)
    games = [call(server, "POST", "/api/games", {"variant": "quax", "size": 26, "opponent": "quax-11.pt",
                                                   "sims": 4000, "human": "white"})[1]["id"] for _ in range(4)]
    answers = []

    def move(gid):
        answers.append(call(server, "POST", "/api/games/%s/engine" % gid, timeout=300))

    threads = [threading.Thread(target=move, args=(g,)) for g in games]
    for t in threads:
        t.start()
    peak = before
    while any(t.is_alive() for t in threads):
        peak = max(peak, status_kb(pid))
        time.sleep(0.05)
    for t in threads:
        t.join()
    statuses = sorted(status for status, _ in answers)
    assert 200 in statuses and 503 in statuses, answers
    assert all("search memory" in reply["error"] for status, reply in answers if status == 503)
    assert peak - before < 512_000, (before, peak)  # kB
    # A game between moves holds no tree: moves that build ~130 MB of tree each leave at most
    # the allocator's noise (~10 MB a move) behind; kept, the two trees would stay.
    before = status_kb(pid)
    for _ in range(2):
        game = call(server, "POST", "/api/games", {"variant": "quax", "size": 26, "opponent": "uct:8000",
                                                     "human": "white"})[1]
        status, _ = call(server, "POST", "/api/games/%s/engine" % game["id"], timeout=300)
        assert status == 200
    assert status_kb(pid) - before < 60_000, (before, status_kb(pid))
    assert alive(server)


def test_a_tiny_time_per_move_is_refused_naming_what_the_client_sent(server):
    # 1e-300 s passed the old range check and came back as an error quoting the server's own
    # player string ("<path>:time=1e-300").
    for seconds in (1e-300, 1e-9, -1):
        status, reply = call(server, "POST", "/api/games", {"variant": "quax", "size": 7, "opponent": "quax-11.pt",
                                                              "seconds": seconds, "human": "white"})
        assert status == 400, (seconds, status, reply)
        assert "'seconds'" in reply["error"] and ":time=" not in reply["error"], reply
    assert alive(server)


def test_deleted_games_give_their_search_memory_back():
    # glibc once kept every freed search tree: after the first large block was freed it raised
    # its thresholds, later trees came from per-thread heaps whose free tops it never returned,
    # and a server that had played and deleted a few large games stayed hundreds of MB above
    # its idle size (measured: six 26x26 moves of 1,500 simulations, +235 MB after deletion;
    # 44 MB in each of five thread heaps, 140 KB of it in use).
    started = start_server(["--memory-mb", "1024"])
    try:
        pid = started["process"].pid
        # One small move at 26x26 first: LibTorch's caches for that board's shapes grow once.
        warm = call(started, "POST", "/api/games", {"variant": "quax", "size": 26, "opponent": "quax-11.pt",
                                                     "sims": 50, "human": "white"})[1]
        assert call(started, "POST", "/api/games/%s/engine" % warm["id"], timeout=120)[0] == 200
        before = status_kb(pid)
        games = [call(started, "POST", "/api/games", {"variant": "quax", "size": 26, "opponent": "quax-11.pt",
                                                       "sims": 1500, "human": "white"})[1]["id"] for _ in range(4)]
        statuses = []

        def move(gid):  # at once: four worker threads, four thread heaps
            statuses.append(call(started, "POST", "/api/games/%s/engine" % gid, timeout=300)[0])

        threads = [threading.Thread(target=move, args=(g,)) for g in games]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert statuses == [200] * 4, statuses
        for gid in games:
            assert call(started, "DELETE", "/api/games/%s" % gid)[0] == 204
        # ~70 MB of tree each (4 x 44 MB stayed before): what stays is the allocator's noise.
        assert status_kb(pid) - before < 60_000, (before, status_kb(pid))
        assert alive(started)
    finally:
        assert stop_server(started) == 0
