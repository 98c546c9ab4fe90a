"""Simulations per second of the static page (scripts/build_site.sh; the engine in WebAssembly,
the network in ONNX Runtime Web, headless Chromium) against the native engine (the Python
module: the same C++ search, LibTorch), same model, same simulations, same positions, no noise.
Also the time of one move at the page's default level (the model's level 10).

    scripts/build_site.sh build/site hex-11 quax-11
    PYTHONPATH=build/python /usr/bin/python3 bench/site_speed.py build/site [--sims 200] [--positions 4]

Prints one line per game and side: positions, simulations, seconds, simulations per second.
The host is a plain static server (no COOP/COEP headers): the page's service worker adds them,
so ONNX Runtime runs on min(4, cores) threads; --one-thread measures it on one. The native side
is measured at 1 LibTorch thread and at the default, in its default number format (`auto`: bf16
on CPUs with AVX-512 BF16 or AMX where it is faster) and in fp32; the page in both of its network formats (int8
convolutions and fp32), with how often the two choose the same move."""
import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import time

import quax
from selenium import webdriver
from selenium.common.exceptions import JavascriptException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions(variant, count, seed):
    rng = random.Random(seed)
    out = []  # positions after 4 to 23 random moves (a replayed record is never empty)
    while len(out) < count:
        g = quax.Game(variant, 11, False)
        for _ in range(rng.randrange(4, 24)):
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_over:
            out.append(g)
    return out


def native(model, games, sims, threads, precision="auto"):
    code = f"""
import time, quax, random, json, sys
quax.set_threads({threads})
search = quax.Search(quax.load_model({model!r}, precision={precision!r}), simulations={sims})
records = json.loads(sys.argv[1])
games = [quax.Game.from_record({games[0].variant!r}, r, 11, False) for r in records]
search.best_action(games[0])  # warm-up
start = time.perf_counter()
for g in games:
    search.best_action(g)
print(time.perf_counter() - start)
"""
    import json
    out = subprocess.run([sys.executable, "-c", code, json.dumps([g.record() for g in games])], capture_output=True,
                         text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("site")
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--one-thread", action="store_true", help="ONNX Runtime on one thread")
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=args.site,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_script_timeout(600)
    try:
        time.sleep(0.5)
        driver.get(f"http://127.0.0.1:{port}/")
        # The first visit reloads once under the service worker (cross-origin isolation): the
        # catalogue of the page after it.
        WebDriverWait(driver, 60, ignored_exceptions=(JavascriptException,)).until(
            lambda d: d.execute_script("return document.body.dataset.busy === '0' && self.crossOriginIsolated"))
        if args.one_thread:
            driver.execute_script("ort.env.wasm.numThreads = 1")  # before the first model loads
        print("cross-origin isolated:", driver.execute_script("return self.crossOriginIsolated"),
              "; ONNX Runtime threads:", driver.execute_script("return ort.env.wasm.numThreads"))
        for variant, model in (("hex", "hex-11"), ("quax", "quax-11")):
            games = positions(variant, args.positions, 28)
            run = ("const done = arguments[arguments.length - 1];"
                   "(async () => { let sims = 0, seconds = 0; const actions = [];"
                   " for (const r of arguments[0]) {"
                   "  const v = await QuaxBackend.request('POST', '/api/replay', {variant: arguments[1], size: 11, swap: false, record: r});"
                   "  const m = await QuaxBackend.playerMove(Number(v.id), arguments[2], arguments[3]);"
                   "  if (arguments[4]) { sims += m.simulations; seconds += m.seconds; actions.push(m.action); } }"
                   " return {sims, seconds, actions}; })().then(done, (e) => done({error: e.message}));")
            page = {}
            for number_format in ("int8", "fp32"):
                driver.execute_script("QuaxBackend.setNetwork(arguments[0])", number_format)
                driver.execute_async_script(run, [games[0].record()], variant, model + ".pt", args.sims, False)  # warm-up
                page[number_format] = driver.execute_async_script(run, [g.record() for g in games], variant,
                                                                  model + ".pt", args.sims, True)
                assert "error" not in page[number_format], page[number_format]
            path = os.path.join(ROOT, "checkpoints", model + ".pt")
            one = native(path, games, args.sims, 1)
            default = native(path, games, args.sims, os.cpu_count() or 1)
            fp32 = native(path, games, args.sims, 1, "fp32")
            total = args.sims * len(games)
            print(f"{variant} 11, {model}.pt, {len(games)} positions x {args.sims} simulations:")
            rate = {f: page[f]["sims"] / page[f]["seconds"] for f in page}
            for f in page:
                print(f"  page, {f} network: {page[f]['seconds']:.2f} s, "
                      f"{rate[f]:.0f} sims/s ({page[f]['seconds'] / len(games):.2f} s a move)")
            print(f"  native, 1 thread : {one:.2f} s, {total / one:.0f} sims/s")
            print(f"  native, {os.cpu_count()} threads: {default:.2f} s, {total / default:.0f} sims/s")
            print(f"  native, 1 thread, fp32: {fp32:.2f} s, {total / fp32:.0f} sims/s")
            for f in page:
                print(f"  page {f} / native (1 thread): {rate[f] / (total / one):.2f}; "
                      f"page {f} / native fp32 (1 thread): {rate[f] / (total / fp32):.2f}")
            same = sum(a == b for a, b in zip(page["int8"]["actions"], page["fp32"]["actions"]))
            print(f"  the int8 page's move is the fp32 page's in {same} of {len(games)} positions")
    finally:
        driver.quit()
        server.terminate()


if __name__ == "__main__":
    main()
