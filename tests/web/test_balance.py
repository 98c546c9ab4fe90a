# `quax serve`'s Balance API (serve/balance_reports.h): the shipped reports of docs/balance
# listed, read, compared and their maps served as `quax balance` wrote them; names that are not
# listed reports, damaged reports and FIFOs answered with one line, never a file outside the
# served directories and never a wait.
import http.client
import json
import os
import shutil
import threading
import time

import pytest

from serve_fixture import SOURCE_DIR, start_server, stop_server

SHIPPED = SOURCE_DIR / "docs" / "balance"


def get(server, path, timeout=30):
    """(status, headers, body bytes) of one GET on a new connection."""
    conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def get_json(server, path):
    status, _, body = get(server, path)
    return status, json.loads(body)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # First served directory: two shipped reports, a damaged one, one whose JSON this build
    # cannot read (its text file stands in), and a FIFO where a report's files should be.
    first = tmp_path_factory.mktemp("balance")
    for name in ("quax-9", "hex-9"):
        shutil.copytree(SHIPPED / name, first / name)
    (first / "broken").mkdir()
    (first / "broken" / "balance.json").write_text('{"variant": "quax", "size": ')
    (first / "older").mkdir()
    (first / "older" / "balance.json").write_text('{"variant": 7, "openings": "none"}')
    (first / "older" / "report.txt").write_text("written by another version\n")
    (first / "fifo-report").mkdir()
    os.mkfifo(first / "fifo-report" / "balance.json")  # no writer: reading it would wait for ever
    (first / "fifo-map").mkdir()
    shutil.copy(SHIPPED / "quady-9" / "balance.json", first / "fifo-map" / "balance.json")
    os.mkfifo(first / "fifo-map" / "openings.svg")
    # Second served directory: a report itself (named after its directory), and a report whose
    # name the first directory already has (the first one's is kept).
    second = tmp_path_factory.mktemp("more") / "quady-9"
    shutil.copytree(SHIPPED / "quady-9", second)
    (second / "quax-9").mkdir()
    (second / "quax-9" / "balance.json").write_text('{"variant": "hex", "size": 5, "swap": false, "model": "other"}')
    started = start_server(["--balance", str(first), "--balance", str(second)])
    started["first"], started["second"] = first, second
    yield started
    assert stop_server(started) == 0


def test_the_reports_are_listed_by_name(server):
    status, answer = get_json(server, "/api/balance")
    assert status == 200
    names = [r["name"] for r in answer["reports"]]
    # The FIFO report is not a regular file: not listed; quax-9 comes from the first directory.
    assert names == ["broken", "fifo-map", "hex-9", "older", "quady-9", "quax-9"]
    paths = {r["name"]: r["path"] for r in answer["reports"]}
    assert paths["quax-9"] == str(server["first"] / "quax-9") and paths["quady-9"] == str(server["second"])
    assert answer["dirs"] == [str(server["first"]), str(server["second"])]


def test_a_report_reads_as_quax_balance_wrote_it(server):
    for name in ("quax-9", "hex-9"):
        status, answer = get_json(server, "/api/balance/" + name)
        assert status == 200
        assert answer["report"] == json.loads((SHIPPED / name / "balance.json").read_text())
        # The text is made again from balance.json: the same as the report `quax balance` wrote.
        assert answer["text"] == (SHIPPED / name / "report.txt").read_text()
    status, answer = get_json(server, "/api/balance/older")
    assert status == 200 and answer["text"] == "written by another version\n"


def test_reports_compare_side_by_side(server):
    status, answer = get_json(server, "/api/balance-compare?reports=quax-9,hex-9")
    assert status == 200 and answer["reports"] == ["quax-9", "hex-9"]
    rows = dict((figure, cells) for figure, cells in answer["rows"])
    assert rows["report"] == ["quax-9", "hex-9"]
    reports = [json.loads((SHIPPED / n / "balance.json").read_text()) for n in ("quax-9", "hex-9")]
    assert rows["game"] == ["%s %dx%d (%s)" % (r["variant"], r["size"], r["size"], "swap" if r["swap"] else "no swap")
                            for r in reports]
    assert rows["first player, no swap"] == [
        "%.1f%% [%.1f, %.1f] of %d" % (100 * w["rate"], 100 * w["low"], 100 * w["high"], w["games"])
        for w in (r["first_player"]["without_swap"] for r in reports)]
    # A report lacking a figure shows "-" there, not an error.
    status, answer = get_json(server, "/api/balance-compare?reports=older,quax-9")
    assert status == 200 and dict((f, c) for f, c in answer["rows"])["first player, no swap"][0] == "-"


def test_the_opening_map_is_served_as_an_image_that_runs_nothing(server):
    status, headers, body = get(server, "/api/balance/hex-9/openings.svg")
    assert status == 200 and body == (SHIPPED / "hex-9" / "openings.svg").read_bytes()
    assert headers["Content-Type"] == "image/svg+xml"
    assert headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path, status, words", [
    ("/api/balance/nothing", 404, "no balance report 'nothing'"),
    ("/api/balance/broken", 404, "not a balance report"),
    ("/api/balance/fifo-report", 404, "no balance report"),
    ("/api/balance/..%2F..%2Fetc", 404, "no such path"),
    ("/api/balance/nothing/openings.svg", 404, "no balance report"),
    ("/api/balance/broken/openings.svg", 404, "openings.svg"),
    ("/api/balance-compare?reports=quax-9,quax-9", 400, "named twice"),
    ("/api/balance-compare?reports=", 400, "from 1 to 8"),
    ("/api/balance-compare?reports=" + ",".join(["quax-9"] * 9), 400, "from 1 to 8"),
    ("/api/balance-compare?reports=quax-9,broken", 400, "not a balance report"),
    ("/api/balance-compare?reports=quax-9,/etc/passwd", 400, "no balance report '/etc/passwd'"),
])
def test_bad_names_and_damaged_reports_get_one_line(server, path, status, words):
    got, answer = get_json(server, path)
    assert got == status and words in answer["error"] and "\n" not in answer["error"], (path, got, answer)


def test_a_fifo_for_a_map_blocks_nothing(server):
    answers = []

    def one():
        answers.append(get_json(server, "/api/balance/fifo-map/openings.svg"))

    threads = [threading.Thread(target=one) for _ in range(20)]  # more than the server's 16 workers
    start = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert time.time() - start < 20
    assert all(status == 404 and "FIFO" in answer["error"] for status, answer in answers), answers[:2]
    status, answer = get_json(server, "/api/balance/fifo-map")  # its report reads
    assert status == 200 and answer["report"]["variant"] == "quady"


def test_the_default_directory_serves_the_shipped_reports():
    started = start_server()
    try:
        status, answer = get_json(started, "/api/balance")
        shipped = sorted(p.name for p in SHIPPED.iterdir() if (p / "balance.json").is_file())
        assert status == 200 and [r["name"] for r in answer["reports"]] == shipped and len(shipped) >= 3
    finally:
        assert stop_server(started) == 0
