#!/usr/bin/env python3
"""Asserts on the DOM Chromium built from order.yaml's HTML: ABI 1.1's number and
multi-choice controls become real, constrained form controls.

Usage: check_controls.py DUMPED_DOM.html
"""
import sys
from html.parser import HTMLParser


class Inputs(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))


dom = Inputs()
dom.feed(open(sys.argv[1], encoding="utf-8").read())
by_id = {a.get("id"): (t, a) for t, a in dom.elements if a.get("id")}
passed = failed = 0


def check(name, condition):
    global passed, failed
    if condition:
        passed += 1
        print("ok    " + name)
    else:
        failed += 1
        print("FAIL  " + name)


quantity = by_id.get("quantity", ("", {}))[1]
check("quantity is a number input with min 1, max 20, step 1, value 1, required",
      quantity.get("type") == "number" and quantity.get("min") == "1" and quantity.get("max") == "20"
      and quantity.get("step") == "1" and quantity.get("value") == "1" and "required" in quantity)
spice = by_id.get("spice", ("", {}))[1]
check("spiciness is a range input 0-5", spice.get("type") == "range" and spice.get("min") == "0" and spice.get("max") == "5")
tip = by_id.get("tip", ("", {}))[1]
check("tip steps by 0.5", tip.get("type") == "number" and tip.get("step") == "0.5" and tip.get("value") == "2.5")
boxes = [a for t, a in dom.elements if t == "input" and a.get("type") == "checkbox" and a.get("name") == "toppings"]
check("toppings are five checkboxes named toppings", len(boxes) == 5)
check("only Cheese is checked", [b.get("value") for b in boxes if "checked" in b] == ["Cheese"])
diet = by_id.get("diet", ("", {}))[1]
check("dietary needs is a select multiple", by_id.get("diet", ("", {}))[0] == "select" and "multiple" in diet)
labels = {a.get("for") for t, a in dom.elements if t == "label"}
check("every checkbox has a label", all(b.get("id") in labels for b in boxes))
print(f"controls-check: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
