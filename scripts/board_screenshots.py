#!/usr/bin/env python3
"""Screenshots of the browser board for docs/: one game of each geometry with a few moves
played by clicks (random, after the named moves of PREFERRED that are legal when their turn
comes, which on quax make a black link), against the shipped model where there is one (then
with its analysis).

    scripts/board_screenshots.py [--quax build/quax] [--out docs]

Needs what the browser test needs (chromium, chromium-driver, python3-selenium).
"""
import argparse
import random
import shutil
import subprocess
import sys
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

BOARDS = [("quax", 7, "checkpoints/quax-7.pt", 6), ("stymie", 5, "checkpoints/stymie-5.pt", 4),
          ("torax", 5, "none", 14), ("hex", 7, "none", 14), ("quady", 9, "checkpoints/quady-9.pt", 6),
          ("quadhex", 8, "none", 40)]
# Tried in order, each when legal, before random moves: diagonal pairs of black stones and
# their links, whichever the engine leaves open.
PREFERRED = {"quax": ["c3", "d4", "c3-d4", "b4", "b4-c3", "d2", "c3-d2", "e5", "d4-e5"]}


def idle(driver):
    WebDriverWait(driver, 120).until(lambda d: d.execute_script("return document.body.dataset.busy") == "0")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quax", default="build/quax")
    parser.add_argument("--out", default="docs")
    args = parser.parse_args()
    # The opponents are named as --models lists them (run from the repository root).
    server = subprocess.Popen([args.quax, "serve", "--port", "0", "--models", "checkpoints"], stdout=subprocess.PIPE,
                              text=True)
    url = server.stdout.readline().split(": ", 1)[1].strip()
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    rng = random.Random(2)
    try:
        for variant, size, opponent, moves in BOARDS:
            driver.get(url)
            WebDriverWait(driver, 30).until(lambda d: len(Select(d.find_element(By.ID, "variant")).options) >= 13)
            Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
            Select(driver.find_element(By.ID, "size")).select_by_value(str(size))
            Select(driver.find_element(By.ID, "opponent")).select_by_value(opponent)
            Select(driver.find_element(By.ID, "human")).select_by_value("both" if opponent == "none" else "black")
            driver.find_element(By.ID, "new-game").click()
            idle(driver)
            wanted = list(PREFERRED.get(variant, []))
            for _ in range(moves):
                items = driver.find_elements(By.CSS_SELECTOR, "#board .legal[data-action]")
                if not items or driver.find_element(By.ID, "winner").text.strip():
                    break
                ply = driver.execute_script("return document.body.dataset.ply")
                by_label = {e.get_attribute("data-label"): e for e in items}
                while wanted and wanted[0] not in by_label:
                    wanted.pop(0)
                item = by_label[wanted.pop(0)] if wanted else rng.choice(items)
                hits = driver.find_elements(By.CSS_SELECTOR, '#board .hit[data-action="%s"]' % item.get_attribute("data-action"))
                (hits[0] if hits else item).click()
                WebDriverWait(driver, 120).until(lambda d: d.execute_script("return document.body.dataset.ply") != ply)
                idle(driver)
            if opponent != "none" and not driver.find_element(By.ID, "winner").text.strip():
                driver.find_element(By.ID, "analyze").click()
                try:
                    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return document.body.dataset.analysis") == "done")
                except Exception:
                    print("analysis:", driver.execute_script("return document.body.dataset.analysis"),
                          driver.find_element(By.ID, "message").text, driver.find_element(By.ID, "status").text)
                    raise
            path = Path(args.out) / ("board-%s.png" % variant)
            driver.save_screenshot(str(path))
            print("wrote", path)
    finally:
        driver.quit()
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
