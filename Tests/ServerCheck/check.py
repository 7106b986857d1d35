"""The web runtime in headless Chromium (docs/server.md, "Tests").

1. Round trip, for every example form with values cases (Tests/Fixtures/values): each case that `formwork validate`
   accepts is put in the page (GET /forms/ID with the values as the page's own names), the browser submits the page
   as it is — its own constraint validation included — with JavaScript on and off, and the values the server stores
   must be exactly those the JSON API stores for the same case.
2. A refused submission, JavaScript on and off: 422, the error summary focused, each link's target on the page,
   aria-invalid on the fields; a screenshot in artifacts/server; axe-core clean on the refused page.
3. /openapi.json valid by the OpenAPI 3.1 schema (Tests/ServerCheck/openapi-3.1.schema.json, the OpenAPI
   Initiative's), each component schema valid JSON Schema 2020-12, by python jsonschema.
"""
import glob, json, os, re, shutil, subprocess, sys, tempfile, time, urllib.parse, urllib.request

browser, work, axe_path = sys.argv[1:4]
root = os.getcwd()
formwork = os.path.join(root, ".build/debug/formwork")
packs = os.path.join(root, ".build/debug")
os.makedirs("artifacts/server", exist_ok=True)
failures = []
passed = 0


def ok(what):
    global passed
    passed += 1
    print("ok    " + what)


def fail(what):
    failures.append(what)
    print("FAIL  " + what)


# --- the server ------------------------------------------------------------------------------------------------
forms = os.path.join(work, "forms")
shutil.copytree("Examples/Forms", forms)
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
server = subprocess.Popen([formwork, "serve", forms, "--port", "0", "--pack-path", packs, "--log-level", "warning"],
                          stdout=subprocess.PIPE, stderr=open(os.path.join(work, "server.log"), "w"), env=env)
line = server.stdout.readline().decode()
m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
if not m:
    print("server-check: formwork serve did not start: " + line + open(os.path.join(work, "server.log")).read())
    sys.exit(1)
base = "http://127.0.0.1:" + m.group(1)
# The server never outlives the check, whatever ends it.
import atexit
atexit.register(lambda: server.poll() is None and server.kill())


def http(method, path, body=None, headers=None):
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def stored(form):
    out = subprocess.run([formwork, "submissions", "export", form, "--forms", forms, "--format", "jsonl"],
                         capture_output=True, text=True, env=env)
    return [json.loads(l) for l in out.stdout.splitlines() if l.strip()]


# --- Chromium through the DevTools protocol on a pipe (Tests/Chromium/devtools.py) ------------------------------
sys.path.insert(0, os.path.join(root, "Tests/Chromium"))
from devtools import Browser  # noqa: E402


def submit(chrome, validate=True):
    """Submits the page's form as a click on its submit button would; returns once the next page has loaded."""
    chrome.events.clear()
    started = chrome.evaluate(
        "(function(){var f=document.querySelector('form.fw-form'); if(!f) return 'no form';"
        + ("" if validate else "f.noValidate=true;")
        + "if(!f.checkValidity() && !f.noValidate){var bad=f.querySelector(':invalid');"
        "return 'the browser refuses: '+(bad?bad.name+': '+bad.validationMessage:'?');}"
        "f.requestSubmit(); return 'sent';})()")
    if started != "sent":
        return started
    chrome.wait_for_load()
    return "sent"


def page_names(values):
    """A values-file object as the names of a link that prefills the page (a link prefills what it names: an unticked
    box is named false, or a default-on toggle would stay on)."""
    pairs = []
    for key, value in values.items():
        if value is None:
            continue
        if value is False:
            pairs.append((key, "false"))
            continue
        if isinstance(value, list) and value and isinstance(value[0], dict):
            for i, item in enumerate(value):
                for name, v in item.items():
                    if v is not None and v is not False:
                        pairs.append(("%s/%d/%s" % (key, i, name), "true" if v is True else str(v)))
        elif isinstance(value, dict):
            # An object's fields are named object.id on the page.
            for name, v in value.items():
                if v is not None and v is not False:
                    pairs.append(("%s.%s" % (key, name), "true" if v is True else str(v)))
        elif isinstance(value, list):
            pairs += [(key, str(v).lower() if isinstance(v, bool) else str(v)) for v in value]
        else:
            pairs.append((key, "true" if value is True else str(value)))
    return pairs


def normalized(values):
    """Values as compared: no nulls, no false toggles (a page does not send an unticked box; the server reads it as false)."""
    if isinstance(values, dict):
        return {k: normalized(v) for k, v in values.items() if v is not None and v is not False}
    if isinstance(values, list):
        return [normalized(v) for v in values]
    return values


chrome = Browser(browser, os.path.join(work, "profile"), os.path.join(work, "chromium.log"))
try:
    # --- 1. round trip ---------------------------------------------------------------------------------------
    for cases_path in sorted(glob.glob("Tests/Fixtures/values/*.cases.json")):
        form = os.path.basename(cases_path)[: -len(".cases.json")]
        document = os.path.join(forms, form + ".yaml")
        for case in json.load(open(cases_path)):
            values_file = os.path.join(work, "case.json")
            json.dump(case["values"], open(values_file, "w"))
            verdict = subprocess.run([formwork, "validate", document, "--values", values_file, "--pack-path", packs],
                                     capture_output=True, text=True, env=env)
            if verdict.returncode != 0 or not isinstance(case["values"], dict):
                continue
            status, headers, _ = http("POST", "/api/forms/%s/submissions" % form, json.dumps(case["values"]).encode(),
                                      {"Content-Type": "application/json"})
            if status != 201:
                fail("%s / %s: the JSON API answered %d to values validate accepts" % (form, case["name"], status))
                continue
            expected = normalized(stored(form)[-1]["values"])
            secure = {k: v for k, v in case["values"].items() if k in ("password", "confirm", "pin")}
            for scripts in (True, False):
                chrome.call("Emulation.setScriptExecutionDisabled", {"value": not scripts}, True)
                query = urllib.parse.urlencode([(k, v) for k, v in page_names(case["values"]) if k not in secure])
                chrome.navigate(base + "/forms/%s?%s" % (form, query))
                # Secure values are never written into a page: typed, as a user does.
                for name, value in secure.items():
                    chrome.evaluate("document.querySelector('[name=%s]').value=%s" % (json.dumps(name), json.dumps(value)))
                before = len(stored(form))
                outcome = submit(chrome)
                where = chrome.evaluate("location.pathname")
                label = "%s / %s, JavaScript %s" % (form, case["name"], "on" if scripts else "off")
                if outcome != "sent":
                    fail("%s: %s" % (label, outcome))
                    continue
                rows = stored(form)
                if "/submitted/" not in where or len(rows) != before + 1:
                    summary = chrome.evaluate("(document.querySelector('.fw-error-summary')||{}).innerText||document.title")
                    fail("%s: not stored (page %s: %s)" % (label, where, " ".join(str(summary).split())))
                    continue
                got = normalized(rows[-1]["values"])
                if got != expected:
                    fail("%s: the server stored %s, the JSON API %s" % (label, json.dumps(got), json.dumps(expected)))
                else:
                    ok("%s: the browser's post stores exactly the values" % label)

    # --- 2. a refused submission --------------------------------------------------------------------------------
    axe = open(axe_path).read()
    for scripts in (True, False):
        label = "refused signup, JavaScript %s" % ("on" if scripts else "off")
        chrome.call("Emulation.setScriptExecutionDisabled", {"value": not scripts}, True)
        chrome.navigate(base + "/forms/signup?" + urllib.parse.urlencode([("name", "A"), ("email", "ada.example.com"), ("age", "16")]))
        submit(chrome, validate=False)
        status = chrome.last_status("/forms/signup")
        # Chromium applies `autofocus` in a rendering step after the load event: wait for it (at most 2 s), polled from
        # here (a page's timers do not run with JavaScript off, so a promise polling with setTimeout never settles).
        t0 = time.time()
        while time.time() - t0 < 2 and not chrome.evaluate(
                "(function(){var s=document.querySelector('.fw-error-summary'); return !s || document.activeElement===s;})()"):
            time.sleep(0.02)
        report = chrome.evaluate(
            "(function(){var s=document.querySelector('.fw-error-summary'); if(!s) return {summary:false};"
            "var links=Array.prototype.map.call(s.querySelectorAll('a'), function(a){return a.getAttribute('href');});"
            "return {summary:true, focused: document.activeElement===s, links: links,"
            "targets: links.every(function(h){return !!document.getElementById(h.slice(1));}),"
            "invalid: document.querySelectorAll('[aria-invalid=true]').length,"
            "kept: document.getElementById('name').value};})()")
        checks = [
            (status == 422, "status %s" % status),
            (report.get("summary"), "no error summary"),
            (report.get("focused"), "the summary does not have the focus"),
            (len(report.get("links", [])) == 3 and report.get("targets"), "links %s" % report.get("links")),
            (report.get("invalid", 0) >= 3, "aria-invalid on %s controls" % report.get("invalid")),
            (report.get("kept") == "A", "the answer was not kept"),
        ]
        bad = [why for good, why in checks if not good]
        if bad:
            fail("%s: %s" % (label, "; ".join(bad)))
        else:
            ok("%s: 422, focused summary linking 3 fields, aria-invalid, answers kept" % label)
        shot = chrome.call("Page.captureScreenshot", {"format": "png"}, True)
        import base64
        open("artifacts/server/refused-js-%s.png" % ("on" if scripts else "off"), "wb").write(base64.b64decode(shot["data"]))
        if scripts:
            chrome.evaluate(axe)
            violations = chrome.evaluate(
                "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a','wcag2aa','wcag21a','wcag21aa','best-practice']}})"
                ".then(function(r){return r.violations.map(function(v){return v.id+': '+v.nodes.map(function(n){return n.target.join(' ');}).join(', ');});})")
            if violations:
                fail("axe-core on the refused page: " + "; ".join(violations))
            else:
                ok("axe-core: no violation on the refused page")

    # --- 2b. save and continue later: the real button, required fields empty, a password typed ----------------
    for scripts in (True, False):
        label = "draft of register, JavaScript %s" % ("on" if scripts else "off")
        chrome.call("Emulation.setScriptExecutionDisabled", {"value": not scripts}, True)
        chrome.navigate(base + "/forms/register")
        chrome.events.clear()
        clicked = chrome.evaluate(
            "(function(){document.querySelector('input[name=name]').value='Ada Lovelace';"
            "var p=document.querySelector('input[name=password]'); if(p) p.value='hunter2-secret-PW';"
            "var b=document.querySelector('button[name=_formwork_intent][value=draft]'); if(!b) return 'no draft button';"
            "b.click(); return 'clicked';})()")
        if clicked != "clicked":
            fail("%s: %s" % (label, clicked))
            continue
        chrome.wait_for_load()
        where = chrome.evaluate("location.pathname + location.search")
        report = chrome.evaluate(
            "(function(){var n=document.querySelector('.fw-notice'); var l=n&&n.querySelector('a');"
            "return {notice: !!n, link: l ? l.getAttribute('href') : null, name: (document.querySelector('input[name=name]')||{}).value,"
            "password: (document.querySelector('input[name=password]')||{}).value, draft: (document.querySelector('input[name=_formwork_draft]')||{}).value};})()")
        checks = [
            (where.startswith("/forms/register/drafts/") and where.endswith("?saved=1"), "landed on %s" % where),
            (report.get("notice"), "no notice"),
            (report.get("link") and where.startswith(report.get("link")), "resume link %s" % report.get("link")),
            (report.get("name") == "Ada Lovelace", "name not kept (%r)" % report.get("name")),
            (report.get("password") == "", "the password came back"),
            (report.get("draft") and report.get("draft") in where, "the page does not carry its draft"),
        ]
        bad = [why for good, why in checks if not good]
        if bad:
            fail("%s: %s" % (label, "; ".join(bad)))
        else:
            ok("%s: the button saves without the browser's required checks, the page resumes it with its link, no password" % label)
        shot = chrome.call("Page.captureScreenshot", {"format": "png"}, True)
        open("artifacts/server/draft-js-%s.png" % ("on" if scripts else "off"), "wb").write(base64.b64decode(shot["data"]))
        if scripts:
            chrome.evaluate(axe)
            violations = chrome.evaluate(
                "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a','wcag2aa','wcag21a','wcag21aa','best-practice']}})"
                ".then(function(r){return r.violations.map(function(v){return v.id+': '+v.nodes.map(function(n){return n.target.join(' ');}).join(', ');});})")
            if violations:
                fail("axe-core on the draft page: " + "; ".join(violations))
            else:
                ok("axe-core: no violation on the draft page")

    # --- 2c. a file field: the file chosen through DevTools (as a person picks it), the page posted multipart ------
    import hashlib
    pdf_bytes = b"%PDF-1.4\n" + b"A" * 3000 + b"\n%%EOF\n"
    pdf = os.path.join(work, "cv.pdf")
    open(pdf, "wb").write(pdf_bytes)
    renamed = os.path.join(work, "notes.pdf")
    open(renamed, "w").write("only words, named .pdf\n")

    def choose(selector, path):
        document_node = chrome.call("DOM.getDocument", {}, True)["root"]["nodeId"]
        node = chrome.call("DOM.querySelector", {"nodeId": document_node, "selector": selector}, True)["nodeId"]
        if not node:
            return False
        chrome.call("DOM.setFileInputFiles", {"files": [path], "nodeId": node}, True)
        return True

    for scripts in (True, False):
        label = "application with a file, JavaScript %s" % ("on" if scripts else "off")
        chrome.call("Emulation.setScriptExecutionDisabled", {"value": not scripts}, True)
        chrome.navigate(base + "/forms/application?" + urllib.parse.urlencode([("name", "Ada Lovelace"), ("email", "ada@example.com")]))
        before = len(stored("application"))
        # A text file named .pdf: the browser sends it (accept filters the picker only); the server reads its content.
        if not choose("input[name=cv]", renamed):
            fail("%s: no file input for cv" % label)
            continue
        submit(chrome)
        refused = chrome.last_status("/forms/application")
        summary = chrome.evaluate("(document.querySelector('.fw-error-summary')||{}).innerText||''")
        kept = chrome.evaluate("(document.querySelector('input[name=name]')||{}).value")
        # The refused page asks for the file again (a page cannot hold one); the other answers are kept.
        choose("input[name=cv]", pdf)
        outcome = submit(chrome)
        where = chrome.evaluate("location.pathname")
        rows = stored("application")
        files = rows[-1].get("files", []) if rows else []
        checks = [
            (refused == 422 and "plain text" in summary, "the renamed text file: status %s, summary %r" % (refused, summary)),
            (kept == "Ada Lovelace", "the answers were not kept on the refused page (%r)" % kept),
            (outcome == "sent" and "/submitted/" in where, "the PDF was not accepted (%s, page %s)" % (outcome, where)),
            (len(rows) == before + 1, "%d rows stored, not 1" % (len(rows) - before)),
            (rows and rows[-1]["values"].get("cv") == "cv.pdf", "values %s" % (rows[-1]["values"] if rows else None)),
            (len(files) == 1 and files[0]["sha256"] == hashlib.sha256(pdf_bytes).hexdigest() and files[0]["type"] == "application/pdf",
             "files %s" % files),
        ]
        bad = [why for good, why in checks if not good]
        if bad:
            fail("%s: %s" % (label, "; ".join(bad)))
        else:
            ok("%s: a renamed text file refused at the field, the PDF stored with its SHA-256 and sniffed type" % label)
finally:
    chrome.close()

# --- 3. /openapi.json ------------------------------------------------------------------------------------------
import jsonschema
status, _, text = http("GET", "/openapi.json")
document = json.loads(text)
schema = json.load(open("Tests/ServerCheck/openapi-3.1.schema.json"))
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document))
if errors:
    fail("/openapi.json is not valid OpenAPI 3.1: " + "; ".join(e.message[:200] for e in errors[:3]))
else:
    ok("/openapi.json is valid OpenAPI 3.1 (%d paths)" % len(document["paths"]))
bad = []
for name, component in document["components"]["schemas"].items():
    try:
        jsonschema.Draft202012Validator.check_schema(component)
    except jsonschema.SchemaError as e:
        bad.append("%s: %s" % (name, e.message[:120]))
if bad:
    fail("component schemas that are not JSON Schema 2020-12: " + "; ".join(bad))
else:
    ok("every component schema is valid JSON Schema 2020-12")

server.terminate()
server.wait(timeout=30)
print("server-check: %d passed, %d failed" % (passed, len(failures)))
sys.exit(1 if failures else 0)
