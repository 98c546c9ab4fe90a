# The browser board in headless Chromium (Debian's chromium, chromium-driver, python3-selenium):
# whole games by clicks against the shipped models on quax (with a link played by clicking its
# diagonal), quady (a hexagonal board) and stymie, the analysis heat map on each, replays of a
# record and of an arena results file, and a run's charts.
import random
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from serve_fixture import start_server, stop_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    runs = tmp_path_factory.mktemp("runs")
    (runs / "tiny").mkdir()
    (runs / "tiny" / "metrics.jsonl").write_text("".join(
        '{"kind":"learn","step":%d,"loss":%.1f,"policy_entropy":2,"value_accuracy":0.6,"samples_per_s":500}\n'
        % (step, 4 - step / 100) for step in (50, 100, 150)))
    (runs / "tiny" / "ladder.json").write_text(
        '[{"player":"m50","kind":"model","step":50,"elo":0},{"player":"m150","kind":"model","step":150,"elo":300}]')
    (runs / "results.jsonl").write_text('{"black":"a","white":"b","result":"white","moves":4,"variant":"quax",'
                                        '"size":5,"swap":false,"record":"c3 d4 b2 e5"}\n')
    started = start_server(["--runs", str(runs)])
    started["runs"] = runs
    yield started
    assert stop_server(started) == 0


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    yield driver
    driver.quit()


def idle(driver, timeout=120):
    """Waits until no request is in flight and the engine is not thinking."""
    WebDriverWait(driver, timeout).until(lambda d: d.execute_script("return document.body.dataset.busy") == "0")


def new_game(driver, server, variant, size, opponent, sims="16", human="black"):
    driver.get(server["url"])
    WebDriverWait(driver, 30).until(lambda d: len(Select(d.find_element(By.ID, "variant")).options) >= 13)
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "size")).select_by_value(str(size))
    swap = driver.find_elements(By.ID, "swap")
    if swap and swap[0].is_selected():
        swap[0].click()  # no pie rule: the colours stay put, which keeps the test simple
    WebDriverWait(driver, 30).until(
        lambda d: opponent in [o.get_attribute("value") for o in Select(d.find_element(By.ID, "opponent")).options])
    Select(driver.find_element(By.ID, "opponent")).select_by_value(opponent)
    Select(driver.find_element(By.ID, "human")).select_by_value(human)
    sims_input = driver.find_elements(By.ID, "sims")
    if sims_input and sims_input[0].is_displayed():
        sims_input[0].clear()
        sims_input[0].send_keys(sims)
    driver.find_element(By.ID, "new-game").click()
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.body.dataset.ply") == "0")
    idle(driver)


def winner(driver):
    return driver.find_element(By.ID, "winner").text.strip().lower()


def legal_items(driver, kinds):
    return [e for kind in kinds for e in driver.find_elements(By.CSS_SELECTOR, "#board .%s.legal[data-action]" % kind)]


def click_item(driver, element):
    """Clicks a board item: a link through its wide transparent hit line."""
    action = element.get_attribute("data-action")
    hits = driver.find_elements(By.CSS_SELECTOR, '#board .hit[data-action="%s"]' % action)
    (hits[0] if hits else element).click()
    return int(action)


def play_to_the_end(driver, kinds, rng, want_link=False):
    link_played = None
    for _ in range(400):
        idle(driver)
        if winner(driver):
            return link_played
        ply = driver.execute_script("return document.body.dataset.ply")
        links = legal_items(driver, ["link"]) if want_link and link_played is None else []
        if links:
            link_played = click_item(driver, rng.choice(links))
        else:
            ends = [b for b in driver.find_elements(By.CSS_SELECTOR, '[data-extra="end"]') if b.is_enabled()]
            items = legal_items(driver, kinds)
            if ends and (not items or rng.random() < 0.3):
                ends[0].click()
            else:
                click_item(driver, rng.choice(items))
        WebDriverWait(driver, 120).until(lambda d: d.execute_script("return document.body.dataset.ply") != ply
                                         or winner(d))
    raise AssertionError("the game did not end")


def test_quax_against_the_model_with_a_link_by_its_diagonal(server, browser):
    new_game(browser, server, "quax", 5, "checkpoints/quax-5.pt")
    rng = random.Random(3)
    link = play_to_the_end(browser, ["cell"], rng, want_link=True)
    assert "black" in winner(browser) or "white" in winner(browser)
    assert link is not None, "no link was ever legal for the human"
    drawn = browser.find_elements(By.CSS_SELECTOR, '#board .link[data-action="%d"][data-player="black"]' % link)
    assert drawn, "the link clicked on its diagonal is not on the board as Black's"
    assert browser.find_elements(By.CSS_SELECTOR, "#board .chain"), "the winning chain is not highlighted"


def read_heat_map(browser, cells):
    """Turns the analysis on at the current position and checks its heat map and table."""
    browser.find_element(By.ID, "analyze").click()
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return document.body.dataset.analysis") == "done")
    heat = [float(e.get_attribute("data-heat")) for e in browser.find_elements(By.CSS_SELECTOR, "#board .heat")]
    assert heat and all(0 <= h <= 1 for h in heat) and 0.5 < sum(heat) < 1.001 and max(heat) > 1.0 / cells
    assert len(browser.find_elements(By.CSS_SELECTOR, "#top-moves tbody tr")) >= 1
    assert browser.find_element(By.ID, "value").text.strip()
    browser.find_element(By.ID, "analyze").click()  # off again: the game goes on without it


def test_quax_heat_map(server, browser):
    new_game(browser, server, "quax", 5, "checkpoints/quax-5.pt")
    read_heat_map(browser, cells=25)


def test_quady_against_the_model_with_its_heat_map(server, browser):
    new_game(browser, server, "quady", 9, "checkpoints/quady-9.pt")
    read_heat_map(browser, cells=45)
    play_to_the_end(browser, ["cell"], random.Random(5))
    assert "black" in winner(browser) or "white" in winner(browser)


def test_stymie_against_the_model_with_its_heat_map(server, browser):
    new_game(browser, server, "stymie", 5, "checkpoints/stymie-5.pt")
    read_heat_map(browser, cells=25 + 16)
    play_to_the_end(browser, ["cell", "square"], random.Random(8))
    assert "black" in winner(browser) or "white" in winner(browser)


def ply(driver):
    return driver.execute_script("return document.body.dataset.ply")


def test_replay_a_record_and_a_results_file_step_by_step(server, browser):
    browser.get(server["url"])
    browser.find_element(By.ID, "tab-replay").click()
    WebDriverWait(browser, 30).until(lambda d: len(Select(d.find_element(By.ID, "replay-variant")).options) >= 13)
    Select(browser.find_element(By.ID, "replay-variant")).select_by_value("quax")
    Select(browser.find_element(By.ID, "replay-size")).select_by_value("5")
    if browser.find_element(By.ID, "replay-swap").is_selected():
        browser.find_element(By.ID, "replay-swap").click()
    browser.find_element(By.ID, "replay-record").send_keys("c3 d4 b2")
    browser.find_element(By.ID, "replay-load").click()
    WebDriverWait(browser, 30).until(lambda d: ply(d) == "3")
    stones = lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .cell[data-player]"))
    assert stones(browser) == 3
    browser.find_element(By.ID, "prev").click()
    WebDriverWait(browser, 30).until(lambda d: ply(d) == "2" and stones(d) == 2)
    browser.find_element(By.ID, "first").click()
    WebDriverWait(browser, 30).until(lambda d: ply(d) == "0" and stones(d) == 0)
    results = browser.find_element(By.ID, "results-path")
    results.send_keys(str(server["runs"] / "results.jsonl"))
    browser.find_element(By.ID, "results-load").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results-list tbody tr[data-index]"))
    browser.find_element(By.CSS_SELECTOR, '#results-list tbody tr[data-index="0"]').click()
    WebDriverWait(browser, 30).until(lambda d: ply(d) == "4" and stones(d) == 4)


def test_the_runs_page_charts_a_run(server, browser):
    browser.get(server["url"])
    browser.find_element(By.ID, "tab-runs").click()
    WebDriverWait(browser, 30).until(
        lambda d: "tiny" in [o.get_attribute("value") for o in Select(d.find_element(By.ID, "runs-select")).options])
    Select(browser.find_element(By.ID, "runs-select")).select_by_value("tiny")
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, 'figure[data-chart="loss"] polyline'))
    points = browser.find_element(By.CSS_SELECTOR, 'figure[data-chart="loss"] polyline').get_attribute("points")
    assert len(points.split()) == 3
    assert browser.find_elements(By.CSS_SELECTOR, 'figure[data-chart="elo"] polyline')
