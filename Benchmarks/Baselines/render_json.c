/*
 * The C baseline for `formwork render FORM.json --format text|html|json` on the
 * suite's generated document: parse the document with cJSON, walk every section and
 * field, and write what formwork writes, with no validation, no plug-ins and no cells
 * (what each of the document's five cell types shows is written here directly).
 *
 *   render_json FILE [text]     the form as formwork's text renderer writes it at 80
 *                               columns: the same bytes for the suite's document
 *   render_json FILE json       the view tree as formwork's JSON renderer writes it:
 *                               the same bytes for the suite's document
 *   render_json FILE html       the document's <main> as formwork's HTML renderer
 *                               writes it: the same bytes from <main> on (the fixed
 *                               <head> and its style sheet are left out)
 *
 * Strings from the document are escaped as formwork escapes them (a run that needs no
 * escape is written whole).
 * Build: cc -O2 render_json.c -o render_json -lcjson
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_form.h"

static char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buffer = malloc((size_t)n + 1);
    if (buffer && fread(buffer, 1, (size_t)n, f) != (size_t)n) { free(buffer); buffer = NULL; }
    fclose(f);
    if (buffer) buffer[n] = 0;
    *size = (size_t)n;
    return buffer;
}

static const cJSON *member(const cJSON *object, const char *key) { return cJSON_GetObjectItemCaseSensitive(object, key); }
static const char *string_member(const cJSON *object, const char *key) {
    const cJSON *v = member(object, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* A JSON string: quotes, and escapes for quotes, backslashes, controls (C0, DEL, C1) and U+2028/U+2029. */
static void json_string(FILE *out, const char *s) {
    size_t n = strlen(s), i;
    for (i = 0; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if (b < 0x20 || b == '"' || b == '\\' || b == 0x7F || b == 0xC2 || b == 0xE2) break;
    }
    putc('"', out);
    if (i == n) { fwrite(s, 1, n, out); putc('"', out); return; }
    fwrite(s, 1, i, out);
    for (; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if (b == '"') fputs("\\\"", out);
        else if (b == '\\') fputs("\\\\", out);
        else if (b == '\n') fputs("\\n", out);
        else if (b == '\r') fputs("\\r", out);
        else if (b == '\t') fputs("\\t", out);
        else if (b < 0x20 || b == 0x7F) fprintf(out, "\\u%04x", b);
        else if (b == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F) {
            fprintf(out, "\\u%04x", (unsigned char)s[i + 1]);
            i++;
        } else if (b == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 && ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9)) {
            fprintf(out, "\\u%s", (unsigned char)s[i + 2] == 0xA8 ? "2028" : "2029");
            i += 2;
        } else putc(b, out);
    }
    putc('"', out);
}

/* HTML text or an attribute value: & < > " ' escaped; controls shown as their Unicode pictures. */
static void html_text(FILE *out, const char *s) {
    size_t n = strlen(s), i;
    for (i = 0; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if (b < 0x20 || b == '&' || b == '<' || b == '>' || b == '"' || b == '\'' || b == 0x7F || b == 0xC2) break;
    }
    if (i == n) { fwrite(s, 1, n, out); return; }
    fwrite(s, 1, i, out);
    for (; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if (b == '&') fputs("&amp;", out);
        else if (b == '<') fputs("&lt;", out);
        else if (b == '>') fputs("&gt;", out);
        else if (b == '"') fputs("&quot;", out);
        else if (b == '\'') fputs("&#39;", out);
        else if (b == '\n' || b == '\t' || b == '\r') putc(b, out);
        else if (b < 0x20) { putc(0xE2, out); putc(0x90, out); putc(0x80 + b, out); }
        else if (b == 0x7F) fputs("\xE2\x90\xA1", out);
        else putc(b, out);
    }
}

/* The rating cell's text from the model's value and labels. */
static void json_rating(char *text, size_t size, const cJSON *model) {
    const char *labels[8];
    int count = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, member(model, "labels")) {
        if (count < 8) labels[count++] = cJSON_IsString(item) ? item->valuestring : NULL;
    }
    rating_text(text, size, (int)cJSON_GetNumberValue(member(model, "value")), labels, count);
}

/* The form as the text renderer writes it (text_form.h), a section at a time. */
static void text_form(FILE *out, const cJSON *root) {
    const cJSON *title = member(root, "title");
    if (cJSON_IsString(title)) text_underlined(out, title->valuestring, '=');
    struct text_field *fields = NULL;
    int capacity = 0;
    const cJSON *section;
    cJSON_ArrayForEach(section, member(root, "sections")) {
        int n = 0;
        const cJSON *field;
        cJSON_ArrayForEach(field, member(section, "fields")) {
            if (n == capacity) {
                capacity = capacity ? 2 * capacity : 1024;
                fields = realloc(fields, (size_t)capacity * sizeof *fields);
                if (!fields) exit(71);
            }
            const cJSON *model = member(field, "model");
            struct text_field *f = &fields[n++];
            memset(f, 0, sizeof *f);
            f->cell = string_member(field, "cell");
            f->title = string_member(model, "title");
            f->hint = string_member(model, "hint");
            f->currency = string_member(model, "currency");
            const cJSON *value = member(model, "value");
            f->value = cJSON_IsString(value) ? value->valuestring : "";
            f->number = cJSON_IsBool(value) ? cJSON_IsTrue(value)
                        : cJSON_IsNumber(value) ? value->valuedouble
                                                : cJSON_GetNumberValue(member(model, "amount"));
            const cJSON *list = member(model, "choices"), *item;
            if (!list) list = member(model, "labels");
            cJSON_ArrayForEach(item, list) {
                if (f->count < 8) f->list[f->count++] = cJSON_IsString(item) ? item->valuestring : "";
            }
        }
        const cJSON *header = member(section, "header");
        text_section(out, cJSON_IsString(header) ? header->valuestring : NULL, fields, n);
    }
    free(fields);
}

/* `before`, the string as JSON, `after`. */
static void json_between(FILE *out, const char *before, const char *text, const char *after) {
    fputs(before, out);
    json_string(out, text);
    fputs(after, out);
}

/* A value view inside a row group (the rating and money cells), at the views' indent. */
static void json_row_value(FILE *out, const char *label, const char *text) {
    json_between(out, "            {\n              \"type\": \"group\",\n              \"role\": \"row\",\n              \"children\": [\n"
          "                {\n                  \"type\": \"value\",\n                  \"label\": ", label, ",\n                  \"text\": ");
    json_string(out, text);
    fputs("\n                }\n              ]\n            }\n", out);
}

static void json_form(FILE *out, const cJSON *root) {
    fputs("{\n  \"formwork\": 1,\n  \"form\": {\n    \"id\": ", out);
    json_string(out, string_member(root, "id"));
    if (cJSON_IsString(member(root, "title"))) {
        fputs(",\n    \"title\": ", out);
        json_string(out, string_member(root, "title"));
    }
    /* The view tree says the form's language (the document's `language`, English when not given). */
    fputs(",\n    \"language\": ", out);
    json_string(out, cJSON_IsString(member(root, "language")) ? string_member(root, "language") : "en");
    fputs("\n  },\n  \"sections\": [", out);
    const cJSON *section;
    int s = 0;
    cJSON_ArrayForEach(section, member(root, "sections")) {
        fputs(s++ ? ",\n    {\n      \"id\": " : "\n    {\n      \"id\": ", out);
        json_string(out, string_member(section, "id"));
        if (cJSON_IsString(member(section, "header"))) {
            fputs(",\n      \"header\": ", out);
            json_string(out, string_member(section, "header"));
        }
        fputs(",\n      \"fields\": [", out);
        const cJSON *field;
        int f = 0;
        cJSON_ArrayForEach(field, member(section, "fields")) {
            const char *id = string_member(field, "id"), *cell = string_member(field, "cell");
            const cJSON *model = member(field, "model");
            const char *title = string_member(model, "title");
            fputs(f++ ? ",\n        {\n          \"id\": " : "\n        {\n          \"id\": ", out);
            json_string(out, id);
            json_between(out, ",\n          \"cell\": ", cell, ",\n          \"accessibilityId\": ");
            json_string(out, id);
            fputs(",\n          \"required\": false,\n", out);
            char text[256];
            if (!strcmp(cell, "org.formwork.text-field")) {
                json_between(out, "          \"textInput\": {\n            \"kind\": \"textField\",\n            \"field\": \"value\",\n"
                      "            \"traits\": {\n              \"autocapitalization\": \"sentences\",\n"
                      "              \"returnKey\": \"next\",\n              \"clearButton\": \"whileEditing\"\n            }\n"
                      "          },\n          \"maxLength\": 10000,\n          \"views\": [\n            {\n"
                      "              \"type\": \"textInput\",\n              \"id\": ", id, ",\n              \"field\": \"value\",\n              \"label\": ");
                json_string(out, title);
                json_between(out, ",\n              \"text\": ", string_member(model, "value"), "\n            },\n            {\n              \"type\": \"message\",\n              \"kind\": \"hint\",\n"
                      "              \"text\": ");
                json_string(out, string_member(model, "hint"));
                fputs("\n            }\n", out);
            } else if (!strcmp(cell, "org.formwork.toggle")) {
                json_between(out, "          \"views\": [\n            {\n              \"type\": \"toggle\",\n              \"id\": ", id, ",\n              \"field\": \"value\",\n              \"label\": ");
                json_string(out, title);
                fprintf(out, ",\n              \"on\": %s\n            }\n", cJSON_IsTrue(member(model, "value")) ? "true" : "false");
            } else if (!strcmp(cell, "org.formwork.c.rating")) {
                fputs("          \"views\": [\n", out);
                json_rating(text, sizeof text, model);
                json_row_value(out, title, text);
            } else if (!strcmp(cell, "org.formwork.picker")) {
                json_between(out, "          \"textInput\": {\n            \"kind\": \"picker\",\n            \"field\": \"value\",\n"
                      "            \"traits\": {}\n          },\n          \"views\": [\n            {\n"
                      "              \"type\": \"choice\",\n              \"id\": ", id, ",\n              \"field\": \"value\",\n              \"label\": ");
                json_string(out, title);
                fputs(",\n              \"style\": \"menu\",\n              \"choices\": [", out);
                const cJSON *choice;
                int c = 0;
                cJSON_ArrayForEach(choice, member(model, "choices")) {
                    fputs(c++ ? ",\n                {\n                  \"value\": " : "\n                {\n                  \"value\": ", out);
                    json_string(out, cJSON_IsString(choice) ? choice->valuestring : "");
                    json_between(out, ",\n                  \"label\": ", cJSON_IsString(choice) ? choice->valuestring : "", "\n                }");
                }
                json_between(out, "\n              ],\n              \"selected\": ", string_member(model, "value"), "\n            }\n");
            } else {
                fputs("          \"views\": [\n", out);
                money_text(text, sizeof text, cJSON_GetNumberValue(member(model, "amount")), string_member(model, "currency"));
                json_row_value(out, title, text);
            }
            fputs("          ]\n        }", out);
        }
        fputs(f ? "\n      ]\n    }" : "]\n    }", out);
    }
    fputs(s ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* A value view inside a row group (the rating and money cells). */
static void html_row_value(FILE *out, const char *label, const char *text) {
    fputs("<div class=\"fw-group fw-row\">\n<div class=\"fw-value\"><span class=\"fw-value-label\">", out);
    html_text(out, label);
    fputs("</span> <output>", out);
    html_text(out, text);
    fputs("</output></div>\n</div>\n", out);
}

/* `before`, the text escaped, `after`. */
static void html_between(FILE *out, const char *before, const char *text, const char *after) {
    fputs(before, out);
    html_text(out, text);
    fputs(after, out);
}

static void html_form(FILE *out, const cJSON *root) {
    html_between(out, "<main>\n<form id=\"", string_member(root, "id"), "\" class=\"fw-form\" method=\"post\" action=\"\">\n");
    if (cJSON_IsString(member(root, "title"))) {
        html_between(out, "<h1>", string_member(root, "title"), "</h1>\n");
    }
    const cJSON *section;
    cJSON_ArrayForEach(section, member(root, "sections")) {
        html_between(out, "<fieldset class=\"fw-section\" id=\"section-", string_member(section, "id"), "\">\n");
        if (cJSON_IsString(member(section, "header"))) {
            html_between(out, "<legend>", string_member(section, "header"), "</legend>\n");
        }
        const cJSON *field;
        cJSON_ArrayForEach(field, member(section, "fields")) {
            const char *id = string_member(field, "id"), *cell = string_member(field, "cell");
            const cJSON *model = member(field, "model");
            const char *title = string_member(model, "title");
            char text[256];
            html_between(out, "<div class=\"fw-field\" data-field=\"", id, "\" data-cell=\"");
            html_text(out, cell);
            fputs("\">\n", out);
            if (!strcmp(cell, "org.formwork.text-field")) {
                html_between(out, "<label for=\"", id, "\">");
                html_text(out, title);
                html_between(out, "</label>\n<input id=\"", id, "\" name=\"");
                html_text(out, id);
                html_between(out, "\" aria-describedby=\"", id, "-message-1\" autocapitalize=\"sentences\" enterkeyhint=\"next\" maxlength=\"10000\" type=\"text\" value=\"");
                html_text(out, string_member(model, "value"));
                html_between(out, "\">\n<p class=\"fw-message fw-hint\" id=\"", id, "-message-1\">");
                html_text(out, string_member(model, "hint"));
                fputs("</p>\n", out);
            } else if (!strcmp(cell, "org.formwork.toggle")) {
                html_between(out, "<div class=\"fw-toggle\"><input id=\"", id, "\" name=\"");
                html_text(out, id);
                fputs(cJSON_IsTrue(member(model, "value")) ? "\" type=\"checkbox\" role=\"switch\" value=\"true\" checked> <label for=\""
                                                            : "\" type=\"checkbox\" role=\"switch\" value=\"true\"> <label for=\"",
                      out);
                html_text(out, id);
                html_between(out, "\">", title, "</label></div>\n");
            } else if (!strcmp(cell, "org.formwork.c.rating")) {
                json_rating(text, sizeof text, model);
                html_row_value(out, title, text);
            } else if (!strcmp(cell, "org.formwork.picker")) {
                html_between(out, "<label for=\"", id, "\">");
                html_text(out, title);
                html_between(out, "</label>\n<select id=\"", id, "\" name=\"");
                html_text(out, id);
                fputs("\">\n", out);
                const char *selected = string_member(model, "value");
                const cJSON *choice;
                cJSON_ArrayForEach(choice, member(model, "choices")) {
                    const char *value = cJSON_IsString(choice) ? choice->valuestring : "";
                    fputs("<option value=\"", out);
                    html_text(out, value);
                    fputs(strcmp(value, selected) ? "\">" : "\" selected>", out);
                    html_text(out, value);
                    fputs("</option>\n", out);
                }
                fputs("</select>\n", out);
            } else {
                money_text(text, sizeof text, cJSON_GetNumberValue(member(model, "amount")), string_member(model, "currency"));
                html_row_value(out, title, text);
            }
            fputs("</div>\n", out);
        }
        fputs("</fieldset>\n", out);
    }
    fputs("</form>\n</main>\n</body>\n</html>\n", out);
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) return 64;
    const char *format = argc == 3 ? argv[2] : "text";
    if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "html")) return 64;
    size_t size;
    char *text = slurp(argv[1], &size);
    if (!text) return 66;
    cJSON *root = cJSON_ParseWithLength(text, size);
    if (!root) return 65;
    FILE *out = stdout;
    static char buffer[1 << 16];
    setvbuf(out, buffer, _IOFBF, sizeof buffer);
    if (!strcmp(format, "json")) json_form(out, root);
    else if (!strcmp(format, "html")) html_form(out, root);
    else text_form(out, root);
    fflush(out);
    cJSON_Delete(root);
    free(text);
    return 0;
}
