/// A complete HTML page with a real `<form>`: controls follow the text-input
/// traits, ids come from accessibility ids, every label is bound to its
/// control, every string is escaped.
struct HTMLRenderer {
    /// Whether the field being rendered shows an error (its controls get `aria-invalid`).
    private var invalid = false
    /// Whether the form has conditions (fields then say which control holds their value).
    private var live = false
    /// Whether the section being rendered has a condition: its fields' `required` is then the script's to set (see
    /// `conditional`).
    private var sectionConditional = false
    /// Whether the field being rendered can be hidden or disabled by a condition (its own or its section's). Its
    /// required controls then say `data-required`, not `required`: without JavaScript every field shows, and the
    /// browser would refuse to send a form whose hidden field is empty; the script sets `required` while the field
    /// is shown and enabled, and the server checks either way.
    private var conditional = false
    /// What a server adds to the page (where it posts, its token, the problems of a refused submission).
    var page: WebPage? = nil

    mutating func render(_ tree: ViewTree) -> String {
        var out = ""
        write(tree) { out += String(decoding: $0, as: UTF8.self) }
        return out
    }

    /// `render`, written to `sink` in chunks (a few sections at a time): the whole page is never held.
    mutating func write(_ tree: ViewTree, to sink: (UnsafeRawBufferPointer) -> Void) {
        live = Self.hasConditions(tree)
        var out = """
            <!DOCTYPE html>
            <html lang="\(escape(tree.language))"\(LanguageTag.isRightToLeft(tree.language) ? " dir=\"rtl\"" : "")>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="formwork \(FormworkVersion.string)">
            <title>\(page?.problems.isEmpty == false ? escape(loc("Error: ")) : "")\(escape(tree.title ?? Self.humanized(tree.formID)))</title>
            <style>\(Self.stylesheet)</style>\(page == nil ? "" : "\n<style>\(Self.pageStylesheet)</style>")
            </head>
            <body>
            <main>

            """
        if let notice = page?.notice { out += Self.notice(notice) }
        if let page, !page.problems.isEmpty { out += Self.errorSummary(page.problems) }
        out += "<form id=\"\(escape(tree.formID))\" class=\"fw-form\" method=\"post\" action=\"\(escape(page?.action ?? ""))\""
        if Self.hasUploads(tree) { out += " enctype=\"multipart/form-data\"" }
        // The page script numbers the pages shown in the page's language: its words come from here.
        if tree.pages.count > 1 {
            out += " data-page-number=\"\(escape(loc("Page {0} of {1}")))\" data-page-heading=\"\(escape(loc("{0}: {1}")))\""
        }
        out += page?.problems.isEmpty == false ? " novalidate>\n" : ">\n"
        for input in page?.hiddenInputs ?? [] {
            out += "<input type=\"hidden\" name=\"\(escape(input.name))\" value=\"\(escape(input.value))\">\n"
        }
        // Every page has one level-1 heading: the title, or (hidden) the form's id in words.
        if let title = tree.title {
            out += "<h1>\(escape(title))</h1>\n"
        } else {
            out += "<h1 class=\"fw-visually-hidden\">\(escape(Self.humanized(tree.formID)))</h1>\n"
        }
        if let description = tree.description, !description.isEmpty {
            let (body, isBlock) = RichText.html(description)
            out += isBlock ? "<div class=\"fw-description\">\(body)</div>\n" : "<p class=\"fw-description\">\(body)</p>\n"
        }
        // The sections' fields are written independently (on several cores for a large form), then put together in order.
        let fieldCount = tree.sections.reduce(0) { $0 + $1.fields.count }
        let renderer = self
        func flush() {
            guard !out.isEmpty else { return }
            out.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
            out.removeAll(keepingCapacity: true)
        }
        let shown = tree.shownPages
        /// "Page 2 of 3", counted among the pages shown for the values rendered.
        func pageNumber(_ p: Int) -> String { loc("Page {0} of {1}", (shown.firstIndex(of: p) ?? p) + 1, max(shown.count, 1)) }
        /// A section's footer and closing tag, and the page's navigation after its last section.
        func close(_ index: Int, _ section: SectionView, _ tag: String) {
            if let footer = section.footer {
                let (body, isBlock) = RichText.html(footer)
                out += isBlock ? "<div class=\"fw-footer\">\(body)</div>\n" : "<p class=\"fw-footer\">\(body)</p>\n"
            }
            out += "</\(tag)>\n"
            if let p = tree.pages.firstIndex(where: { $0.sections.upperBound == index + 1 }) {
                // Next and back are for the script, which shows one page at a time; without it every page shows.
                out += "<nav class=\"fw-page-nav\" aria-label=\"\(escape(pageNumber(p)))\" hidden>\n"
                if p > 0 {
                    out += "<button type=\"button\" class=\"fw-button\" data-page-go=\"\(p - 1)\">\(escape(loc("Back")))</button>\n"
                }
                if p + 1 < tree.pages.count {
                    out +=
                        "<button type=\"button\" class=\"fw-button fw-primary\" data-page-go=\"\(p + 1)\">\(escape(loc("Next")))</button>\n"
                }
                out += "</nav>\n</section>\n"
            }
        }
        // A large section is made a run of fields at a time (SectionPieces), its opening and closing tags written
        // with its first and last piece.
        let pieces = SectionPieces.plan(tree)
        let perThread = Parallel.perThread(pieces.count, weight: fieldCount, minimum: 4)
        Parallel.stream(pieces.count, worthIt: SectionPieces.parallel(pieces, fields: fieldCount), perThread: perThread) { index in
            var r = renderer
            let piece = pieces[index]
            let section = tree.sections[piece.section]
            r.sectionConditional = section.conditions.visibleIf != nil || section.conditions.enabledIf != nil
            // Sized once (a field is about 260 bytes of HTML), and each field borrowed through the buffer, not copied.
            var body = HTMLBytes(capacity: piece.fields.count * 320 + 256)
            if let group = section.repeatGroup {
                r.renderItems(section, group, to: &body)
                return body
            }
            section.fields.withUnsafeBufferPointer { fields in
                // By index: `for field in fields` copies each field (a dozen retains).
                for i in piece.fields { r.render(fields[i], to: &body) }
            }
            return body
        } consume: { index, body in
            let piece = pieces[index]
            let section = tree.sections[piece.section]
            let tag = section.header == nil ? "div" : "fieldset"
            guard piece.first else {
                flush()
                body.bytes.withUnsafeBytes { sink($0) }
                if piece.last { close(piece.section, section, tag) }
                return
            }
            let index = piece.section
            if let p = tree.pages.firstIndex(where: { $0.sections.lowerBound == index }) {
                let page = tree.pages[p]
                let heading = page.title.map { loc("{0}: {1}", pageNumber(p), $0) } ?? pageNumber(p)
                // A page whose sections are all hidden is hidden with them (the script shows it when they show).
                out += "<section class=\"fw-page\" id=\"page-\(escape(page.id))\" aria-labelledby=\"page-\(escape(page.id))-title\""
                out += shown.contains(p) ? ">\n" : " hidden>\n"
                out +=
                    "<h2 id=\"page-\(escape(page.id))-title\"\(page.title.map { " data-page-title=\"\(escape($0))\"" } ?? "")>\(escape(heading))</h2>\n"
            }
            var style = ""
            if let i = section.insets { style += "padding:\(css(i.top))px \(css(i.right))px \(css(i.bottom))px \(css(i.left))px;" }
            if let s = section.spacing { style += "--fw-spacing:\(css(s))px;" }
            // A section with a header is a named group (fieldset + legend); one without is a plain block,
            // never an unnamed group.
            out +=
                "<\(tag) class=\"fw-section\" id=\"section-\(escape(section.id))\"\(style.isEmpty ? "" : " style=\"\(style)\"")\(conditionAttributes(section.conditions))>\n"
            if let header = section.header { out += "<legend>\(escape(header))</legend>\n" }
            flush()
            body.bytes.withUnsafeBytes { sink($0) }
            if piece.last { close(index, section, tag) }
        }
        if let page, !page.buttons.isEmpty {
            out += "<div class=\"fw-actions\">\n"
            for button in page.buttons {
                out += "<button type=\"submit\" class=\"fw-button\(button.primary ? " fw-primary" : "")\""
                if let name = button.name { out += " name=\"\(escape(name))\" value=\"\(escape(button.value))\"" }
                if button.skipsValidation { out += " formnovalidate" }
                out += ">\(escape(button.label))</button>\n"
            }
            out += "</div>\n"
        }
        out += "</form>\n</main>\n"
        if live { out += "<script>\(Self.conditionScript)</script>\n" }
        if tree.pages.count > 1 { out += "<script>\(Self.pageScript)</script>\n" }
        if tree.sections.contains(where: { $0.repeatGroup != nil }) { out += "<script>\(Self.repeatScript)</script>\n" }
        out += "</body>\n</html>\n"
        out.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
    }

    /// The GOV.UK error summary: a titled list of links to the fields a refused submission got wrong, focused on
    /// load (`autofocus` works without JavaScript), so a screen reader announces it first.
    static func errorSummary(_ problems: [WebPage.Problem]) -> String {
        var out = "<div class=\"fw-error-summary\" role=\"alert\" aria-labelledby=\"fw-error-summary-title\" tabindex=\"-1\" autofocus>\n"
        out +=
            "<h2 id=\"fw-error-summary-title\">"
            + HTML.escape(locPlural(problems.count, one: "There is a problem", other: "There are {0} problems", problems.count))
            + "</h2>\n<ul>\n"
        for problem in problems {
            if let target = problem.target {
                out += "<li><a href=\"#\(HTML.escape(target))\">\(HTML.escape(problem.message))</a></li>\n"
            } else {
                out += "<li>\(HTML.escape(problem.message))</li>\n"
            }
        }
        return out + "</ul>\n</div>\n"
    }

    /// A notice (a saved draft and its resume link): a status region, read out without taking the focus.
    static func notice(_ notice: WebPage.Notice) -> String {
        var out = "<div class=\"fw-notice\" role=\"status\" aria-labelledby=\"fw-notice-title\">\n"
        out += "<h2 id=\"fw-notice-title\">\(HTML.escape(notice.title))</h2>\n<p>\(HTML.escape(notice.text))</p>\n"
        if let link = notice.link { out += "<p><a class=\"fw-notice-link\" href=\"\(HTML.escape(link))\">\(HTML.escape(link))</a></p>\n" }
        return out + "</div>\n"
    }

    /// Whether the page has a button that submits it (a primary button): a server adds one when not.
    static func hasSubmitButton(_ tree: ViewTree) -> Bool {
        func submits(_ node: ViewNode) -> Bool {
            switch node {
            case .button(_, let role): role == .primary
            case .group(_, _, let children): children.contains(where: submits)
            default: false
            }
        }
        return tree.sections.contains { $0.fields.contains { $0.nodes.contains(where: submits) } }
    }

    /// Whether a field takes a file (the form is then posted as multipart/form-data).
    static func hasUploads(_ tree: ViewTree) -> Bool {
        tree.sections.contains { $0.fields.contains { $0.rules.upload != nil } }
    }

    static func hasConditions(_ tree: ViewTree) -> Bool {
        tree.sections.contains { !$0.conditions.isEmpty || $0.fields.contains { !$0.conditions.isEmpty } }
    }

    /// `data-visible-if` and friends: the parsed condition as JSON, for the inline script.
    func conditionAttributes(_ c: FieldConditions) -> String {
        guard !c.isEmpty else { return "" }
        var out = HTMLBytes(capacity: 128)
        writeConditionAttributes(c, to: &out)
        return out.string
    }

    /// Live conditions, with no dependency: on every change the script reads each field's value
    /// from its value control, evaluates the conditions (the same rules as `Condition.holds`: a
    /// hidden field reads as null) in document order, and hides, disables or requires fields and
    /// sections. Without JavaScript every field is shown and `formwork validate` decides.
    ///
    /// What it needs from the page (each field's parsed conditions, its value control, its controls) is read once,
    /// and again only after the form's elements change (a repeat's item added or removed); a property is written
    /// only when it changes. Parsing every condition and finding every control on each keystroke, and writing
    /// every control's `disabled` (each write invalidates its style), made a keystroke on a 1,000-field form take
    /// three frames (Benchmarks/browser-bench).
    static let conditionScript = """
        (function () {
        "use strict";
        var form = document.querySelector("form.fw-form");
        if (!form) return;
        \(conditionEvaluator)
        function read(f) {
          var v = readRaw(document.getElementById(f.valueId)), t = f.type;
          if (typeof v !== "string") return v;
          return t === "number" ? Number(v) : t === "bool" ? v === "true" : v;
        }
        function readRaw(el) {
          if (!el) return null;
          if (el.tagName === "FIELDSET") {
            var checked = Array.prototype.map.call(el.querySelectorAll("input:checked"), function (i) { return i.value; });
            return el.classList.contains("fw-checkboxes") ? checked : (checked.length ? checked[0] : null);
          }
          if (el.type === "checkbox") return el.checked;
          if (el.value === "") return null;
          if (el.type === "number" || el.type === "range") return Number(el.value);
          if (el.type === "date") return Date.parse(el.value + "T00:00:00Z") / 1000;
          if (el.type === "datetime-local") return Date.parse(el.value + "Z") / 1000;
          if (el.type === "time") return Date.parse("1970-01-01T" + el.value + "Z") / 1000;
          if (el.tagName === "SELECT" && el.multiple) {
            return Array.prototype.filter.call(el.options, function (o) { return o.selected; }).map(function (o) { return o.value; });
          }
          return el.value;
        }
        function cond(el, name) { var a = el.getAttribute("data-" + name); return a ? JSON.parse(a) : null; }
        var sections = null;
        function scan() {
          sections = Array.prototype.map.call(form.querySelectorAll(".fw-section"), function (section) {
            return { el: section, v: cond(section, "visible-if"), e: cond(section, "enabled-if"),
              fields: Array.prototype.map.call(section.querySelectorAll(".fw-field"), function (div) {
                return { div: div, id: div.getAttribute("data-field"), type: div.getAttribute("data-value-type"),
                  valueId: div.getAttribute("data-value-id") || "", ro: div.hasAttribute("data-read-only"),
                  v: cond(div, "visible-if"), e: cond(div, "enabled-if"), r: cond(div, "required-if"), m: cond(div, "value"),
                  controls: Array.prototype.map.call(div.querySelectorAll("input, select, textarea, button"), function (c) {
                    return { el: c, required: c.hasAttribute("data-required") };
                  }) };
              }) };
          });
        }
        // Records not yet delivered are taken in `update`: an item added and its input event in one task still rescan.
        var changes = new MutationObserver(function () { sections = null; });
        changes.observe(form, { childList: true, subtree: true });
        function set(el, name, value) { if (el[name] !== value) el[name] = value; }
        function update() {
          if (changes.takeRecords().length || !sections) scan();
          var values = {};
          var get = function (id) { return Object.prototype.hasOwnProperty.call(values, id) ? values[id] : null; };
          sections.forEach(function (section) {
            var sectionVisible = !section.v || holds(section.v, get), sectionEnabled = !section.e || holds(section.e, get);
            set(section.el, "hidden", !sectionVisible);
            section.fields.forEach(function (f) {
              var visible = sectionVisible && (!f.v || holds(f.v, get));
              var enabled = sectionEnabled && (!f.e || holds(f.e, get));
              set(f.div, "hidden", !visible);
              // A computed value is written into its control (shown, never edited; the server computes it again).
              if (f.m) {
                var made = evaluate(f.m, get), out = document.getElementById(f.valueId);
                if (out && out.type === "checkbox") set(out, "checked", truthy(made));
                else if (out && "value" in out) set(out, "value", made === null ? "" : text(made));
              }
              f.controls.forEach(function (c) {
                // A read-only field's hidden inputs carry its value while it is shown and enabled; its controls never.
                set(c.el, "disabled", !visible || !enabled || !!f.m || (f.ro && c.el.type !== "hidden"));
                if (c.required) set(c.el, "required", visible && enabled);
              });
              if (f.r) {
                var required = visible && enabled && holds(f.r, get);
                var control = document.getElementById(f.valueId);
                if (control && control.tagName !== "FIELDSET") {
                  set(control, "required", required);
                  if (control.getAttribute("aria-required") !== String(required)) control.setAttribute("aria-required", String(required));
                }
              }
              if (visible) { var value = read(f); if (value !== null) values[f.id] = value; }
            });
          });
        }
        form.addEventListener("input", update);
        form.addEventListener("change", update);
        update();
        })();
        """

    /// The items of a repeatable group, each a named group with its Remove button, then the spare (empty,
    /// optional) item and the Add button. The buttons are for the script and hidden without it; without
    /// JavaScript the spare item is the way to add one more.
    mutating func renderItems(_ section: SectionView, _ group: RepeatGroup, to out: inout HTMLBytes) {
        out.raw("<div class=\"fw-items\" data-group=\"")
        out.text(section.id)
        out.html("\" data-min=\"\(group.minItems)\" data-max=\"\(group.maxItems)\">\n")
        let items = Dictionary(grouping: section.fields) { $0.item?.index ?? 0 }
        func item(_ index: Int, _ fields: [FieldView], spare: Bool) {
            out.html("<fieldset class=\"fw-item\" data-item=\"\(index)\"\(spare ? " data-spare" : "")>\n")
            out.html("<legend>\(escape(loc("{0} {1}", group.itemLabel, index + 1)))")
            if spare { out.html("<span data-spare-mark>\(escape(loc(" (optional)")))</span>") }
            out.raw("</legend>\n")
            for field in fields { render(field, to: &out) }
            out.raw("<button type=\"button\" class=\"fw-button fw-item-remove\" data-remove hidden>")
            out.html("\(escape(loc("Remove {0} {1}", group.itemLabel.lowercased(), index + 1)))</button>\n")
            out.raw("</fieldset>\n")
        }
        for index in items.keys.sorted() { item(index, items[index]!, spare: false) }
        if !section.spare.isEmpty, let index = section.spare.first?.item?.index { item(index, section.spare, spare: true) }
        out.html(
            "<button type=\"button\" class=\"fw-button fw-item-add\" data-add hidden>\(escape(loc("Add {0}", group.itemLabel.lowercased())))</button>\n"
        )
        out.raw("</div>\n")
    }

    /// Add and remove items of repeatable groups: the spare item becomes the template that "Add" clones
    /// (ids, names and labels renumbered); "Remove" takes an item out; the limits disable the buttons.
    static let repeatScript = """
        (function () {
        "use strict";
        Array.prototype.forEach.call(document.querySelectorAll(".fw-items"), function (list) {
          var group = list.getAttribute("data-group"), min = Number(list.getAttribute("data-min")), max = Number(list.getAttribute("data-max"));
          var spare = list.querySelector("[data-spare]"), add = list.querySelector("[data-add]");
          var template = spare ? spare.cloneNode(true) : null;
          if (spare) spare.remove();
          var next = list.querySelectorAll(".fw-item").length;
          function items() { return list.querySelectorAll(".fw-item"); }
          function refresh() {
            var n = items().length;
            add.hidden = !template; add.disabled = n >= max;
            Array.prototype.forEach.call(list.querySelectorAll("[data-remove]"), function (b) { b.hidden = false; b.disabled = n <= min; });
          }
          function renumber(node, from, to) {
            var a = group + "-" + from + "-", b = group + "-" + to + "-";
            Array.prototype.forEach.call(node.querySelectorAll("*"), function (el) {
              ["id", "for", "name", "aria-describedby", "aria-labelledby", "data-value-id"].forEach(function (attr) {
                var v = el.getAttribute(attr); if (v && v.indexOf(a) >= 0) el.setAttribute(attr, v.split(a).join(b));
              });
              var f = el.getAttribute("data-field"); if (f) el.setAttribute("data-field", f.split(group + "/" + from + "/").join(group + "/" + to + "/"));
            });
          }
          add.addEventListener("click", function () {
            if (!template || items().length >= max) return;
            var item = template.cloneNode(true), from = item.getAttribute("data-item");
            item.removeAttribute("data-spare");
            item.setAttribute("data-item", String(next));
            renumber(item, from, next);
            var legend = item.querySelector("legend");
            var mark = legend.querySelector("[data-spare-mark]"); if (mark) mark.remove();
            legend.textContent = legend.textContent.replace(/[0-9]+$/, String(items().length + 1));
            list.insertBefore(item, add);
            next += 1;
            refresh();
            var first = item.querySelector("input, select, textarea"); if (first) first.focus();
          });
          list.addEventListener("click", function (event) {
            var remove = event.target.closest && event.target.closest("[data-remove]");
            if (!remove || items().length <= min) return;
            remove.closest(".fw-item").remove();
            refresh();
            add.focus();
          });
          refresh();
        });
        })();
        """

    /// One page at a time: shows the page navigation, hides the other pages, moves focus to the
    /// new page's heading. Without JavaScript every page is shown, one after the other.
    static let pageScript = """
        (function () {
        "use strict";
        var pages = document.querySelectorAll("form.fw-form > .fw-page");
        if (pages.length < 2) return;
        var form = pages[0].parentNode;
        function words(name, a, b) {
          return form.getAttribute(name).replace("{0}", function () { return a; }).replace("{1}", function () { return b; });
        }
        var current = 0;
        // A page is shown when one of its sections is (the conditions' script hides sections as answers change).
        function live(i) { return pages[i].querySelector(".fw-section:not([hidden])") !== null; }
        function shown() {
          var out = [];
          for (var i = 0; i < pages.length; i++) if (i === current || live(i)) out.push(i);
          return out;
        }
        // Headings, navigation labels and buttons follow the pages shown: "Page 2 of 3" counts those only, Back and
        // Next go to the one before or after, and Next is hidden on the last.
        function label() {
          var list = shown();
          list.forEach(function (p, k) {
            var number = words("data-page-number", k + 1, list.length), h = pages[p].querySelector("h2");
            var title = h.getAttribute("data-page-title");
            h.textContent = title ? words("data-page-heading", number, title) : number;
            var nav = pages[p].querySelector(".fw-page-nav");
            if (!nav) return;
            nav.setAttribute("aria-label", number);
            Array.prototype.forEach.call(nav.querySelectorAll("[data-page-go]"), function (b) {
              var ahead = Number(b.getAttribute("data-page-go")) > p;
              b.hidden = ahead ? k === list.length - 1 : k === 0;
            });
          });
        }
        function show(n, focus) {
          current = n;
          Array.prototype.forEach.call(pages, function (page, i) { page.hidden = i !== n; });
          label();
          if (focus) { var h = pages[n].querySelector("h2"); h.setAttribute("tabindex", "-1"); h.focus(); }
        }
        // Next first checks the page's own fields, as submitting would: the first problem is reported and focused.
        function complete(n) {
          var controls = pages[n].querySelectorAll("input, select, textarea");
          for (var i = 0; i < controls.length; i++) {
            var c = controls[i];
            if (c.willValidate && !c.checkValidity()) { c.reportValidity(); return false; }
          }
          return true;
        }
        Array.prototype.forEach.call(document.querySelectorAll(".fw-page-nav"), function (nav) { nav.hidden = false; });
        document.addEventListener("click", function (event) {
          var go = event.target.closest && event.target.closest("[data-page-go]");
          if (!go) return;
          var ahead = Number(go.getAttribute("data-page-go")) > current, list = shown(), k = list.indexOf(current);
          if (ahead && !complete(current)) return;
          var next = list[ahead ? k + 1 : k - 1];
          if (next !== undefined) show(next, true);
        });
        var form = document.querySelector("form.fw-form");
        if (form) { form.addEventListener("input", label); form.addEventListener("change", label); }
        var first = 0;
        while (first < pages.length - 1 && !live(first)) first++;
        show(first, false);
        })();
        """

    /// The evaluator of parsed conditions (the JSON of `Condition.json`), shared by the page's
    /// script and the tests that run the shared vectors in Chromium.
    static let conditionEvaluator = """
        function text(v) { return typeof v === "boolean" ? (v ? "true" : "false") : Array.isArray(v) ? v.join(",") : String(v); }
        function truthy(v) {
          if (v === null || v === undefined) return false;
          if (typeof v === "string") return v.length > 0;
          if (typeof v === "number") return v !== 0;
          if (Array.isArray(v)) return v.length > 0;
          return v === true;
        }
        function equal(a, b) {
          if (a === null || b === null) return a === b;
          if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every(function (x, i) { return x === b[i]; });
          return typeof a === typeof b && a === b;
        }
        function compare(a, op, b) {
          var ordered = (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string");
          if (op === "==") return ordered ? a === b : equal(a, b);
          if (op === "!=") return !(ordered ? a === b : equal(a, b));
          if (!ordered) return false;
          if (typeof a === "string") { a = Array.from(a); b = Array.from(b); var n = Math.min(a.length, b.length), i = 0;
            for (; i < n && a[i] === b[i]; i++) {}
            var c = i < n ? (a[i] < b[i] ? -1 : 1) : (a.length - b.length);
            return op === "<" ? c < 0 : op === "<=" ? c <= 0 : op === ">" ? c > 0 : c >= 0; }
          return op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : a >= b;
        }
        function evaluate(n, get) {
          switch (n[0]) {
            case "lit": return n[1];
            case "list": return n[1].map(text);
            case "field": var v = get(n[1]); return v === undefined ? null : v;
            case "not": return !holds(n[1], get);
            case "and": return holds(n[1], get) && holds(n[2], get);
            case "or": return holds(n[1], get) || holds(n[2], get);
            case "empty": var e = evaluate(n[1], get); return e === null || e === "" || (Array.isArray(e) && e.length === 0);
            case "in":
              var needle = evaluate(n[1], get), hay = evaluate(n[2], get);
              if (needle === null || !Array.isArray(hay)) return false;
              if (Array.isArray(needle)) return needle.some(function (x) { return hay.indexOf(x) >= 0; });
              return hay.indexOf(text(needle)) >= 0;
            case "math": return math(evaluate(n[2], get), n[1], evaluate(n[3], get));
            default: return compare(evaluate(n[1], get), n[0], evaluate(n[2], get));
          }
        }
        function math(a, op, b) {
          if (typeof a !== "number" || typeof b !== "number") return null;
          if (op === "/" && b === 0) return null;
          var r = op === "+" ? a + b : op === "-" ? a - b : op === "*" ? a * b : a / b;
          return isFinite(r) ? r : null;
        }
        function holds(n, get) { return truthy(evaluate(n, get)); }
        """

    /// "order-form" → "Order form": a readable name for a form without a title.
    static func humanized(_ id: String) -> String {
        let words = id.replacing("_", with: " ").replacing("-", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// A CSS length: insets and spacing are bounded by the decoder, and this never traps either way.
    func css(_ d: Double) -> String { NumberText.format(d) }

    /// `<div class="fw-field"` with the field's id and cell, and where the conditions' script reads its value.
    func writeFieldOpening(_ field: FieldView, to out: inout HTMLBytes) {
        out.raw("<div class=\"fw-field\" data-field=\"")
        out.text(field.id)
        out.raw("\" data-cell=\"")
        out.text(field.cell)
        out.raw("\"")
        guard live && field.valueField != nil else { return }
        out.raw(" data-value-id=\"")
        out.text(field.accessibilityId)
        out.raw("\"")
        switch field.choiceKind {
        case .number?: out.raw(" data-value-type=\"number\"")
        case .bool?: out.raw(" data-value-type=\"bool\"")
        default: break
        }
    }

    /// A hidden field: its value in hidden inputs (submitted, never shown), in a hidden block the conditions' script
    /// can still read it from.
    mutating func renderHidden(_ field: FieldView, to out: inout HTMLBytes) {
        writeFieldOpening(field, to: &out)
        if !field.conditions.isEmpty { writeConditionAttributes(field.conditions, to: &out) }
        out.raw(" hidden>\n")
        var first = true
        for text in field.submittedTexts {
            out.raw("<input type=\"hidden\"")
            if first {
                out.raw(" id=\"")
                out.text(field.accessibilityId)
                out.raw("\"")
                first = false
            }
            out.raw(" name=\"")
            out.text(field.id)
            out.raw("\" value=\"")
            out.text(text)
            out.raw("\">\n")
        }
        out.raw("</div>\n")
    }

    /// A field's HTML, written to `out`.
    mutating func render(_ field: FieldView, to out: inout HTMLBytes) {
        if field.conditions.hidden { return renderHidden(field, to: &out) }
        writeFieldOpening(field, to: &out)
        if !field.conditions.isEmpty { writeConditionAttributes(field.conditions, to: &out) }
        conditional = sectionConditional || field.conditions.visibleIf != nil || field.conditions.enabledIf != nil
        let readOnly = field.conditions.readOnly && field.conditions.value == nil
        if readOnly { out.raw(" data-read-only") }
        out.raw(">\n")
        var messages = 0
        invalid = false
        for node in field.nodes {
            guard case .message(let kind, _) = node else { continue }
            messages += 1
            if kind == .error { invalid = true }
        }
        var messageIndex = 0
        for node in field.nodes { render(node, field: field, messages: messages, messageIndex: &messageIndex, to: &out) }
        // A read-only value is shown in its (disabled) control and submitted from hidden inputs: a disabled control
        // is never submitted, and `readonly` does not exist for selects, radios, checkboxes or sliders.
        if readOnly && field.enabled {
            for text in field.submittedTexts {
                out.raw("<input type=\"hidden\" name=\"")
                out.text(field.id)
                out.raw("\" value=\"")
                out.text(text)
                out.raw("\">\n")
            }
        }
        out.raw("</div>\n")
    }

    /// ` aria-describedby="…"`: the ids of the field's messages (`<accessibility id>-message-<n>`), when it has any.
    func writeDescribed(_ field: FieldView, messages: Int, to out: inout HTMLBytes) {
        guard messages > 0 else { return }
        out.raw(" aria-describedby=\"")
        for k in 1...messages {
            if k > 1 { out.raw(" ") }
            writeMessageID(field, k, to: &out)
        }
        out.raw("\"")
    }

    func writeMessageID(_ field: FieldView, _ index: Int, to out: inout HTMLBytes) {
        out.text(field.accessibilityId)
        out.raw("-message-")
        out.int(index)
    }

    /// `data-visible-if` and friends, written to `out`.
    func writeConditionAttributes(_ c: FieldConditions, to out: inout HTMLBytes) {
        func write(_ name: StaticString, _ source: ConditionSource?) {
            guard let source else { return }
            out.raw(" data-")
            out.raw(name)
            out.raw("=\"")
            out.text(source.condition.json.serialized(pretty: false))
            out.raw("\"")
        }
        write("visible-if", c.visibleIf)
        write("enabled-if", c.enabledIf)
        write("required-if", c.requiredIf)
        write("value", c.value)
    }

    func render(_ node: ViewNode, field: FieldView, messages: Int, messageIndex: inout Int, to out: inout HTMLBytes) {
        switch node {
        case .group(let role, let title, let children):
            out.raw("<div class=\"fw-group fw-")
            out.text(role)
            out.raw("\">\n")
            if let title {
                out.raw("<p class=\"fw-group-title\">")
                out.text(title)
                out.raw("</p>\n")
            }
            for child in children { render(child, field: field, messages: messages, messageIndex: &messageIndex, to: &out) }
            out.raw("</div>\n")
        case .label(let text, let style):
            out.raw("<p class=\"fw-label fw-")
            out.html(style.rawValue)
            out.raw("\">")
            out.lines(text)
            out.raw("</p>\n")
        case .value(let label, let text):
            out.raw("<div class=\"fw-value\"><span class=\"fw-value-label\">")
            out.text(label)
            out.raw("</span> <output>")
            out.text(text)
            out.raw("</output></div>\n")
        case .textInput(let c, let text, let placeholder):
            writeTextInput(c, text: text, placeholder: placeholder, field, messages: messages, to: &out)
        case .toggle(let c, let isOn):
            out.raw("<div class=\"fw-toggle\"><input")
            writeCommon(c, field, messages: messages, to: &out)
            out.raw(" type=\"checkbox\" role=\"switch\" value=\"true\"")
            if isOn { out.raw(" checked") }
            out.raw("> ")
            writeLabelElement(c, to: &out)
            out.raw("</div>\n")
        case .button(let c, let role):
            writeButton(c, role: role, to: &out)
        case .choice(let c, let choices, let selected, let style):
            writeChoice(c, choices: choices, selected: selected, style: style, field, messages: messages, to: &out)
        case .date(let c, let seconds, let mode):
            writeDate(c, seconds: seconds, mode: mode, field, messages: messages, to: &out)
        case .number(let c, let value, let minimum, let maximum, let step, let style):
            writeNumber(c, value: value, minimum: minimum, maximum: maximum, step: step, style: style, field, messages: messages, to: &out)
        case .multiChoice(let c, let choices, let selected, let style):
            writeMultiChoice(c, choices: choices, selected: selected, style: style, field, messages: messages, to: &out)
        case .message(let kind, let text):
            messageIndex += 1
            let rich = kind == .hint ? RichText.html(text) : nil
            let tag: StaticString = rich?.isBlock == true ? "div" : "p"
            out.raw("<")
            out.raw(tag)
            out.raw(" class=\"fw-message fw-")
            out.html(kind.rawValue)
            out.raw("\" id=\"")
            writeMessageID(field, messageIndex, to: &out)
            out.raw(kind == .error ? "\" role=\"alert\">" : "\">")
            if let rich { out.html(rich.html) } else { out.text(text) }
            out.raw("</")
            out.raw(tag)
            out.raw(">\n")
        }
    }

    func writeButton(_ c: Control, role: ButtonRole, to out: inout HTMLBytes) {
        out.raw("<button id=\"")
        out.text(c.id)
        out.raw(role == .primary ? "\" type=\"submit\" class=\"fw-button fw-" : "\" type=\"button\" class=\"fw-button fw-")
        out.html(role.rawValue)
        out.raw("\"")
        if let action = c.field {
            out.raw(" name=\"action\" value=\"")
            out.text(action)
            out.raw("\"")
        }
        if c.disabled { out.raw(" disabled") }
        out.raw(">")
        out.text(c.label ?? "")
        out.raw("</button>\n")
    }

    func writeMultiChoice(
        _ c: Control, choices: [Choice], selected: [String], style: MultiChoiceStyle, _ field: FieldView, messages: Int,
        to out: inout HTMLBytes
    ) {
        if style == .list {
            writeLabel(c, to: &out)
            out.raw("<select multiple")
            writeCommon(c, field, messages: messages, to: &out)
            out.raw(" size=\"")
            out.int(min(max(choices.count, 2), 8))
            out.raw("\">\n")
            for choice in choices { writeOption(choice, selected: selected.contains(choice.value), to: &out) }
            out.raw("</select>\n")
            return
        }
        writeChoiceFieldset("<fieldset class=\"fw-checkboxes\" id=\"", "\"", c, field, messages: messages, to: &out)
        for (i, choice) in choices.enumerated() {
            writeChoiceInput(
                "<div class=\"fw-checkbox\"><input type=\"checkbox\" id=\"", c, field, i, choice,
                checked: selected.contains(choice.value), required: false, between: "> <label for=\"",
                close: "</label></div>\n", to: &out)
        }
        out.raw("</fieldset>\n")
    }

    func writeNumber(
        _ c: Control, value: Double?, minimum: Double?, maximum: Double?, step: Double?, style: NumberStyle, _ field: FieldView,
        messages: Int, to out: inout HTMLBytes
    ) {
        writeLabel(c, to: &out)
        out.raw("<input")
        writeCommon(c, field, messages: messages, to: &out)
        switch style {
        case .slider: out.raw(" type=\"range\" class=\"fw-slider\"")
        case .stepper: out.raw(" type=\"number\" inputmode=\"decimal\" class=\"fw-stepper\"")
        case .field: out.raw(" type=\"number\" inputmode=\"decimal\"")
        }
        let isValue = c.field != nil && c.field == field.valueField
        func attribute(_ name: StaticString, _ v: Double?) {
            guard let v else { return }
            out.raw(name)
            out.html(NumberText.format(v))
            out.raw("\"")
        }
        attribute(" min=\"", (isValue ? field.rules.minimum?.value : nil) ?? minimum)
        attribute(" max=\"", (isValue ? field.rules.maximum?.value : nil) ?? maximum)
        out.raw(" step=\"")
        out.html(((isValue ? field.rules.step?.value : nil) ?? step).map(NumberText.format) ?? "any")
        out.raw("\"")
        attribute(" value=\"", value)
        out.raw(">\n")
        if style == .slider {
            out.raw("<output for=\"")
            out.text(c.id)
            out.raw("\" class=\"fw-slider-value\">")
            if let value { out.html(NumberText.format(value)) }
            out.raw("</output>\n")
        }
    }

    func writeDate(_ c: Control, seconds: Double?, mode: DatePickerMode, _ field: FieldView, messages: Int, to out: inout HTMLBytes) {
        let mode = mode == .default ? (field.textInput.traits.dateMode ?? .dateAndTime) : mode
        let (type, format): (StaticString, (Double) -> String) =
            switch mode {
            case .date: ("date", { String(DateFormat.iso8601($0).prefix(10)) })
            case .time: ("time", { DateText.format($0, mode: .time) })
            case .countdown: ("time", { DateText.format($0, mode: .time) })
            case .dateAndTime, .default:
                (
                    "datetime-local",
                    { v in
                        let iso = DateFormat.iso8601(v)
                        return String(iso.prefix(10)) + "T" + DateText.format(v, mode: .time)
                    }
                )
            }
        writeLabel(c, to: &out)
        out.raw("<input")
        writeCommon(c, field, messages: messages, to: &out)
        out.raw(" type=\"")
        out.raw(type)
        out.raw("\"")
        func attribute(_ name: StaticString, _ v: Double?) {
            guard let v else { return }
            out.raw(name)
            out.html(format(v))
            out.raw("\"")
        }
        attribute(" value=\"", seconds)
        attribute(" min=\"", field.minimum)
        attribute(" max=\"", field.maximum)
        out.raw(">\n")
    }

    func writeChoice(
        _ c: Control, choices: [Choice], selected: String?, style: ChoiceStyle, _ field: FieldView, messages: Int, to out: inout HTMLBytes
    ) {
        if style == .segments {
            writeChoiceFieldset(
                "<fieldset class=\"fw-segments\" id=\"", "\" role=\"radiogroup\"", c, field, messages: messages, to: &out)
            for (i, choice) in choices.enumerated() {
                writeChoiceInput(
                    "<input type=\"radio\" id=\"", c, field, i, choice, checked: choice.value == selected, required: c.required,
                    between: "><label for=\"", close: "</label>\n", to: &out)
            }
            out.raw("</fieldset>\n")
            return
        }
        writeLabel(c, to: &out)
        out.raw("<select")
        writeCommon(c, field, messages: messages, to: &out)
        out.raw(">\n")
        if selected == nil || !choices.contains(where: { $0.value == selected }) {
            out.html("<option value=\"\" disabled selected>\(escape(loc("Choose…")))</option>\n")
        }
        for choice in choices { writeOption(choice, selected: choice.value == selected, to: &out) }
        out.raw("</select>\n")
    }

    func writeTextInput(_ c: Control, text: String?, placeholder: String?, _ field: FieldView, messages: Int, to out: inout HTMLBytes) {
        writeLabel(c, to: &out)
        out.raw(c.multiline ? "<textarea" : "<input")
        writeCommon(c, field, messages: messages, to: &out)
        let isValue = c.field != nil && c.field == field.valueField
        // A file field: the browser's picker, filtered by type; a file cannot be written back into a page, so a
        // page shown again (refused, or resumed) asks for it again.
        if isValue, !c.multiline, let upload = field.rules.upload {
            out.raw(" type=\"file\"")
            if !upload.accept.isEmpty {
                out.raw(" accept=\"")
                out.text(upload.htmlAccept)
                out.raw("\"")
            }
            return out.raw(">\n")
        }
        writeTextAttributes(field.textInput.traits, multiline: c.multiline, to: &out)
        if let placeholder {
            out.raw(" placeholder=\"")
            out.text(placeholder)
            out.raw("\"")
        }
        if let max = field.rules.maxLength?.value ?? field.maxLength, isValue {
            out.raw(" maxlength=\"")
            out.html(String(max))
            out.raw("\"")
        }
        if isValue, let min = field.rules.minLength?.value {
            out.raw(" minlength=\"")
            out.html(String(min))
            out.raw("\"")
        }
        // Browsers check minlength only after the user edits; a pattern is also checked on a prefilled
        // value (a re-rendered submission), so a length or http(s)-only rule without a pattern gets one. A rule's
        // pattern that a browser would read otherwise (or refuse) is left to the server: one attribute, the same answer.
        let rulePattern = field.rules.pattern.flatMap { PatternCache.compiled($0.value)?.isBrowserCompatible == true ? $0.value : nil }
        if isValue, !c.multiline,
            let pattern = rulePattern ?? field.rules.format?.value.browserPattern
                ?? field.rules.minLength.map({ "[\\s\\S]{\($0.value),}" })
        {
            out.raw(" pattern=\"")
            out.text(pattern)
            out.raw("\"")
        }
        if c.multiline {
            out.raw(" rows=\"")
            out.int(field.textInput.traits.rows ?? 4)
            out.raw("\">")
            out.text(text ?? "")
            out.raw("</textarea>\n")
            return
        }
        // A format rule decides the input type (and so the browser's own check), unless the entry is secure.
        if isValue, let format = field.rules.format?.value, field.textInput.secureEntry != true,
            let type = Self.formatInputTypes[format.rawValue]
        {
            out.raw(type)
        } else {
            writeInputType(field.textInput.traits, to: &out)
        }
        // A secure entry's value is never written into the page (the runtime masks it, and a mask is no value).
        if let text, field.textInput.secureEntry != true {
            out.raw(" value=\"")
            out.text(text)
            out.raw("\"")
        }
        let suggestions = isValue ? field.textInput.traits.suggestions : []
        guard !suggestions.isEmpty else { return out.raw(">\n") }
        // Suggestions, not choices: any text is still accepted.
        out.raw(" list=\"")
        out.text(c.id)
        out.raw("-suggestions\">\n<datalist id=\"")
        out.text(c.id)
        out.raw("-suggestions\">")
        for suggestion in suggestions {
            out.raw("<option value=\"")
            out.text(suggestion)
            out.raw("\">")
        }
        out.raw("</datalist>\n")
    }

    /// The input types a format rule sets (and the keyboard for them).
    static let formatInputTypes: [String: StaticString] = [
        "email": " type=\"email\" inputmode=\"email\"", "url": " type=\"url\" inputmode=\"url\"",
        "tel": " type=\"tel\" inputmode=\"tel\"", "date": " type=\"date\"",
    ]

    static let requiredMark: StaticString = "<span class=\"fw-required\" aria-hidden=\"true\"> *</span>"

    /// A control's label on a line of its own.
    func writeLabel(_ c: Control, to out: inout HTMLBytes) {
        writeLabelElement(c, to: &out)
        out.raw("\n")
    }

    /// `<label for="…">…</label>`, with the required mark.
    func writeLabelElement(_ c: Control, to out: inout HTMLBytes) {
        out.raw("<label for=\"")
        out.text(c.id)
        out.raw("\">")
        out.text(c.label ?? "")
        if c.required { out.raw(Self.requiredMark) }
        out.raw("</label>")
    }

    /// A group's legend, when the control has a label.
    /// A fieldset of choices (segments, checkboxes): `open`, the control's id, `attributes`, the messages
    /// that describe it, then its legend.
    func writeChoiceFieldset(
        _ open: StaticString, _ attributes: StaticString, _ c: Control, _ field: FieldView, messages: Int, to out: inout HTMLBytes
    ) {
        out.raw(open)
        out.text(c.id)
        out.raw(attributes)
        // A radio group says it is required as a group (its radios carry `required` for the browser's own check).
        if c.required && attributes.description.contains("radiogroup") { out.raw(" aria-required=\"true\"") }
        writeDescribed(field, messages: messages, to: &out)
        out.raw(">\n")
        writeLegend(c, to: &out)
    }

    func writeLegend(_ c: Control, to out: inout HTMLBytes) {
        guard let l = c.label else { return }
        out.raw("<legend>")
        out.text(l)
        if c.required { out.raw(Self.requiredMark) }
        out.raw("</legend>\n")
    }

    /// The id of a control's `i`th radio button or checkbox: `<control id>-<i>`.
    func writeItemID(_ c: Control, _ i: Int, to out: inout HTMLBytes) {
        out.text(c.id)
        out.raw("-")
        out.int(i)
    }

    /// One radio button or checkbox of a choice control, then its label: `open` ends with the id's opening
    /// quote, `between` goes from the input to the label's `for` value, `close` ends the label.
    func writeChoiceInput(
        _ open: StaticString, _ c: Control, _ field: FieldView, _ i: Int, _ choice: Choice, checked: Bool, required: Bool,
        between: StaticString, close: StaticString, to out: inout HTMLBytes
    ) {
        out.raw(open)
        writeItemID(c, i, to: &out)
        out.raw("\" name=\"")
        writeName(c, field, to: &out)
        out.raw("\" value=\"")
        out.text(choice.value)
        out.raw("\"")
        if checked { out.raw(" checked") }
        if c.disabled { out.raw(" disabled") }
        if required { out.raw(conditional ? " data-required" : " required") }
        out.raw(between)
        writeItemID(c, i, to: &out)
        out.raw("\">")
        out.text(choice.label)
        out.raw(close)
    }

    func writeOption(_ choice: Choice, selected: Bool, to out: inout HTMLBytes) {
        out.raw("<option value=\"")
        out.text(choice.value)
        out.raw(selected ? "\" selected>" : "\">")
        out.text(choice.label)
        out.raw("</option>\n")
    }

    /// The submitted name: the field id for its value control, `field.modelField` for others.
    func writeName(_ c: Control, _ field: FieldView, to out: inout HTMLBytes) {
        out.text(field.id)
        guard let model = c.field, c.id != field.accessibilityId else { return }
        out.raw(".")
        out.text(model)
    }

    func writeCommon(_ c: Control, _ field: FieldView, messages: Int, to out: inout HTMLBytes) {
        out.raw(" id=\"")
        out.text(c.id)
        out.raw("\" name=\"")
        writeName(c, field, to: &out)
        out.raw("\"")
        if c.required { out.raw(conditional ? " data-required aria-required=\"true\"" : " required aria-required=\"true\"") }
        if c.disabled { out.raw(" disabled") }
        if invalid { out.raw(" aria-invalid=\"true\"") }
        writeDescribed(field, messages: messages, to: &out)
    }

    func writeInputType(_ t: TextInputTraits, to out: inout HTMLBytes) {
        if t.secureEntry == true { return out.raw(" type=\"password\"") }
        switch t.keyboard {
        case .email?: out.raw(" type=\"email\" inputmode=\"email\"")
        case .url?: out.raw(" type=\"url\" inputmode=\"url\"")
        case .phonePad?, .namePhonePad?: out.raw(" type=\"tel\" inputmode=\"tel\"")
        // The keyboard alone: a `pattern` here would be a second one beside a rule's, and would refuse what
        // `validate` accepts (a sign, a decimal point).
        case .numberPad?: out.raw(" type=\"text\" inputmode=\"numeric\"")
        case .decimalPad?: out.raw(" type=\"text\" inputmode=\"decimal\"")
        case .numbersAndPunctuation?: out.raw(" type=\"text\" inputmode=\"decimal\"")
        case .webSearch?: out.raw(" type=\"search\" inputmode=\"search\"")
        default: out.raw(" type=\"text\"")
        }
    }

    func writeTextAttributes(_ t: TextInputTraits, multiline: Bool, to out: inout HTMLBytes) {
        if let content = t.contentType {
            out.raw(" autocomplete=\"")
            out.text(Self.autocomplete(content))
            out.raw("\"")
        }
        switch t.autocapitalization {
        case .none?: out.raw(" autocapitalize=\"none\"")
        case .words?: out.raw(" autocapitalize=\"words\"")
        case .sentences?: out.raw(" autocapitalize=\"sentences\"")
        case .allCharacters?: out.raw(" autocapitalize=\"characters\"")
        default: break
        }
        if let spell = t.spellChecking { out.raw(spell ? " spellcheck=\"true\"" : " spellcheck=\"false\"") }
        if let correct = t.autocorrection { out.raw(correct ? " autocorrect=\"on\"" : " autocorrect=\"off\"") }
        switch t.returnKey {
        case .go?, .join?: out.raw(" enterkeyhint=\"go\"")
        case .next?, .continue?: out.raw(" enterkeyhint=\"next\"")
        case .done?: out.raw(" enterkeyhint=\"done\"")
        case .search?: out.raw(" enterkeyhint=\"search\"")
        case .send?: out.raw(" enterkeyhint=\"send\"")
        default: break
        }
        if multiline && !t.dataDetectors.isEmpty {
            out.raw(" data-detectors=\"")
            out.html(t.dataDetectors.map(\.rawValue).joined(separator: " "))
            out.raw("\"")
        }
        if multiline, t.selectable == false { out.raw(" readonly") }
        if t.autofocus == true { out.raw(" autofocus") }
    }
    /// UIKit-style content types to HTML autocomplete tokens.
    static func autocomplete(_ contentType: String) -> String {
        let map = [
            "username": "username", "password": "current-password", "newPassword": "new-password",
            "email": "email", "emailAddress": "email", "name": "name", "givenName": "given-name",
            "familyName": "family-name", "nickname": "nickname", "tel": "tel", "telephoneNumber": "tel",
            "url": "url", "URL": "url", "oneTimeCode": "one-time-code", "postalCode": "postal-code",
            "streetAddressLine1": "address-line1", "streetAddressLine2": "address-line2", "fullStreetAddress": "street-address",
            "addressCity": "address-level2", "countryName": "country-name", "organizationName": "organization",
            "jobTitle": "organization-title", "creditCardNumber": "cc-number", "birthdate": "bday",
        ]
        return map[contentType] ?? contentType
    }

    func escape(_ s: String) -> String { HTML.escape(s) }

    /// A served page's extra rules: the error summary (a bordered box, as GOV.UK's) and the buttons a server adds.
    static let pageStylesheet = """
        .fw-error-summary { border: 4px solid var(--fw-danger); padding: .75rem 1rem; margin: 0 0 1.5rem; background: var(--fw-bg); }
        .fw-notice { border: 4px solid var(--fw-accent); padding: .75rem 1rem; margin: 0 0 1.5rem; background: var(--fw-bg); }
        .fw-notice h2 { margin: 0 0 .5rem; font-size: 1.25rem; }
        .fw-notice p { margin: .25rem 0; }
        .fw-notice-link { overflow-wrap: anywhere; color: var(--fw-accent); }
        .fw-error-summary:focus { outline: 3px solid var(--fw-accent); outline-offset: 2px; }
        .fw-error-summary h2 { margin: 0 0 .5rem; font-size: 1.25rem; }
        .fw-error-summary ul { margin: 0; padding-inline-start: 1.2rem; }
        .fw-error-summary a { color: var(--fw-danger); font-weight: 600; }
        .fw-actions { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1.5rem; }
        .fw-form [aria-invalid="true"] { border: 2px solid var(--fw-danger); }
        """

    /// The page's style. Sections and fields are `content-visibility: auto`: one off the screen is neither styled,
    /// laid out nor painted until it comes near it (it stays in the accessibility tree, focus and find-in-page reach
    /// it), so a keystroke that shows or hides fields all over a long form lays out what is on the screen only, and
    /// the first frame of a long form draws the first screen's fields, not the whole first section
    /// (Benchmarks/browser-bench, docs/performance.md). Such an element clips what it paints to its padding box: a
    /// field's 6px of padding, taken back by its margins (and by the legend's margin above a section's first field,
    /// which clears the floated legend), is where a control's focus outline is drawn.
    static let stylesheet = """

        :root { color-scheme: light dark; --fw-accent: #2563eb; --fw-danger: #dc2626; --fw-muted: #6b7280; --fw-border: #d1d5db; --fw-bg: #ffffff; --fw-page: #f3f4f6; }
        @media (prefers-color-scheme: dark) { :root { --fw-bg: #1f2937; --fw-page: #111827; --fw-border: #4b5563; --fw-muted: #9ca3af; --fw-danger: #f87171; --fw-warning: #fbbf24; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--fw-page); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
        main { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
        h1 { font-size: 1.6rem; margin: 0 0 1rem; }
        .fw-page { margin: 0 0 2rem; }
        .fw-items { display: grid; gap: .75rem; }
        .fw-item { border: 1px dashed var(--fw-border); border-radius: 8px; padding: .5rem .75rem; margin: 0; }
        .fw-item > legend { font-weight: 600; padding: 0 .3rem; }
        .fw-item-add, .fw-item-remove { justify-self: start; }
        .fw-page > h2 { font-size: 1.15rem; margin: 1.5rem 0 .75rem; }
        .fw-page-nav { display: flex; gap: .75rem; justify-content: flex-end; margin: 0 0 1.25rem; }
        [hidden] { display: none !important; }
        .fw-section { background: var(--fw-bg); border: 1px solid var(--fw-border); border-radius: 12px; padding: 1rem 1.25rem; margin: 0 0 1.25rem; content-visibility: auto; contain-intrinsic-block-size: auto 40rem; }
        .fw-section > legend { float: inline-start; width: 100%; margin: 0 0 .6rem; padding: 0; font-weight: 600; font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--fw-muted); overflow-wrap: anywhere; }
        .fw-section > legend + * { clear: both; }
        .fw-section > legend:has(+ .fw-field) { margin-bottom: calc(.6rem - 6px); }
        .fw-field { display: flex; flex-direction: column; gap: .3rem; padding: 6px; margin: -6px -6px calc(var(--fw-spacing, .9rem) - 6px); content-visibility: auto; contain-intrinsic-block-size: auto 4.5rem; }
        .fw-field > label, .fw-segments > legend { font-weight: 500; }
        input[type=text], input[type=email], input[type=url], input[type=tel], input[type=password], input[type=search],
        input[type=date], input[type=time], input[type=datetime-local], input[type=number], select, textarea {
          font: inherit; padding: .55rem .7rem; border: 1px solid var(--fw-border); border-radius: 8px; background: transparent; color: inherit; width: 100%; }
        input[type=file] { font: inherit; color: inherit; padding: .4rem; border: 1px dashed var(--fw-border); border-radius: 8px; width: 100%; }
        input[type=file]::file-selector-button { font: inherit; margin-inline-end: .75rem; padding: .4rem .9rem; border: 1px solid var(--fw-border); border-radius: 6px; background: var(--fw-page); color: inherit; cursor: pointer; }
        input:focus, select:focus, textarea:focus, button:focus { outline: 2px solid var(--fw-accent); outline-offset: 1px; }
        input:disabled, select:disabled, textarea:disabled, button:disabled { opacity: .55; }
        .fw-required { color: var(--fw-danger); }
        .fw-toggle { display: flex; align-items: center; gap: .6rem; }
        .fw-toggle input { appearance: none; -webkit-appearance: none; flex: none; position: relative; width: 2.4rem; height: 1.3rem; margin: 0; border-radius: 1rem; background: var(--fw-muted); cursor: pointer; transition: background .15s; }
        .fw-toggle input::before { content: ""; position: absolute; top: .15rem; inset-inline-start: .15rem; width: 1rem; height: 1rem; border-radius: 50%; background: #fff; transition: transform .15s; }
        .fw-toggle input:checked { background: var(--fw-accent); }
        .fw-toggle input:checked::before { transform: translateX(1.1rem); }
        [dir=rtl] .fw-toggle input:checked::before { transform: translateX(-1.1rem); }
        .fw-toggle input:focus-visible { outline: 2px solid var(--fw-accent); outline-offset: 2px; }
        @media (forced-colors: active) { .fw-toggle input { border: 1px solid CanvasText; } .fw-toggle input::before { background: CanvasText; } }
        .fw-segments { display: flex; flex-wrap: wrap; gap: 0; border: 0; padding: 0; margin: 0; }
        .fw-segments > legend { margin-bottom: .3rem; }
        .fw-segments input { position: absolute; opacity: 0; }
        .fw-segments label { padding: .4rem .9rem; border: 1px solid var(--fw-border); margin-inline-start: -1px; cursor: pointer; }
        .fw-segments label:first-of-type { border-start-start-radius: 8px; border-end-start-radius: 8px; margin-inline-start: 0; }
        .fw-segments label:last-of-type { border-start-end-radius: 8px; border-end-end-radius: 8px; }
        .fw-segments input:checked + label { background: var(--fw-accent); color: #fff; border-color: var(--fw-accent); }
        .fw-segments input:focus-visible + label { outline: 2px solid var(--fw-accent); }
        .fw-button { font: inherit; font-weight: 600; padding: .6rem 1.2rem; border-radius: 8px; border: 1px solid var(--fw-border); background: transparent; color: inherit; cursor: pointer; }
        .fw-primary { background: var(--fw-accent); border-color: var(--fw-accent); color: #fff; }
        .fw-destructive { color: var(--fw-danger); border-color: var(--fw-danger); }
        .fw-cancel { color: var(--fw-muted); }
        .fw-message { margin: 0; font-size: .875rem; }
        .fw-hint, .fw-footer { color: var(--fw-muted); }
        .fw-error { color: var(--fw-danger); }
        .fw-warning { color: var(--fw-warning, #b45309); }
        .fw-visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
        .fw-footer { font-size: .875rem; margin: .25rem 0 0; }
        .fw-description { margin: -.5rem 0 1.25rem; }
        .fw-description a, .fw-footer a, .fw-hint a { color: inherit; text-decoration: underline; }
        .fw-description p, .fw-footer p, .fw-hint p { margin: 0 0 .5rem; }
        .fw-description ul, .fw-description ol, .fw-footer ul, .fw-footer ol, .fw-hint ul, .fw-hint ol { margin: 0 0 .5rem; padding-inline-start: 1.5rem; }
        code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
        .fw-label { margin: 0; }
        .fw-title { font-size: 1.2rem; font-weight: 600; }
        .fw-caption { font-size: .85rem; color: var(--fw-muted); }
        .fw-emphasis { font-weight: 600; }
        .fw-value { display: flex; justify-content: space-between; gap: 1rem; }
        .fw-value-label { font-weight: 500; }
        .fw-value output { font-variant-numeric: tabular-nums; }
        .fw-group.fw-row { display: flex; flex-direction: column; gap: .3rem; }
        .fw-stepper { max-width: 10rem; }
        .fw-slider { width: 100%; accent-color: var(--fw-accent); }
        .fw-slider-value { font-variant-numeric: tabular-nums; }
        .fw-checkboxes { border: 0; padding: 0; margin: 0; display: flex; flex-direction: column; gap: .25rem; }
        .fw-checkboxes > legend { font-weight: 500; margin-bottom: .3rem; }
        .fw-checkbox { display: flex; align-items: center; gap: .5rem; }
        .fw-checkbox input { accent-color: var(--fw-accent); width: 1.1rem; height: 1.1rem; }

        """
}

package enum HTML {
    /// Escapes text and attribute values (&, <, >, ", ') and neutralises control characters as
    /// `TerminalText.safe` does (an HTML page printed to a terminal must not carry an escape sequence
    /// to it, and HTML forbids them anyway): tabs, line feeds and carriage returns are kept.
    package static func escape(_ s: String) -> String {
        UTF8Bytes.with(s) { bytes in
            // Most text has nothing to escape: returned as it is (the same bytes `appendEscaped` would write).
            guard UTF8Bytes.mayNeedHTMLEscape(bytes) else { return s }
            let out = ByteBuffer(capacity: bytes.count + 16)
            appendEscaped(bytes, to: out)
            return out.string
        }
    }
}
