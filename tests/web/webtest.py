"""The browser side of the web tests: `halma web` processes on real daemons, headless Chromium
pages driven by Selenium, and waits that end on what the page says it has drawn (the body's
data-seq and data-position, set once a view is drawn), never on a fixed time."""
import os
import re
import shutil
import subprocess
import sys

from halmatest import HALMA, Failure, LOOPBACK, _die_with_parent, check, wait_until
from halma.v1 import api_pb2

SKIP = 77  # ctest's SKIP_RETURN_CODE: no browser here is "not run", never "passed"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
PHONE = (390, 844)
DESKTOP = (1280, 900)


def need_browser():
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("skipped: python3-selenium is not installed (scripts/install-deps.sh test)")
        sys.exit(SKIP)
    if not os.path.exists(CHROMEDRIVER) or not (shutil.which("chromium") or shutil.which("chromium-browser")):
        print("skipped: chromium and chromium-driver are not installed (scripts/install-deps.sh test)")
        sys.exit(SKIP)


class Web:
    """`halma web --no-open` on one daemon; url is what it printed, token in it."""

    def __init__(self, daemon, extra=()):
        self.proc = subprocess.Popen([HALMA, "--runtime-dir", daemon.runtime_dir, "web", "--no-open", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=_die_with_parent)
        line = self.proc.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+))", line)
        check(found, f"halma web printed no address: {line!r} {self.proc.stderr.read() if self.proc.poll() is not None else ''}")
        self.url, self.port, self.token = found.group(1), int(found.group(2)), found.group(3)
        self.origin = f"http://{LOOPBACK}:{self.port}"

    @classmethod
    def on_port(cls, daemon, port):
        return cls(daemon, ("--port", str(port)))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Page:
    """One headless Chromium window on a Web's page."""

    def __init__(self, web, size=DESKTOP):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    f"--window-size={size[0]},{size[1]}"):
            options.add_argument(arg)
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.opened_url = web.url
        self.driver.get(web.url)
        self.wait(lambda: self.js("return document.getElementById('light-connection').dataset.state") == "green",
                  "the page to see its daemon")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, predicate, what, timeout=20):
        # The page redraws the board as events arrive: an element found a moment ago may have
        # been replaced before it is read. That is "not yet", not a failure: look again.
        from selenium.common.exceptions import StaleElementReferenceException

        def settled():
            try:
                return predicate()
            except StaleElementReferenceException:
                return None
        try:
            return wait_until(settled, timeout, what)
        except Failure as failure:
            raise Failure(f"{failure}; the page's console: {self.console()}") from None

    def console(self):
        """What the page logged (errors, warnings), for the message of a failed wait."""
        try:
            return [entry["message"] for entry in self.driver.get_log("browser")][-10:]
        except Exception as e:  # a driver without logs must not hide the real failure
            return [f"(no console: {e})"]

    def el(self, css):
        return self.driver.find_element("css selector", css)

    # Reads go through one script each, never through an element found before: the page redraws
    # the board and panels on every event, so a found element may be gone by the time it is read.
    def text(self, css):
        """The text shown in `css` ('' when there is none)."""
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", css)

    def attr(self, css, name):
        """Attribute `name` of `css`, or None."""
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null",
                       css, name)

    def centre(self, css):
        """The centre (x, y) of `css` on the screen, in CSS pixels."""
        r = self.js("return document.querySelector(arguments[0]).getBoundingClientRect().toJSON()", css)
        return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2

    def click(self, css):
        """Clicks the element `css` as a person would. The page redraws parts of itself on each
        event, so an element found just before may be gone, or a moving marble may lie on it for
        a moment: both are "not yet", tried again until the wait's bound."""
        from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException

        def attempt():
            try:
                self.el(css).click()
                return True
            except (StaleElementReferenceException, ElementClickInterceptedException):
                return None
        self.wait(attempt, f"{css} to take a click")

    def answer_dialog(self, accept=True, timeout=10):
        """Waits (bounded) for the page's confirm() dialog, answers it, returns its question."""
        from selenium.common.exceptions import NoAlertPresentException

        def dialog():
            try:
                return self.driver.switch_to.alert
            except NoAlertPresentException:
                return None
        alert = wait_until(dialog, timeout, "the page to ask")
        question = alert.text
        alert.accept() if accept else alert.dismiss()
        return question

    def click_hole(self, index):
        # The transparent finger-sized circle on top takes the click, as a person's would.
        return self.click(f'[data-hole="{index}"]')

    def drawn(self):
        return self.js("return [document.body.dataset.seq || '', document.body.dataset.position || '']")

    def board_cells(self):
        """The set drawn on each hole, 0..120 ('' for none), read from the SVG."""
        return self.js("return Array.from(document.querySelectorAll('#board [data-hole]'), g => "
                       "g.querySelector('.marble') ? g.dataset.set : '')")

    def count_requests(self):
        """From now on the page notes each request it sends to halma web, as [url, body];
        requests_sent() reads them. The page's modules call the global fetch at each request, so
        wrapping it here sees them all."""
        self.js("window.requestsSent = []; const send = window.fetch; window.fetch = (url, options) => {"
                " window.requestsSent.push([String(url), (options && options.body) || '']);"
                " return send(url, options); }")

    def requests_sent(self):
        return self.js("return window.requestsSent")

    def resize(self, size):
        self.driver.set_window_size(*size)

    def close(self):
        self.driver.quit()


def game_of_two(host, guest, name):
    """`host` hosts a two-player room `name`, `guest` joins it by address; returns the room's id
    once the game has started on the guest's side."""
    host.api().ok(host=api_pb2.HostRequest(name=name))
    guest.api().ok(join=api_pb2.JoinRequest(address=host.address, room=name))
    room = host.api().view(name).summary.room_id
    wait_until(lambda: guest.api().view(room).game_number == 1, 10, f"the game to start on {guest.name}'s side")
    return room


def cells_of(position):
    """The same as board_cells, from the daemon's position notation."""
    return ["" if c == "." else "x" if c == "x" else str(int(c) - 1)
            for c in position.split(" ")[0].replace("/", "")]


def wait_in_step(page, api, room, what):
    """Waits until the page has drawn the daemon's current view of the room; returns that view."""
    def same():
        view = api.view(room)
        return view if page.drawn() == [str(view.seq), view.position] else None
    return page.wait(same, what)


def holes_of(move):
    """The first and last holes (0..120) of a move such as "o1-m7"."""
    rows = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    def index(name):
        row = ord(name[0]) - ord("a")
        return sum(rows[:row]) + int(name[1:]) - 1
    a, b = move.split("-")[0], move.split("-")[-1]
    return index(a), index(b)


def click_move(page, move):
    """Plays `move` ("from-to") by clicking its marble, checking the target lights up, then it."""
    a, b = holes_of(move)
    page.click_hole(a)
    page.wait(lambda: "target" in page.attr(f'[data-hole="{b}"]', "class"),
              f"{move}'s target to be highlighted")
    # Every target in the target colour (the standard palette's), also inside a tinted triangle.
    fills = page.js("return Array.from(document.querySelectorAll('#board .hole.target circle.spot'), "
                    "c => getComputedStyle(c).fill + ' ' + getComputedStyle(c).fillOpacity)")
    check(set(fills) == {"rgb(10, 108, 255) 1"}, f"targets drawn in other colours: {fills}")
    page.click_hole(b)
