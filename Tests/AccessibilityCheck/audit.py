"""axe-core on each page in one headless Chromium (Tests/Chromium/devtools.py): the page as a browser in the light
scheme draws it, then its stylesheet switched to what a browser in dark mode applies (the dark rules and a dark
canvas), and axe again. Writes artifacts/a11y/PAGE.json (the violations of each scheme); exits 1 on any.

    python3 audit.py BROWSER AXE_JS WORK PAGE...   (WORK/PAGE.html each)
"""
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../Chromium"))
from devtools import Browser  # noqa: E402

browser, axe, work, pages = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
axe_source = open(axe, encoding="utf-8").read()
run = ('axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}})'
       '.then(function (r) { return r.violations.map(function (v) { return {id: v.id, impact: v.impact, help: v.help,'
       'nodes: v.nodes.map(function (n) { return n.target.join(" "); })}; }); })')
# How many style elements had dark rules: a page without any would be audited twice in the light scheme.
dark = ('(function () { var n = 0; document.querySelectorAll("style").forEach(function (s) { var t = s.textContent;'
        's.textContent = t.split("@media (prefers-color-scheme: dark) {").join("@media all {")'
        '.split("color-scheme: light dark;").join("color-scheme: dark;"); if (s.textContent !== t) n++; }); return n; })()')

os.makedirs("artifacts/a11y", exist_ok=True)
chrome = Browser(browser, os.path.join(work, "profile"), os.path.join(work, "chromium.log"))
passed = failed = 0
try:
    for page in pages:
        results = {}
        if not chrome.navigate("file://%s/%s.html" % (work, page)):
            results = {"light": "the page did not load", "dark": "the page did not load"}
        else:
            chrome.evaluate(axe_source)
            results["light"] = chrome.evaluate(run, timeout=120)
            results["dark"] = chrome.evaluate(run, timeout=120) if chrome.evaluate(dark) else "the page has no dark rules"
        json.dump(results, open("artifacts/a11y/%s.json" % page, "w"), indent=1)
        for scheme in ("light", "dark"):
            violations = results[scheme]
            if violations == []:
                passed += 1
                print("ok    %s (%s)" % (page, scheme))
            else:
                failed += 1
                why = violations if isinstance(violations, str) else "; ".join(
                    "%s (%s): %s" % (v["id"], v["impact"], ", ".join(v["nodes"][:3])) for v in violations)
                print("FAIL  %s (%s): %s" % (page, scheme, why))
finally:
    chrome.close()
print("a11y-check: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
