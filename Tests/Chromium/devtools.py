"""Headless Chromium driven through the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in, fd 4 out,
messages ended by a NUL byte), with the standard library only: Debian's Python has no websocket module, and a pipe
needs none. One browser start serves every page of a check; a start is most of the time of a page loaded once.

Used by Tests/ServerCheck (a served form, posted), Tests/AccessibilityCheck (axe-core on every page) and
scripts/gallery (the example forms' pictures).
"""
import base64, json, os, select, subprocess, time


class Browser:
    def __init__(self, browser, profile, log, window="900,1400"):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():
            # Moved out of the way first: either may be 3 or 4 already.
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.process = subprocess.Popen(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
             "--no-first-run", "--allow-file-access-from-files", "--remote-debugging-pipe", "--user-data-dir=" + profile,
             "--window-size=" + window, "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=open(log, "w"))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ["Page", "Runtime", "Network"]:
            self.call(domain + ".enable", session=True)

    def read(self, timeout=30):
        # Bounded: a page whose promise never settles (timers do not run with JavaScript off) must fail the check,
        # not hang it.
        deadline = time.time() + timeout
        while b"\0" not in self.buffer:
            ready, _, _ = select.select([self.from_chrome], [], [], max(0, deadline - time.time()))
            if not ready:
                raise TimeoutError("chromium sent nothing for %d s" % timeout)
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read(timeout)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def evaluate(self, expression, timeout=30):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                           True, timeout)
        if "exceptionDetails" in result:
            raise RuntimeError("script failed: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def wait_for_load(self, timeout=15):
        deadline = time.time() + timeout
        seen = 0
        while time.time() < deadline:
            for event in self.events[seen:]:
                if event.get("method") == "Page.loadEventFired":
                    event["method"] = "Page.loadEventFired (seen)"
                    return True
            seen = len(self.events)
            try:
                self.events.append(self.read(timeout=max(0.1, deadline - time.time())))
            except TimeoutError:
                return False
        return False

    def navigate(self, url):
        self.events.clear()
        self.call("Page.navigate", {"url": url}, True)
        return self.wait_for_load()

    def last_status(self, path_part):
        for event in reversed(self.events):
            if event.get("method") == "Network.responseReceived":
                response = event["params"]["response"]
                if path_part in response["url"]:
                    return response["status"]
        return None

    def resize(self, width, height):
        """The viewport as a window of that size would give it, laid out and painted before this returns."""
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, True)
        self.evaluate("new Promise(function (done) { requestAnimationFrame(function () { requestAnimationFrame(done); }); })")

    def screenshot(self, path):
        """A PNG of the viewport, as --screenshot writes it."""
        data = self.call("Page.captureScreenshot", {"format": "png"}, True, timeout=60)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
