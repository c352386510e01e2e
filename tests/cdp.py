"""A small Chrome DevTools Protocol client over --remote-debugging-pipe (Python stdlib only).

Starts headless Chromium with a fresh profile, opens one page, and offers what a browser test
needs: evaluate JavaScript (awaiting promises), real mouse clicks, drags and key presses
(Input.dispatch*), files into an <input type=file>, screenshots; and it records what must never
happen on a loyd page: uncaught exceptions (in the page and in its workers), console errors,
Content-Security-Policy refusals and network requests other than the page itself.

The pipe: Chromium reads commands on its fd 3 and writes replies on its fd 4, each message one
JSON text ended by a NUL byte.
"""
import base64
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_browser(explicit=None):
    for cand in [explicit, os.environ.get("LOYD_CHROMIUM")] + list(BROWSERS):
        if cand and (shutil.which(cand) or os.access(cand, os.X_OK)):
            return shutil.which(cand) or cand
    return None


class CdpError(RuntimeError):
    pass


class Browser:
    def __init__(self, browser, width=1200, height=900):
        self.profile = tempfile.mkdtemp(prefix="loyd-cdp-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def child_fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
               "--force-device-scale-factor=1", "--remote-debugging-pipe",
               "--window-size=%d,%d" % (width, height), "--user-data-dir=" + self.profile, "about:blank"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=child_fds, pass_fds=(3, 4),
                                     start_new_session=True)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buf = b""
        self.next_id = 1
        self.events = []
        self.session = None
        self.problems = []      # exceptions, console errors, CSP refusals, requests
        self.page_url = None

    # -- transport
    def _send(self, method, params=None, session=None):
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.next_id += 1
        os.write(self.to_browser, json.dumps(msg).encode() + b"\0")
        return msg["id"]

    def _read(self, timeout):
        end = time.time() + timeout
        while b"\0" not in self.buf:
            left = end - time.time()
            if left <= 0:
                raise CdpError("no message from the browser in %.0f s" % timeout)
            r, _, _ = select.select([self.from_browser], [], [], left)
            if r:
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise CdpError("the browser closed the pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def _event(self, m):
        method, p = m.get("method"), m.get("params", {})
        if method == "Target.attachedToTarget":
            sid = p["sessionId"]
            self._send("Runtime.enable", session=sid)
            self._send("Runtime.runIfWaitingForDebugger", session=sid)
        elif method == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            text = d.get("exception", {}).get("description") or d.get("text")
            self.problems.append("uncaught exception: %s" % text)
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            self.problems.append("console error: %s" % args)
        elif method == "Log.entryAdded":
            e = p["entry"]
            if e.get("level") == "error" or "Content Security Policy" in e.get("text", ""):
                self.problems.append("browser log: %s %s" % (e.get("source"), e.get("text")))
        elif method == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if url.split("#")[0] != self.page_url.split("#")[0] and not url.startswith("blob:"):
                self.problems.append("network request: %s" % url[:120])
        self.events.append(m)

    def cmd(self, method, params=None, session=None, timeout=60):
        wanted = self._send(method, params, self.session if session is None else session or None)
        while True:
            m = self._read(timeout)
            if m.get("id") == wanted:
                if "error" in m:
                    raise CdpError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            if "method" in m:
                self._event(m)

    def pump(self, seconds):
        end = time.time() + seconds
        while time.time() < end:
            try:
                m = self._read(max(0.01, end - time.time()))
            except CdpError as e:
                if "no message" in str(e):
                    return
                raise
            if "method" in m:
                self._event(m)

    # -- the page
    def open(self, url):
        target = self.cmd("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.cmd("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network", "DOM"):
            self.cmd(domain + ".enable")
        self.cmd("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True})
        self.cmd("Page.addScriptToEvaluateOnNewDocument", {"source":
            "window.__loydProblems=[];document.addEventListener('securitypolicyviolation',function(e){"
            "window.__loydProblems.push('blocked by the page policy: '+e.violatedDirective+' '+e.blockedURI)});"})
        self.page_url = url
        self.cmd("Page.navigate", {"url": url})

    def js(self, expression, timeout=120):
        """The value of `expression` (a promise is awaited); raises on a JavaScript error."""
        r = self.cmd("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True,
                                          "timeout": int(timeout * 1000)}, timeout=timeout + 5)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CdpError("in the page: " + (d.get("exception", {}).get("description") or d.get("text", "?")))
        return r["result"].get("value")

    def wait_for(self, expression, timeout=60, what=None):
        end = time.time() + timeout
        while time.time() < end:
            if self.js(expression):
                return True
            self.pump(0.05)
        raise CdpError("timed out (%d s) waiting for %s" % (timeout, what or expression))

    def click_at(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def click(self, selector):
        box = self.js("(function(){var e=document.querySelector(%s);if(!e)return null;e.scrollIntoView({block:'center'});"
                      "var r=e.getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()" % json.dumps(selector))
        if not box:
            raise CdpError("nothing matches %s" % selector)
        self.click_at(box[0], box[1])

    def drag(self, x0, y0, x1, y1, steps=6):
        self.cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y0})
        self.cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y0, "button": "left", "clickCount": 1})
        for i in range(1, steps + 1):
            self.cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0 + (x1 - x0) * i / steps,
                                                  "y": y0 + (y1 - y0) * i / steps, "button": "left", "buttons": 1})
        self.cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x1, "y": y1, "button": "left", "clickCount": 1})

    KEYS = {"ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "Escape": 27, "Enter": 13, "Tab": 9, " ": 32}

    def key(self, key):
        code = self.KEYS.get(key, ord(key.upper()) if len(key) == 1 else 0)
        base = {"key": key, "code": key if len(key) > 1 else "Key" + key.upper(), "windowsVirtualKeyCode": code}
        self.cmd("Input.dispatchKeyEvent", dict(base, type="rawKeyDown"))
        if len(key) == 1 or key == "Enter":
            self.cmd("Input.dispatchKeyEvent", dict(base, type="char", text="\r" if key == "Enter" else key))
        self.cmd("Input.dispatchKeyEvent", dict(base, type="keyUp"))

    def set_files(self, selector, paths):
        obj = self.cmd("Runtime.evaluate", {"expression": "document.querySelector(%s)" % json.dumps(selector)})
        self.cmd("DOM.setFileInputFiles", {"files": [os.path.abspath(p) for p in paths],
                                           "objectId": obj["result"]["objectId"]})

    def screenshot(self, path):
        data = self.cmd("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def page_problems(self):
        self.pump(0.2)
        try:
            extra = self.js("window.__loydProblems || []")
        except CdpError:
            extra = []
        return self.problems + extra

    def close(self):
        try:
            self._send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        for fd in (self.to_browser, self.from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)
