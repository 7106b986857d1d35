#!/usr/bin/env python3
"""Asserts on the DOM that headless Chromium built from the kitchen-sink HTML.

Usage: check_dom.py DUMPED_DOM.html
Prints one line per check and "N passed, N failed"; exits 1 on any failure.
"""
import sys
from html.parser import HTMLParser


class DOM(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []  # (tag, attrs dict, text list)
        self.stack = []

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": []}
        self.elements.append(element)
        if tag not in ("input", "meta", "br", "link", "img"):
            self.stack.append(element)

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.stack:
            element["text"].append(data)

    def by_id(self, id):
        return next((e for e in self.elements if e["attrs"].get("id") == id), None)

    def all(self, tag):
        return [e for e in self.elements if e["tag"] == tag]


def main():
    dom = DOM()
    dom.feed(open(sys.argv[1], encoding="utf-8").read())
    passed, failed = 0, 0

    def check(name, condition):
        nonlocal passed, failed
        if condition:
            passed += 1
            print(f"ok    {name}")
        else:
            failed += 1
            print(f"FAIL  {name}")

    def attr(id, name):
        element = dom.by_id(id)
        return element["attrs"].get(name) if element else None

    forms = dom.all("form")
    check("one <form> with the form's id", len(forms) == 1 and forms[0]["attrs"].get("id") == "kitchen-sink")
    check("a fieldset per section", len(dom.all("fieldset")) >= 5)

    labels = [l for l in dom.all("label")]
    unbound = [l for l in labels if not l["attrs"].get("for") or dom.by_id(l["attrs"]["for"]) is None]
    check(f"every <label> ({len(labels)}) is bound to an existing control", labels and not unbound)
    controls = [e for e in dom.elements if e["tag"] in ("input", "select", "textarea")]
    unlabeled = [c for c in controls if c["attrs"].get("type") != "hidden"
                 and not any(l["attrs"].get("for") == c["attrs"].get("id") for l in labels)]
    check(f"every control ({len(controls)}) has a label", not unlabeled)
    ids = [e["attrs"]["id"] for e in dom.elements if "id" in e["attrs"]]
    check("ids are unique", len(ids) == len(set(ids)))

    check("name: text input, autocomplete=name, autocapitalize=words, required",
          attr("name", "type") == "text" and attr("name", "autocomplete") == "name"
          and attr("name", "autocapitalize") == "words" and attr("name", "required") is not None
          and attr("name", "value") == "Ada")
    check("website: type=url inputmode=url spellcheck/autocorrect off",
          attr("website", "type") == "url" and attr("website", "inputmode") == "url"
          and attr("website", "autocorrect") == "off" and attr("website", "autocapitalize") == "none")
    check("pin: secure entry is type=password, autocomplete=one-time-code, maxlength=6",
          attr("pin", "type") == "password" and attr("pin", "autocomplete") == "one-time-code"
          and attr("pin", "maxlength") == "6")
    check("pin: its error is announced and described", attr("pin-message-1", "role") == "alert"
          and "pin-message-1" in (attr("pin", "aria-describedby") or ""))
    bio = dom.by_id("bio")
    check("bio: text view is a <textarea> with its text and spellcheck=true",
          bio is not None and bio["tag"] == "textarea" and "Mathematician." in "".join(bio["text"])
          and attr("bio", "spellcheck") == "true")
    check("locked: disabled", attr("locked", "disabled") is not None)
    check("newsletter: checked switch checkbox",
          attr("newsletter", "type") == "checkbox" and attr("newsletter", "role") == "switch"
          and attr("newsletter", "checked") is not None)
    country = dom.by_id("country")
    options = [e for e in dom.elements if e["tag"] == "option"]
    check("country: picker is a <select> with Japan selected",
          country is not None and country["tag"] == "select"
          and any(o["attrs"].get("value") == "Japan" and "selected" in o["attrs"] for o in options))
    radios = [e for e in dom.all("input") if e["attrs"].get("type") == "radio" and e["attrs"].get("name") == "size"]
    check("size: segments are a radio group with M checked",
          len(radios) == 4 and [r["attrs"].get("value") for r in radios if "checked" in r["attrs"]] == ["M"]
          and attr("size", "role") == "radiogroup")
    check("start: type=date with value, min and max",
          attr("start", "type") == "date" and attr("start", "value") == "2026-12-01"
          and attr("start", "min") == "2026-11-21" and attr("start", "max") == "2027-11-21")
    check("meeting: date and time is datetime-local",
          attr("meeting", "type") == "datetime-local" and attr("meeting", "value") == "2026-12-01T09:30")
    outputs = " ".join("".join(o["text"]) for o in dom.all("output"))
    check("typed C cells show the document's values",
          "★★★★☆" in outputs and "119.88 EUR in 12 installments of 9.99, monthly" in outputs)
    check("save: primary button submits", attr("save", "type") == "submit" and "fw-primary" in attr("save", "class"))
    check("delete: destructive button does not submit",
          attr("delete", "type") == "button" and "fw-destructive" in attr("delete", "class"))
    page_text = " ".join("".join(e["text"]) for e in dom.all("p"))
    check("strings are escaped, not interpreted", "<b>Tags</b>" in page_text and not dom.all("b"))

    print(f"browser-check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
