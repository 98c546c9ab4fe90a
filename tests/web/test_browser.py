# The browser board in headless Chromium (Debian's chromium, chromium-driver, python3-selenium):
# whole games by clicks against the shipped models on quax (with a link played by clicking its
# diagonal), quady (a hexagonal board) and stymie, the analysis heat map on each, links that
# stand out on stones of their own colour (read off a screenshot), quady's points, torax's
# auction, replays of a record and of an arena results file, a run's charts (its gating games
# too), the balance reports side by side; and the hexagonal boards' geometry read off the SVG:
# the triangle's column letters on their lines, goal bars clear of the cells, hex's row 1 south.
import json
import math
import random
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from serve_fixture import SOURCE_DIR, start_server, stop_server


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


def new_game(driver, server, variant, size, opponent, sims="16", human="black", level=None):
    """Opens a game; a model opponent plays `sims` simulations (the level "custom"), or at
    `level` (the select's value) when given."""
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
    level_select = driver.find_elements(By.ID, "level")
    if level_select and level_select[0].is_displayed():
        Select(level_select[0]).select_by_value(str(level) if level is not None else "0")
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
    under_board = browser.find_element(By.CSS_SELECTOR, ".board-column").text.lower()
    assert under_board.count("wins") == 1, "the result is not written once under the board: %r" % under_board


def read_heat_map(browser, cells):
    """Turns the analysis on at the current position and checks its heat map and table."""
    browser.find_element(By.ID, "analyze").click()
    WebDriverWait(browser, 60).until(lambda d: d.execute_script("return document.body.dataset.analysis") == "done")
    heat = [float(e.get_attribute("data-heat")) for e in browser.find_elements(By.CSS_SELECTOR, "#board .heat")]
    assert heat and all(0 <= h <= 1 for h in heat) and 0.5 < sum(heat) < 1.001 and max(heat) > 1.0 / cells
    assert len(browser.find_elements(By.CSS_SELECTOR, "#top-moves tbody tr")) >= 1
    assert browser.find_element(By.ID, "value").text.strip()
    browser.find_element(By.ID, "analyze").click()  # off again: the game goes on without it


def test_the_model_is_offered_by_level(server, browser):
    """Issue 34: the levels by name, strongest first, then custom; a level hides the
    simulations and the game's opponent records it."""
    new_game(browser, server, "quax", 5, "checkpoints/quax-5.pt", level=3)
    options = [o.text for o in Select(browser.find_element(By.ID, "level")).options]
    assert options[0] == "10 · full strength" and options[7] == "3 · casual" and options[9] == "1 · novice"
    assert options[10].startswith("custom")
    assert not browser.find_element(By.ID, "sims").is_displayed()
    WebDriverWait(browser, 60).until(
        lambda d: "opponent: quax-5.pt · level 3 (casual)" in d.find_element(By.ID, "game-title").text)


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


def play_labels(driver, labels):
    """Plays board items by their names (`a1`, a link `a1-b2`) by clicks, one after another."""
    for label in labels:
        before = ply(driver)
        click_item(driver, driver.find_element(By.CSS_SELECTOR, '#board [data-label="%s"].legal' % label))
        WebDriverWait(driver, 30).until(lambda d: ply(d) != before)
        idle(driver)


# The colours of the screenshot's pixels at points given in board units (the svg's
# coordinates): the browser decodes its own screenshot onto a canvas.
READ_PIXELS = """
const [png, points, done] = arguments;
const svg = document.getElementById('board');
const matrix = svg.getScreenCTM();
const image = new Image();
image.onload = () => {
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const ratio = window.devicePixelRatio || 1;
  done(points.map(([x, y]) => {
    const point = svg.createSVGPoint();
    point.x = x;
    point.y = y;
    const at = point.matrixTransform(matrix);
    return Array.from(context.getImageData(Math.round(at.x * ratio), Math.round(at.y * ratio), 1, 1).data.slice(0, 3));
  }));
};
image.src = 'data:image/png;base64,' + png;
"""


def luminance(rgb):
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def item_center(driver, label):
    """The centre of a cell's polygon, in board units."""
    box = driver.execute_script("return document.querySelector('#board [data-label=\"%s\"]').getBBox()" % label)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("colour,moves,link", [
    ("black", ["a1", "d4", "b2", "e5", "a1-b2"], "a1-b2"),
    ("white", ["a1", "d4", "b2", "e5", "a1-b2", "d4-e5"], "d4-e5"),
])
def test_a_link_stands_out_on_stones_of_its_colour(server, browser, colour, moves, link):
    """Across the link where it lies on its first stone, some pixel differs clearly from the
    stone: a link drawn only in its stones' colour vanishes there (issue 29: Black's did)."""
    new_game(browser, server, "quax", 5, "none", human="both")
    play_labels(browser, moves)
    assert browser.find_elements(By.CSS_SELECTOR, '#board g.link.%s[data-label="%s"]' % (colour, link))
    first, second = link.split("-")
    (ax, ay), (bx, by) = item_center(browser, first), item_center(browser, second)
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    nx, ny = -(by - ay) / length, (bx - ax) / length  # a unit step across the link
    # 30% of the way from the first stone's centre to the second's: on the first stone, clear
    # of its edge; sampled across the link from 0.2 cell on one side to 0.2 on the other.
    cx, cy = ax + 0.3 * (bx - ax), ay + 0.3 * (by - ay)
    across = [(cx + nx * t / 100, cy + ny * t / 100) for t in range(-20, 21, 2)]
    # The stone's own colour: 0.3 cell beside the link, still on the stone.
    reference = (ax + nx * 0.3, ay + ny * 0.3)
    pixels = browser.execute_async_script(READ_PIXELS, browser.get_screenshot_as_base64(), [reference] + across)
    stone_pixel, link_pixels = pixels[0], pixels[1:]
    stone_luminance = 33 if colour == "black" else 255  # --black-stone #202226, --white-stone #fff
    assert abs(luminance(stone_pixel) - stone_luminance) < 20, "the reference is not on the stone: %s" % stone_pixel
    contrast = max(abs(luminance(p) - luminance(stone_pixel)) for p in link_pixels)
    assert contrast > 100, "the %s link %s does not stand out on its stone %s: %s against %s" % (
        colour, link, first, link_pixels, stone_pixel)


def test_quady_shows_its_points_and_the_sub_game_won(server, browser):
    new_game(browser, server, "quady", 5, "none", human="both")
    assert browser.find_element(By.ID, "points").text == "Points (3 of 5 win): black 0, white 0; whole board: open"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .game-side")) == 4  # the four sub-triangles
    play_labels(browser, ["a1", "e5", "a2", "d5"])
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .game-point")
    play_labels(browser, ["a3"])  # a1 a2 a3 joins the three sides of the top sub-triangle
    assert browser.find_element(By.ID, "points").text == "Points (3 of 5 win): black 1, white 0; whole board: open"
    won = browser.find_elements(By.CSS_SELECTOR, "#board .game-point")
    assert [e.get_attribute("data-winner") for e in won] == ["black"]
    # Its disc sits inside the top sub-triangle, between the apex a1 and the row of a3.
    disc_y = float(won[0].get_attribute("cy"))
    assert item_center(browser, "a1")[1] < disc_y < item_center(browser, "a3")[1]


def test_torax_says_where_its_auction_stands(server, browser):
    new_game(browser, server, "torax", 5, "none", human="both")
    status = lambda: browser.find_element(By.ID, "status").text
    assert status() == "Auction: black to move, 0 blocks on the board, 0 this turn (at most 5)"
    play_labels(browser, ["c3", "d4"])
    assert status() == "Auction: black to move, 2 blocks on the board, 2 this turn (at most 5)"
    browser.find_element(By.CSS_SELECTOR, '[data-extra="end"]').click()
    WebDriverWait(browser, 30).until(lambda d: ply(d) == "3")
    idle(browser)
    assert status() == "Auction: white to move, 2 blocks on the board, 0 this turn (at most 5)"
    browser.find_element(By.CSS_SELECTOR, '[data-extra="adopt"]').click()
    WebDriverWait(browser, 30).until(lambda d: ply(d) == "4")
    idle(browser)
    assert status() == "Black (black stones) to move"  # White adopted: the Blocker


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


def test_the_balance_page_shows_and_compares_reports(server, browser):
    """The shipped reports (docs/balance, the server's default): the first shown on opening the
    tab, a second one ticked beside it, each figure and map as `quax balance` wrote them."""
    shipped = sorted(p.name for p in (SOURCE_DIR / "docs" / "balance").iterdir() if (p / "balance.json").is_file())
    browser.get(server["url"])
    idle(browser)
    browser.find_element(By.ID, "tab-balance").click()
    idle(browser)
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-tab") == "balance"
    assert not browser.find_element(By.ID, "balance-area").get_attribute("hidden")
    assert browser.find_element(By.ID, "game-area").get_attribute("hidden")
    boxes = browser.find_elements(By.CSS_SELECTOR, "#balance-list input")
    assert [b.get_attribute("value") for b in boxes] == shipped
    assert [b.is_selected() for b in boxes] == [True] + [False] * (len(shipped) - 1)

    def columns(d):
        return [th.text for th in d.find_elements(By.CSS_SELECTOR, "#balance-table thead th")][1:]

    WebDriverWait(browser, 30).until(lambda d: columns(d) == shipped[:1])
    boxes[1].click()
    idle(browser)
    WebDriverWait(browser, 30).until(lambda d: columns(d) == shipped[:2])
    rows = {tr.find_element(By.TAG_NAME, "th").text: [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in browser.find_elements(By.CSS_SELECTOR, "#balance-table tbody tr")}
    reports = [json.loads((SOURCE_DIR / "docs" / "balance" / n / "balance.json").read_text()) for n in shipped[:2]]
    assert rows["player"] == [r["model"] for r in reports]  # a model's report names its file there
    assert rows["swap taken"] == ["%d of %d" % (r["first_player"]["with_swap"]["swapped"],
                                                r["first_player"]["with_swap"]["games"]) for r in reports]
    # Both maps drawn (an <img> of each report's SVG that loaded), and each whole report's text.
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(
        "return Array.from(document.querySelectorAll('#balance-maps img'))"
        ".filter(i => i.complete && i.naturalWidth > 300).length") == 2)
    texts = browser.execute_script(
        "return Array.from(document.querySelectorAll('#balance-texts pre')).map(p => p.textContent)")
    assert texts == [(SOURCE_DIR / "docs" / "balance" / n / "report.txt").read_text() for n in shipped[:2]]
    # Back to the board: the game area returns.
    browser.find_element(By.ID, "tab-play").click()
    assert not browser.find_element(By.ID, "game-area").get_attribute("hidden")


# ---- issue: coordinates, size names and goal bars of the hexagonal boards; gating results ----

BOARD_GEOMETRY = """
const parse = (text) => text.trim().split(/\\s+/).map((p) => p.split(',').map(Number));
return {
  cells: Array.from(document.querySelectorAll('#board polygon.cell'))
    .map((e) => [e.dataset.label, parse(e.getAttribute('points'))]),
  labels: Array.from(document.querySelectorAll('#board text.coordinate'))
    .map((e) => [e.textContent, Number(e.getAttribute('x')), Number(e.getAttribute('y'))]),
  boxes: Array.from(document.querySelectorAll('#board text.coordinate'))
    .map((e) => { const b = e.getBBox(); return [e.textContent, [b.x, b.y, b.x + b.width, b.y + b.height]]; }),
  goals: Array.from(document.querySelectorAll('#board line.goal'))
    .map((e) => [e.getAttribute('class'), ['x1', 'y1', 'x2', 'y2'].map((k) => Number(e.getAttribute(k))),
                 parseFloat(getComputedStyle(e).strokeWidth)]),
};
"""


def board_geometry(driver, boxes=False):
    """Cells {label: polygon}, coordinate labels [(text, x, y)], goal bars [(class, segment,
    stroke width)], all in board units, as drawn; with boxes, also each label's glyph box
    [(text, (x0, y0, x1, y1))]."""
    got = driver.execute_script(BOARD_GEOMETRY)
    geometry = ({label: [tuple(p) for p in points] for label, points in got["cells"]},
                [tuple(label) for label in got["labels"]], got["goals"])
    return geometry + ([(text, tuple(box)) for text, box in got["boxes"]],) if boxes else geometry


def centre(polygon):
    return sum(x for x, _ in polygon) / len(polygon), sum(y for _, y in polygon) / len(polygon)


def split_label(label):
    letters = label.rstrip("0123456789")
    return letters, int(label[len(letters):])


def distance_to_segment(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return ((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5


def inside(p, polygon):
    """Strictly inside a convex polygon (either orientation)."""
    signs = set()
    for a, b in zip(polygon, polygon[1:] + polygon[:1]):
        cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        signs.add(cross > 0)
    return len(signs) == 1


def distance_to_polygon(p, polygon):
    """0 inside, else the distance to its outline."""
    if inside(p, polygon):
        return 0.0
    return min(distance_to_segment(p, a, b) for a, b in zip(polygon, polygon[1:] + polygon[:1]))


def segments_cross(a, b, c, d):
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def segment_to_polygon(a, b, polygon):
    """The distance between segment ab and a convex polygon: 0 where they meet."""
    edges = list(zip(polygon, polygon[1:] + polygon[:1]))
    if inside(a, polygon) or inside(b, polygon) or any(segments_cross(a, b, c, d) for c, d in edges):
        return 0.0
    return min([distance_to_segment(v, a, b) for v in polygon] + [distance_to_polygon(a, polygon),
                                                                  distance_to_polygon(b, polygon)])


@pytest.mark.parametrize("variant,size", [("quady", 15), ("y", 9)])
def test_the_triangle_letters_each_column_at_both_ends_of_its_line(server, browser, variant, size):
    """Column c of the triangle is the line of cells (r, c), r >= c, from (c, c) on the right
    side down-left to (N, c) on the base. Each letter stands on its own line, just beyond both
    ends, and no other letter does: a letter under the base cell alone lay nearer the lines of
    other columns (on side 15, h8 stood above the base's k and l)."""
    new_game(browser, server, variant, size, "none", human="both")
    cells, labels, _ = board_geometry(browser)
    assert len(cells) == size * (size + 1) // 2
    columns = {}
    for label, polygon in cells.items():
        letter, row = split_label(label)
        columns.setdefault(letter, []).append((row, centre(polygon)))
    letters = [(text, (x, y)) for text, x, y in labels if text.isalpha()]
    # Every column runs the same way: the direction from (c, c) down its line, read off column a.
    (_, top), (_, base) = sorted(columns["a"])[0], sorted(columns["a"])[-1]
    length = ((base[0] - top[0]) ** 2 + (base[1] - top[1]) ** 2) ** 0.5
    ux, uy = (base[0] - top[0]) / length, (base[1] - top[1]) / length
    assert ux < 0 < uy, "column a does not run down-left from the apex"

    def across(point, on_line):  # distance from the line through on_line, along (ux, uy)
        return abs((point[0] - on_line[0]) * uy - (point[1] - on_line[1]) * ux)

    def along(point, on_line):
        return (point[0] - on_line[0]) * ux + (point[1] - on_line[1]) * uy

    if size == 15:  # the example
        h8 = centre(cells["h8"])
        nearest = min(letters, key=lambda item: across(item[1], h8))
        assert nearest[0] == "h", "the letter nearest h8's column line is %r" % nearest[0]
    for letter, members in columns.items():
        members.sort()
        first, last = members[0][1], members[-1][1]
        assert members[0][0] == ord(letter) - ord("a") + 1 and members[-1][0] == size, letter
        on_line = [(text, at) for text, at in letters if across(at, first) < 0.2]
        assert sorted(text for text, _ in on_line) == [letter, letter], (
            "column %s's line carries the letters %s" % (letter, [text for text, _ in on_line]))
        ends = sorted(along(at, first) for _, at in on_line)
        assert ends[0] < -0.6 and ends[1] > along(last, first) + 0.6, (
            "the letters of column %s are not beyond both ends of its line: %s" % (letter, ends))
    # Every label clear of every cell.
    for text, x, y in labels:
        assert min(distance_to_polygon((x, y), polygon) for polygon in cells.values()) > 0.25, text


def test_the_triangles_sizes_are_named_by_their_side(server, browser):
    browser.get(server["url"])
    idle(browser)

    def texts(select):
        return [(o.get_attribute("value"), o.text) for o in Select(browser.find_element(By.ID, select)).options]

    for variant in ("y", "quady", "quady2"):
        Select(browser.find_element(By.ID, "variant")).select_by_value(variant)
        options = texts("size")
        assert options and all(text == "side %s" % value for value, text in options), options
        assert Select(browser.find_element(By.ID, "size")).first_selected_option.text == (
            "side 17" if variant == "quady2" else "side 15")
    for variant in ("hex", "quax"):
        Select(browser.find_element(By.ID, "variant")).select_by_value(variant)
        options = texts("size")
        assert options and all(text == "%s×%s" % (value, value) for value, text in options), options
    # The Replay tab's size select too.
    browser.find_element(By.ID, "tab-replay").click()
    Select(browser.find_element(By.ID, "replay-variant")).select_by_value("y")
    options = texts("replay-size")
    assert options and all(text == "side %s" % value for value, text in options), options
    browser.find_element(By.ID, "tab-play").click()
    # A model of the triangle, in the opponent select, by its side too.
    Select(browser.find_element(By.ID, "variant")).select_by_value("quady")
    Select(browser.find_element(By.ID, "size")).select_by_value("9")
    model = [o.text for o in Select(browser.find_element(By.ID, "opponent")).options
             if o.get_attribute("value") == "checkpoints/quady-9.pt"]
    assert model and "side 9" in model[0] and "×" not in model[0], model


@pytest.mark.parametrize("variant,size", [("hex", 11), ("quadhex", 10)])
def test_the_hex_goal_bars_lie_outside_the_cells(server, browser, variant, size):
    """Each goal bar, stroke included, clears every cell hexagon (they cut through the corners
    of columns a and k), and the coordinates stay clear of the bars."""
    new_game(browser, server, variant, size, "none", human="both")
    cells, labels, goals, boxes = board_geometry(browser, boxes=True)
    assert len(cells) == size * size
    kinds = [kind.split()[-1] for kind, _, _ in goals]
    assert kinds.count("goal-black") == 2 and kinds.count("goal-white") == 2, kinds
    for kind, (x1, y1, x2, y2), width in goals:  # the bars' centre lines outside every cell
        crossed = [label for label, polygon in cells.items() if segment_to_polygon((x1, y1), (x2, y2), polygon) == 0]
        assert not crossed, "the bar %s (%s) crosses the cells %s" % (kind, (x1, y1, x2, y2), crossed)
    for kind, (x1, y1, x2, y2), width in goals:
        assert 0 < width < 0.5, (kind, width)
        for label, polygon in cells.items():  # and their strokes too
            gap = segment_to_polygon((x1, y1), (x2, y2), polygon)
            assert gap >= width / 2, "the bar %s (%s) comes within %.3f of cell %s (its half width %.3f)" % (
                kind, (x1, y1, x2, y2), gap, label, width / 2)
        # The coordinates' glyphs are clear of the bar too (it was moved towards them).
        for text, (bx0, by0, bx1, by1) in boxes:
            box = [(bx0, by0), (bx1, by0), (bx1, by1), (bx0, by1)]
            assert segment_to_polygon((x1, y1), (x2, y2), box) >= width / 2, (
                "the coordinate %s runs into the bar %s" % (text, kind))


def test_the_hex_rhombus_has_row_1_in_the_south(server, browser):
    """The rules' frame: rows from 1 in the south to N in the north, columns from a in the west."""
    new_game(browser, server, "hex", 11, "none", human="both")
    cells, labels, _ = board_geometry(browser)
    (a1x, a1y), (a11x, a11y), (k1x, k1y) = (centre(cells[c]) for c in ("a1", "a11", "k1"))
    assert a1y > a11y + 8, "a1 is not drawn south of a11 (SVG y grows southwards)"
    assert k1x > a1x + 9 and abs(k1y - a1y) < 1e-3, "k1 is not east of a1 on row 1"
    row = {text: y for text, _, y in labels if text.isdigit()}
    assert abs(row["1"] - a1y) < 1e-3 and abs(row["11"] - a11y) < 1e-3, "the row numbers are not on their rows"


def wilson(score, games, z=1.96):
    denominator = 1 + z * z / games
    middle = (score + z * z / (2 * games)) / denominator
    half = z * (score * (1 - score) / games + z * z / (4 * games * games)) ** 0.5 / denominator
    return max(0.0, middle - half), min(1.0, middle + half)


def test_the_runs_page_charts_the_gating_games(server, browser):
    """A short run without a ladder: its gating records are its only measure of strength. The
    gating chart has a dot per record (time in minutes, score) with its 95% interval, and the
    Elo panel shows their Elo difference by step instead of "no data yet"."""
    run = server["runs"] / "gated"
    run.mkdir(exist_ok=True)
    gating = [(100, 120.0, 3, 7), (200, 300.0, 6, 4), (300, 540.0, 9, 1)]  # step, time_s, won, lost
    records = ['{"kind":"learn","step":%d,"loss":3,"policy_entropy":2,"value_accuracy":0.6,"time_s":%d}'
               % (step, time_s - 10) for step, time_s, _, _ in gating[:2]]
    for step, time_s, won, lost in gating:
        score = won / (won + lost)
        records.append(json.dumps({
            "kind": "gating", "step": step, "opponent": "uct:200", "games": won + lost, "wins": won, "losses": lost,
            "draws": 0, "as_black": {"games": 5}, "as_white": {"games": 5}, "score": score,
            "elo_diff": -400 * math.log10(1 / score - 1), "time_s": time_s}))
    (run / "metrics.jsonl").write_text("\n".join(records) + "\n")
    browser.get(server["url"])
    idle(browser)
    browser.find_element(By.ID, "tab-runs").click()
    WebDriverWait(browser, 30).until(
        lambda d: "gated" in [o.get_attribute("value") for o in Select(d.find_element(By.ID, "runs-select")).options])
    Select(browser.find_element(By.ID, "runs-select")).select_by_value("gated")
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "run-summary").text.startswith("gated:"))
    idle(browser)

    def dots(chart):
        return [(float(e.get_attribute("data-x")), float(e.get_attribute("data-y")), float(e.get_attribute("cy")))
                for e in browser.find_elements(By.CSS_SELECTOR, 'figure[data-chart="%s"] svg circle.point' % chart)]

    score_dots = dots("gating")
    assert [(x, y) for x, y, _ in score_dots] == pytest.approx(
        [(time_s / 60, won / (won + lost)) for _, time_s, won, lost in gating])
    assert score_dots[0][2] > score_dots[1][2] > score_dots[2][2], "a higher score is not drawn higher"
    assert browser.find_elements(By.CSS_SELECTOR, 'figure[data-chart="gating"] svg polyline.series')
    intervals = browser.find_elements(By.CSS_SELECTOR, 'figure[data-chart="gating"] svg line.interval')
    assert len(intervals) == 3
    for line, (_, _, cy), (_, _, won, lost) in zip(intervals, score_dots, gating):
        lo, hi = float(line.get_attribute("data-lo")), float(line.get_attribute("data-hi"))
        assert (lo, hi) == pytest.approx(wilson(won / (won + lost), won + lost), abs=1e-9)
        below, above = float(line.get_attribute("y1")), float(line.get_attribute("y2"))
        assert below > cy > above, "the interval does not span its dot"

    elo = browser.find_element(By.CSS_SELECTOR, 'figure[data-chart="elo"]')
    assert not elo.find_elements(By.CSS_SELECTOR, "text.no-data"), elo.text
    assert "no data" not in elo.text
    assert "gating" in elo.find_element(By.TAG_NAME, "figcaption").text
    assert elo.find_elements(By.CSS_SELECTOR, "svg polyline.series")
    assert [(x, y) for x, y, _ in dots("elo")] == pytest.approx(
        [(step, -400 * math.log10((won + lost) / won - 1)) for step, _, won, lost in gating])
    assert "uct:200" in elo.text  # its legend and the opponent's level
    assert "3 gating records" in browser.find_element(By.ID, "run-summary").text
