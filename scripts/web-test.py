#!/usr/bin/env python3
"""The browser test of the play page (book/src/play/): headless Chromium, driven through
chromedriver's WebDriver protocol (plain HTTP and JSON, so only the standard library is needed),
clicks the page's own controls as a reader would and checks what the engine answers:

- the legal moves of the start position appear on the board, and a move is played by clicking;
- cb2026 replies, for a few moves;
- the same search twice counts the same nodes, a technique switched off counts other nodes, and
  switched on again the first count comes back; the engine of a stage of the book checks its
  switches and counts other nodes, and the full engine again counts the first;
- the search tree is drawn; a position set up from a FEN is shown with its legal moves;
- a game as Black turns the board and starts with cb2026's move; a take-back undoes a move pair;
- the network runs the code path the module was built for (SIMD128 by default, `--simd scalar`
  for a module built with `scripts/web-build --no-simd128`).

Run by scripts/web-test after scripts/web-build. `--screenshot FILE.png` saves the page;
`--bench N` then runs `bench` N times in a fresh worker of the page and prints each result's
nodes and nps (the browser's speed, for comparing builds).
"""

import argparse
import base64
import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # WebDriver's key for an element reference


class Failure(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(folder):
    """A static HTTP server for `folder` on a free port, in a thread (workers and WebAssembly
    modules are not loaded from file:// URLs)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".js": "text/javascript"}

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Browser:
    """One WebDriver session of headless Chromium."""

    def __init__(self, driver_url, profile):
        self.url = driver_url
        options = {
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update",
                     f"--user-data-dir={profile}", "--window-size=1280,1100"],
        }
        # Debian's browser itself: its launcher script, /usr/bin/chromium, keeps chromedriver
        # from reading the DevTools port ("Could not read in devtools port number").
        if os.path.exists("/usr/lib/chromium/chromium"):
            options["binary"] = "/usr/lib/chromium/chromium"
        answer = self.call("POST", "/session", {
            "capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})
        self.session = f"/session/{answer['sessionId']}"

    def call(self, method, path, body=None, timeout=120):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as e:
            raise Failure(f"WebDriver {method} {path}: {e.read().decode(errors='replace')}")

    def do(self, method, path, body=None, timeout=120):
        return self.call(method, self.session + path, body, timeout)

    def js(self, script, *args):
        return self.do("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        return self.do("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css):
        self.do("POST", f"/element/{self.find(css)}/click", {})

    def type(self, css, text):
        element = self.find(css)
        self.do("POST", f"/element/{element}/clear", {})
        self.do("POST", f"/element/{element}/value", {"text": text})

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.do("GET", "/screenshot")))

    def close(self):
        self.call("DELETE", self.session)


def wait_for(browser, what, expression, timeout=60):
    """Polls a JavaScript `expression` until it is true; a failed engine fails at once."""
    end = time.time() + timeout
    while time.time() < end:
        status = browser.js("const s = document.getElementById('status');"
                            "return [s.dataset.state, s.textContent];")
        if status[0] == "failed":
            raise Failure(f"the page failed while waiting for {what}: {status[1]}")
        value = browser.js(f"return ({expression});")
        if value:
            return value
        time.sleep(0.1)
    raise Failure(f"timed out after {timeout} s waiting for {what}")


# The reader's turn: the engine idle and movable pieces on the board.
IDLE = "document.getElementById('status').dataset.state === 'ready'"
READERS_TURN = f"{IDLE} && document.querySelectorAll('#board .movable').length > 0"


def squares(browser, css):
    return browser.js(f"return [...document.querySelectorAll('#board {css}')]"
                      ".map(e => e.dataset.square);")


def game_moves(browser):
    return browser.js("return document.getElementById('game-moves').textContent;").split()


def play(browser, origin, target, plies_after):
    """Clicks a move and waits for cb2026's reply (the game then has `plies_after` half-moves)."""
    browser.click(f"#board [data-square={origin}]")
    targets = squares(browser, ".target")
    if target not in targets:
        raise Failure(f"{origin}{target} is not offered: targets {targets}")
    browser.click(f"#board [data-square={target}]")
    wait_for(browser, f"cb2026's reply ({plies_after} half-moves)",
             f"document.getElementById('game-moves').textContent.trim().split(' ')"
             f".length === {plies_after} && {READERS_TURN}")


def analyse(browser):
    """Clicks Analyse (a fresh search) and returns the node count it shows."""
    browser.js("document.getElementById('nodes').textContent = '';")
    browser.click("#analyse")
    wait_for(browser, "the analysis", f"{IDLE} && document.getElementById('nodes')"
             ".textContent !== '' && document.getElementById('log').textContent"
             ".includes('bestmove')")
    return int(browser.js("return document.getElementById('nodes').textContent;"))


def check(condition, message):
    if not condition:
        raise Failure(message)
    print(f"ok: {message}")


def run(browser, page, screenshot, simd):
    browser.do("POST", "/url", {"url": page})
    wait_for(browser, "the engine to load and the reader's turn", READERS_TURN, timeout=120)
    shown = browser.js("return document.getElementById('simd').textContent;")
    check(shown == simd, f"the network's code path is {simd}: {shown}")

    movable = sorted(squares(browser, ".movable"))
    check(movable == sorted(["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "b1", "g1"]),
          f"the start position offers its 20 moves from 10 squares: {movable}")
    browser.click("#board [data-square=e2]")
    check(sorted(squares(browser, ".target")) == ["e3", "e4"], "e2 can go to e3 and e4")

    # A quick, repeatable limit for the rest.
    browser.click("#limit-kind option[value=depth]")
    browser.type("#limit-value", "5")

    play(browser, "e2", "e4", 2)
    fen = browser.js("return document.getElementById('board').dataset.fen;")
    check(fen.split()[1] == "w" and "4P3" in fen.split()[0], f"e4 played and answered: {fen}")
    for plies in (4, 6):
        origin = squares(browser, ".movable")[0]
        browser.click(f"#board [data-square={origin}]")
        target = squares(browser, ".target")[0]
        play(browser, origin, target, plies)
    check(len(game_moves(browser)) == 6, f"three moves each: {' '.join(game_moves(browser))}")
    log = browser.js("return document.getElementById('log').textContent;")
    check("info depth 5" in log and "bestmove" in log, "the engine's info lines are shown")

    first = analyse(browser)
    check(analyse(browser) == first, f"the same search twice: {first} nodes both times")
    stats_on = browser.js("return document.getElementById('stats').textContent;")
    browser.click("input[data-technique=null_move]")
    wait_for(browser, "the switch", "document.getElementById('log').textContent"
             ".includes('null_move = off')")
    without = analyse(browser)
    stats_off = browser.js("return document.getElementById('stats').textContent;")
    check(without != first, f"null move off changes the count: {first} -> {without} nodes")
    check(stats_on != stats_off and stats_off.strip(), "and the stats")
    browser.click("input[data-technique=null_move]")
    check(analyse(browser) == first, "switched on again, the first count comes back")

    browser.click("#stage option[value='12']")
    wait_for(browser, "the stage", "document.getElementById('log').textContent"
             ".includes('stage = 12')")
    boxes = browser.js("return [...document.querySelectorAll('#techniques input')]"
                       ".filter((c) => c.checked).map((c) => c.dataset.technique);")
    check("null_move" in boxes and "lmr" not in boxes and "nnue" not in boxes,
          f"stage 12 checks its switches, null move but not LMR nor the network: {boxes}")
    twelve = analyse(browser)
    check(twelve != first, f"the engine of stage 12 counts other nodes: {first} -> {twelve}")
    browser.click("#stage option[value='full']")
    wait_for(browser, "the full engine", "document.getElementById('log').textContent"
             ".includes('stage = full')")
    check(analyse(browser) == first, "the full engine again, the first count comes back")

    browser.click("#draw-tree")
    nodes = wait_for(browser, "the search tree",
                     "document.querySelectorAll('#tree svg g, #tree svg rect').length")
    check(nodes > 0, f"the search tree is drawn ({nodes} shapes)")
    wait_for(browser, "the engine after the tree", READERS_TURN)
    if screenshot:
        browser.screenshot(screenshot)
        print(f"screenshot: {screenshot}")

    fen = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"
    browser.type("#fen", fen)
    browser.click("#setup")
    wait_for(browser, "the position set up", "document.getElementById('board')"
             f".dataset.fen === '{fen}' && {READERS_TURN}")
    check(sorted(squares(browser, ".movable")) == ["e1", "e2"], "the FEN's position and its moves")

    browser.click("#new-black")
    wait_for(browser, "cb2026's first move as White",
             f"document.getElementById('game-moves').textContent.trim().split(' ').length === 1"
             f" && {READERS_TURN}")
    corner = browser.js("return document.querySelector('#board .sq').dataset.square;")
    check(corner == "h1", f"playing Black, the board is turned: {corner} at the top left")
    origin = squares(browser, ".movable")[0]
    browser.click(f"#board [data-square={origin}]")
    play(browser, origin, squares(browser, ".target")[0], 3)
    browser.click("#undo")
    wait_for(browser, "the take-back",
             f"document.getElementById('game-moves').textContent.trim().split(' ').length === 1"
             f" && {READERS_TURN}")
    check(len(game_moves(browser)) == 1, "a take-back returns to the reader's previous turn")


# A fresh worker of the page's own (worker.js), which runs one `bench` and hands back its output.
BENCH = """
const [line, done] = arguments;
const worker = new Worker('./worker.js', { type: 'module' });
worker.onmessage = (event) => {
  const m = event.data;
  if (m.type === 'ready') worker.postMessage({ id: 0, line, stream: false });
  else if (m.type === 'failed') done('failed: ' + m.error);
  else if (m.type === 'done') { worker.terminate(); done(m.error ? 'failed: ' + m.error : m.output); }
};
"""


def bench(browser, runs):
    """`bench` (depth 13, as natively) `runs` times, each in a fresh worker: its total line."""
    limit = 900
    browser.do("POST", "/timeouts", {"script": limit * 1000})
    for i in range(runs):
        output = browser.do("POST", "/execute/async", {"script": BENCH, "args": ["bench"]},
                            timeout=limit + 30)
        last = output.strip().splitlines()[-1] if output.strip() else output
        if output.startswith("failed") or not last.endswith(" nps"):
            raise Failure(f"bench in the browser: {last}")
        print(f"bench {i + 1}/{runs} in Chromium: {last}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screenshot", help="save a PNG of the page here")
    parser.add_argument("--chromedriver", default="chromedriver")
    parser.add_argument("--simd", default="SIMD128",
                        help="the network's code path the module must report (SIMD128, scalar)")
    parser.add_argument("--bench", type=int, default=0, metavar="N",
                        help="after the test, run bench N times in the browser and print nps")
    args = parser.parse_args()

    folder = os.path.join(ROOT, "book", "src")
    if not os.path.exists(os.path.join(folder, "play", "pkg", "web_bg.wasm")):
        sys.exit("web-test: book/src/play/pkg is missing: run scripts/web-build first")
    server = serve(folder)
    page = f"http://127.0.0.1:{server.server_address[1]}/play/index.html"
    port = free_port()
    # A fresh profile each run: one left by a killed browser can keep the next from starting.
    profile = tempfile.mkdtemp(prefix="cb2026-web-test-")
    driver = subprocess.Popen([args.chromedriver, f"--port={port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    browser = None
    try:
        driver_url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(driver_url + "/status", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        browser = Browser(driver_url, profile)
        run(browser, page, args.screenshot, args.simd)
        print("web-test: passed")
        bench(browser, args.bench)
    except Failure as e:
        sys.exit(f"web-test: FAILED: {e}")
    finally:
        if browser:
            browser.close()
        driver.terminate()
        driver.wait()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
