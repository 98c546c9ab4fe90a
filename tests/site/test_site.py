# The static page (scripts/build_site.sh) in headless Chromium, served by a plain static file
# server (python3 -m http.server): no `quax serve`. Whole games of hex 11 and quax 11 against the
# shipped models in the page (the engine in WebAssembly, the network in ONNX Runtime Web), undo,
# the value and heat map, the winning chain, a replayed record; the page's network outputs
# within 1e-4 of the native engine's (the Python module, LibTorch) on fixed positions; its
# search's move equal to the native search's (same simulations, no noise); bad input and a
# model that fails to load said in the page's message line; the page playing offline once
# loaded and cross-origin isolated under a plain host (its service worker). Also the rules of the page's engine
# against the native ones on random games of every variant (random_games.js, check_rules.py).
import json
import os
import pathlib
import random
import shutil
import socket
import subprocess
import sys
import time

import numpy
import pytest
import quax
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

SOURCE_DIR = os.environ.get("QUAX_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("QUAX_BINARY", os.path.join(SOURCE_DIR, "build", "quax"))
BUILD_DIR = os.path.dirname(os.path.abspath(BINARY))
SITE = os.path.join(BUILD_DIR, "site-test")
MODELS = ["hex-11", "quax-11"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(folder):
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return process, f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def site():
    built = subprocess.run(["bash", os.path.join(SOURCE_DIR, "scripts", "build_site.sh"), SITE, *MODELS],
                           capture_output=True, text=True, env=dict(os.environ, QUAX=BINARY))
    assert built.returncode == 0, built.stdout + built.stderr
    process, url = serve(SITE)
    yield url
    process.terminate()
    process.wait()


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_script_timeout(300)
    yield driver
    driver.quit()


def idle(driver, timeout=300):
    WebDriverWait(driver, timeout).until(lambda d: d.execute_script("return document.body.dataset.busy") == "0")


def message(driver):
    return driver.find_element(By.ID, "message").text


def open_page(driver, url):
    driver.get(url)
    # The first visit of an origin reloads once under the service worker (cross-origin
    # isolation, page_backend.js): elements found before the reload go stale.
    WebDriverWait(driver, 60, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)).until(
        lambda d: len(Select(d.find_element(By.ID, "variant")).options) >= 13)
    idle(driver)
    assert not message(driver), message(driver)


def new_game(driver, url, variant, size, opponent, sims=None, level=None):
    open_page(driver, url)
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "size")).select_by_value(str(size))
    swap = driver.find_element(By.ID, "swap")
    if swap.is_selected():
        swap.click()  # no pie rule: the human stays black
    Select(driver.find_element(By.ID, "opponent")).select_by_value(opponent)
    Select(driver.find_element(By.ID, "human")).select_by_value("black")
    Select(driver.find_element(By.ID, "level")).select_by_value(str(level) if level else "0")
    if sims:
        field = driver.find_element(By.ID, "sims")
        field.clear()
        field.send_keys(str(sims))
    driver.find_element(By.ID, "new-game").click()
    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.body.dataset.ply") == "0")
    idle(driver)


def winner(driver):
    return driver.find_element(By.ID, "winner").text.strip().lower()


def ply(driver):
    return int(driver.execute_script("return document.body.dataset.ply") or 0)


def play_out(driver, rng):
    """Clicks random legal cells until the game ends; each click is answered by the engine."""
    for _ in range(200):
        idle(driver)
        if winner(driver):
            return
        cells = driver.find_elements(By.CSS_SELECTOR, "#board .cell.legal[data-action]")
        assert cells, "no legal cell to click and no winner"
        before = ply(driver)
        rng.choice(cells).click()
        WebDriverWait(driver, 300).until(lambda d: ply(d) >= before + 2 or winner(d))
        assert not message(driver), message(driver)
    raise AssertionError("the game did not end")


def analysis_shows(driver):
    driver.find_element(By.ID, "analyze").click()
    WebDriverWait(driver, 120).until(lambda d: d.execute_script("return document.body.dataset.analysis") == "done")
    value = float(driver.find_element(By.ID, "value").text)
    heat = driver.find_elements(By.CSS_SELECTOR, "#board .heat")
    rows = driver.find_elements(By.CSS_SELECTOR, "#top-moves tbody tr")
    driver.find_element(By.ID, "analyze").click()
    return value, heat, rows


@pytest.mark.parametrize("variant,model", [("hex", "hex-11.pt"), ("quax", "quax-11.pt")])
def test_a_whole_game_against_the_model(site, browser, variant, model):
    new_game(browser, site, variant, 11, model, sims=16)
    rng = random.Random(11)
    # Two moves, then undo: back to the human's turn two plies earlier.
    for _ in range(2):
        cells = browser.find_elements(By.CSS_SELECTOR, "#board .cell.legal[data-action]")
        before = ply(browser)
        rng.choice(cells).click()
        WebDriverWait(browser, 120).until(lambda d: ply(d) == before + 2)
        idle(browser)
    browser.find_element(By.ID, "undo").click()
    WebDriverWait(browser, 60).until(lambda d: ply(d) == 2)
    idle(browser)
    value, heat, rows = analysis_shows(browser)
    assert -1 <= value <= 1
    assert len(heat) > 50, f"the heat map has {len(heat)} cells"
    assert rows, "no moves in the analysis table"
    play_out(browser, rng)
    assert "black" in winner(browser) or "white" in winner(browser)
    assert browser.find_elements(By.CSS_SELECTOR, "#board .chain"), "the winning chain is not shown"


def replay(driver, url, variant, size, record):
    open_page(driver, url)
    driver.find_element(By.ID, "tab-replay").click()
    Select(driver.find_element(By.ID, "replay-variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "replay-size")).select_by_value(str(size))
    swap = driver.find_element(By.ID, "replay-swap")
    if swap.is_selected():
        swap.click()
    driver.find_element(By.ID, "replay-record").clear()
    driver.find_element(By.ID, "replay-record").send_keys(record)
    driver.find_element(By.ID, "replay-load").click()
    idle(driver)


def random_positions(variant, size, count, seed):
    rng = random.Random(seed)
    games = []
    for i in range(count):
        game = quax.Game(variant, size, False)
        for _ in range(rng.randrange(0, 30)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        games.append(game)
    return games


def page_game(driver, variant, size, record):
    """A game of the page at `record`'s end (no engine), through its API: its id."""
    view = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "QuaxBackend.request('POST', '/api/replay', {variant: arguments[0], size: arguments[1], swap: false, record: arguments[2]})"
        ".then(done, (e) => done({error: e.message}));", variant, size, record)
    assert "error" not in view, view
    return view["id"]


def use_network(driver, number_format):
    """The page's network from now on in `number_format` ('fp32' or 'int8'), until it reloads."""
    driver.execute_script("QuaxBackend.setNetwork(arguments[0]);", number_format)
    assert driver.execute_script("return QuaxBackend.network();") == number_format


def page_outputs(driver, gid, model):
    page = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "QuaxBackend.evaluate(arguments[0], arguments[1]).then(done, (e) => done({error: e.message}));", gid, model)
    assert "error" not in page, page
    return numpy.array(page["policy"]), page["value"]


def softmax(logits):
    e = numpy.exp(logits - logits.max())
    return e / e.sum()


@pytest.mark.parametrize("variant,model", [("hex", "hex-11"), ("quax", "quax-11")])
def test_network_outputs_and_search_moves_equal_the_native_engine(site, browser, variant, model):
    open_page(browser, site)
    use_network(browser, "fp32")
    native = quax.load_model(os.path.join(SOURCE_DIR, "checkpoints", model + ".pt"))
    search = quax.Search(os.path.join(SOURCE_DIR, "checkpoints", model + ".pt"), simulations=48)
    games = random_positions(variant, 11, 8, seed=59)
    worst, same, compared = 0.0, 0, 0
    for game in games:
        gid = page_game(browser, variant, 11, game.record())
        page_policy, page_value = page_outputs(browser, gid, model + ".pt")
        policy, value = native.evaluate(game.observation()[None], game.net_legal_mask()[None], logits=True)
        worst = max(worst, float(numpy.abs(page_policy - policy[0]).max()), abs(page_value - float(value[0])))
        move = browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "QuaxBackend.playerMove(arguments[0], arguments[1], 48).then(done, (e) => done({error: e.message}));", gid, model + ".pt")
        assert "error" not in move, move
        assert move["simulations"] >= 48
        compared += 1
        same += move["action"] == search.best_action(game)
    assert compared >= 6
    assert worst <= 1e-4, f"the page's network differs from the native one by {worst}"
    assert same == compared, f"the page's search chose the native search's move in {same} of {compared} positions"


@pytest.mark.parametrize("variant,model", [("hex", "hex-11"), ("quax", "quax-11")])
def test_the_int8_network_is_within_its_rounding_of_the_native_one(site, browser, variant, model):
    """The page plays int8 unless told otherwise (?network=fp32). In int8 its move probabilities
    are within 0.12 of the native float32 network's and its values within 0.3 (0.045 on average:
    tests/onnx/check_onnx.js's bars), its most likely move is float32's or one float32 gives
    within 0.1 as much probability (a near tie: on 200 opening positions of each game, int8 chose
    another move than float32 in 12 and 17, giving up at most 0.06 of float32's probability),
    and its outputs are not float32's own."""
    open_page(browser, site)
    assert browser.execute_script("return ort.env.wasm.numThreads;") > 1
    assert browser.execute_script("return QuaxBackend.network();") == "int8"
    use_network(browser, "int8")
    native = quax.load_model(os.path.join(SOURCE_DIR, "checkpoints", model + ".pt"))
    probability, values, given_up, moved = 0.0, [], 0.0, 0.0
    games = random_positions(variant, 11, 8, seed=61)
    for game in games:
        page_policy, page_value = page_outputs(browser, page_game(browser, variant, 11, game.record()), model + ".pt")
        policy, value = native.evaluate(game.observation()[None], game.net_legal_mask()[None], logits=True)
        legal = numpy.asarray(game.net_legal_mask(), dtype=bool)  # the probabilities of the legal moves
        mine, theirs = softmax(page_policy[legal]), softmax(policy[0][legal])
        probability = max(probability, float(numpy.abs(mine - theirs).max()))
        values.append(abs(page_value - float(value[0])))
        given_up = max(given_up, float(theirs.max() - theirs[mine.argmax()]))
        moved = max(moved, float(numpy.abs(page_policy[legal] - policy[0][legal]).max()))
    assert probability <= 0.12, f"int8 probabilities {probability} from float32's"
    assert max(values) <= 0.3 and sum(values) / len(values) <= 0.045, f"int8 values {values} from float32's"
    assert given_up <= 0.1, f"int8's most likely move has {given_up} less of float32's probability than float32's"
    assert moved > 1e-4, "the page's int8 network gave float32's outputs: the int8 files are not in use"
    open_page(browser, site + "?network=fp32")
    assert browser.execute_script("return QuaxBackend.network();") == "fp32"


@pytest.mark.parametrize("variant,model,level", [("hex", "hex-11", 9), ("hex", "hex-11", 8), ("quax", "quax-11", 9)])
def test_the_levels_are_the_native_ones(site, browser, variant, model, level):
    """The engine's reply at a level of the model's own table (hex-11.pt's level 9 searches 23
    simulations, quax-11.pt's 64, the default table's 48; level 8 plays the largest prior) is the
    native player's at that level (in float32, the native number format here)."""
    open_page(browser, site)
    use_network(browser, "fp32")
    native = quax.Search(os.path.join(SOURCE_DIR, "checkpoints", model + ".pt"), level=level)
    rng = random.Random(level)
    for _ in range(3):
        game = quax.Game(variant, 11, False)
        first = rng.choice(game.legal_actions())
        view = browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "(async () => {"
            " let v = await QuaxBackend.request('POST', '/api/games', {variant: arguments[0], size: 11, swap: false,"
            "   opponent: arguments[1], human: 'black', level: arguments[2]});"
            " v = await QuaxBackend.request('POST', `/api/games/${v.id}/play`, {action: arguments[3]});"
            " const settings = await QuaxBackend.engineSettings(v.id);"
            " v = await QuaxBackend.request('POST', `/api/games/${v.id}/engine`);"
            " return {...v, settings};"
            "})().then(done, (e) => done({error: e.message}));", variant, model + ".pt", level, first)
        assert "error" not in view, view
        assert view["opponent"] == f"{model}.pt:level={level}"
        table = json.loads((pathlib.Path(SITE) / "models" / f".{model}.description.json").read_text())["levels"]["table"]
        want = table[level - 1]
        assert view["settings"]["simulations"] == want["sims"], view["settings"]
        assert abs(view["settings"]["prior_temperature"] - want["temperature"]) < 1e-6, view["settings"]
        assert view["settings"]["leaves_per_batch"] == 4 and view["settings"]["dirichlet_fraction"] == 0
        game.apply(first)
        assert view["history"][1]["action"] == native.best_action(game), f"{model} level {level} after {first}"


def test_a_timed_engine_searches_for_its_time(site, browser):
    open_page(browser, site)
    answer = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "(async () => {"
        # The model's first use loads it (seconds on a busy machine): a first game loads it, so
        # that the timed move measures the search, as the clock does.
        " const w = await QuaxBackend.request('POST', '/api/games', {variant: 'hex', size: 11, swap: false,"
        "   opponent: 'hex-11.pt', human: 'white', seconds: 0.4});"
        " await QuaxBackend.request('POST', `/api/games/${w.id}/engine`);"
        " let v = await QuaxBackend.request('POST', '/api/games', {variant: 'hex', size: 11, swap: false,"
        "   opponent: 'hex-11.pt', human: 'black', seconds: 0.4});"
        " v = await QuaxBackend.request('POST', `/api/games/${v.id}/play`, {action: 60});"
        " const start = performance.now();"
        " v = await QuaxBackend.request('POST', `/api/games/${v.id}/engine`);"
        " const seconds = (performance.now() - start) / 1000;"
        " let refused = null;"
        " try { await QuaxBackend.request('POST', '/api/games', {variant: 'hex', size: 11, opponent: 'hex-11.pt', seconds: 0.0001}); }"
        " catch (e) { refused = e.message; }"
        " return {ply: v.ply, opponent: v.opponent, seconds, refused};"
        "})().then(done, (e) => done({error: e.message}));")
    assert "error" not in answer, answer
    assert answer["ply"] == 2 and answer["opponent"] == "hex-11.pt:time=0.4", answer
    assert 0.4 <= answer["seconds"] < 3, answer
    assert "'seconds' must be 0" in answer["refused"], answer


def test_a_record_replays_and_a_malformed_one_is_refused(site, browser):
    game = random_positions("hex", 11, 1, seed=5)[0]
    replay(browser, site, "hex", 11, game.record())
    assert not message(browser), message(browser)
    assert ply(browser) == len(game.actions)
    assert browser.find_elements(By.CSS_SELECTOR, "#board .stone, #board [data-player]")
    replay(browser, site, "hex", 11, "a1 zz99 b2")
    assert "zz99" in message(browser), message(browser)


def test_a_broken_model_a_missing_list_and_a_broken_engine_are_said_in_the_page(site, browser, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(SITE, broken, ignore=shutil.ignore_patterns("quax-11.*"))
    models = json.loads((broken / "models" / "models.json").read_text())
    hex_model = next(m for m in models if m["name"] == "hex-11.pt")
    for files in ("files", "files_int8"):  # whichever number format the page plays
        (broken / "models" / hex_model[files]["11"]).write_bytes(b"not an onnx file")
    (broken / "models" / "models.json").write_text(json.dumps([hex_model]))
    process, url = serve(broken)
    try:
        new_game(browser, url, "hex", 11, "hex-11.pt", sims=8)
        cells = browser.find_elements(By.CSS_SELECTOR, "#board .cell.legal[data-action]")
        cells[0].click()
        idle(browser)
        assert "failed to load" in message(browser) and "hex-11.pt" in message(browser), message(browser)
        (broken / "models" / "models.json").unlink()
        browser.get(url)
        WebDriverWait(browser, 60).until(lambda d: "models.json" in message(d))
        assert "cannot read the list of models" in message(browser), message(browser)
        (broken / "quax_engine.wasm").write_bytes(b"not WebAssembly")
        browser.get(url)
        WebDriverWait(browser, 60).until(lambda d: "did not start" in message(d))
        assert "the engine did not start" in message(browser), message(browser)
    finally:
        process.terminate()
        process.wait()


def test_the_page_plays_offline_once_loaded(site, browser, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(SITE, copy, ignore=shutil.ignore_patterns("quax-11.*"))
    process, url = serve(copy)
    try:
        open_page(browser, url)
        assert browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "setTimeout(() => done(false), 30000);"
            "navigator.serviceWorker.ready.then(() => done(true), () => done(false));"), "no service worker"
        new_game(browser, url, "hex", 11, "hex-11.pt", sims=8)  # the page again, now under its service worker
        browser.find_elements(By.CSS_SELECTOR, "#board .cell.legal[data-action]")[0].click()
        WebDriverWait(browser, 120).until(lambda d: ply(d) == 2)
        idle(browser)
    finally:
        process.terminate()
        process.wait()
    # The host is gone: the page, the engine, ONNX Runtime and the model come from what was kept.
    new_game(browser, url, "hex", 11, "hex-11.pt", sims=8)
    browser.find_elements(By.CSS_SELECTOR, "#board .cell.legal[data-action]")[5].click()
    WebDriverWait(browser, 120).until(lambda d: ply(d) == 2 or message(d))
    idle(browser)
    assert ply(browser) == 2 and not message(browser), message(browser)


def test_a_plain_host_gives_onnx_runtime_threads(site, browser):
    # python3 -m http.server sends no COOP/COEP headers: the service worker adds them, and the
    # first visit reloads once under it, so that the page is cross-origin isolated and ONNX
    # Runtime runs on as many threads as the machine has cores (at most 4).
    open_page(browser, site)
    state = browser.execute_script(
        "return {isolated: self.crossOriginIsolated, threads: ort.env.wasm.numThreads,"
        " cores: navigator.hardwareConcurrency, reloaded: sessionStorage.getItem('quax-isolation-reload')}")
    assert state["isolated"] is True, state
    assert state["threads"] == min(4, state["cores"]), state
    # A move of the model on those threads, in float32: the same move as the native search (no noise).
    use_network(browser, "fp32")
    game = random_positions("hex", 11, 1, seed=9)[0]
    move = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "(async () => {"
        " const v = await QuaxBackend.request('POST', '/api/replay', {variant: 'hex', size: 11, swap: false, record: arguments[0]});"
        " return await QuaxBackend.playerMove(Number(v.id), 'hex-11.pt', 48);"
        "})().then(done, (e) => done({error: e.message}));", game.record())
    assert "error" not in move, move
    native = quax.Search(os.path.join(SOURCE_DIR, "checkpoints", "hex-11.pt"), simulations=48)
    assert move["action"] == native.best_action(game), move


def test_the_page_with_the_engine_weighs_under_five_megabytes(site):
    # Everything but the models (each as shipped): the page, the engine and ONNX Runtime, whose
    # WebAssembly the page unpacks itself, so that no host needs to compress it.
    root = pathlib.Path(SITE)
    files = [f for f in root.rglob("*") if f.is_file() and f.relative_to(root).parts[0] != "models"]
    total = sum(f.stat().st_size for f in files)
    assert total < 5_000_000, sorted((f.stat().st_size, str(f.relative_to(root))) for f in files)[-5:]
    assert not list(root.rglob("*.part")) and not (root / "ort" / "ort-wasm-simd-threaded.wasm").exists()


def test_the_rules_of_the_page_are_the_native_ones(site, tmp_path):
    games = tmp_path / "games.jsonl"
    with open(games, "w") as out:
        made = subprocess.run(["node", os.path.join(SOURCE_DIR, "tests", "site", "random_games.js"),
                               os.path.join(BUILD_DIR, "site-wasm", "quax_engine.js"), "2", "59"],
                              stdout=out, stderr=subprocess.PIPE, text=True)
    assert made.returncode == 0, made.stderr
    checked = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "tests", "site", "check_rules.py"), str(games)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "13 variants" in checked.stdout
