/*
 * The text renderer's layout for the suite's generated document, shared by the C
 * baselines render_json.c and render_yaml.c: what formwork's text renderer writes at 80
 * columns for the five cell types of that document (text field, toggle, C rating,
 * picker, C money), byte for byte. A section is written once all its fields are read:
 * its label column is as wide as its widest label (12 to 26 columns), as in formwork.
 */
#ifndef FORMWORK_BASELINE_TEXT_FORM_H
#define FORMWORK_BASELINE_TEXT_FORM_H

#include <stdio.h>
#include <string.h>

/* One field as the baselines read it (strings owned by the caller). */
struct text_field {
    const char *cell;     /* the cell type's identifier */
    const char *title;    /* the label */
    const char *value;    /* text field: the text; picker: the selected choice */
    const char *hint;     /* text field: the hint under it */
    const char *currency; /* money */
    double number;        /* rating: the value; money: the amount; toggle: 1 when on */
    const char *list[8];  /* rating: the labels; picker: the choices */
    int count;            /* entries in list */
};

/* Display columns of UTF-8 text: a column per code point (the document has no wide characters). */
static int text_columns(const char *s) {
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void text_spaces(FILE *out, int n) {
    static const char blank[] = "                                                                                ";
    while (n > 0) {
        int k = n < (int)sizeof blank - 1 ? n : (int)sizeof blank - 1;
        fwrite(blank, 1, (size_t)k, out);
        n -= k;
    }
}

/* A title and its underline, as wide as the title (80 columns at most). */
static void text_underlined(FILE *out, const char *title, char rule) {
    fputs(title, out);
    putc('\n', out);
    int n = text_columns(title);
    for (int k = 0; k < (n < 80 ? n : 80); k++) putc(rule, out);
    putc('\n', out);
}

/* What the rating cell shows: filled and empty stars, two spaces, the value out of five and its label. */
static void rating_text(char *text, size_t size, int value, const char *const *labels, int count) {
    if (value < 0) value = 0;
    if (value > 5) value = 5;
    size_t at = 0;
    for (int k = 0; k < 5; k++) at += (size_t)snprintf(text + at, size - at, "%s", k < value ? "\xE2\x98\x85" : "\xE2\x98\x86");
    at += (size_t)snprintf(text + at, size - at, "  %d/5", value);
    if (value > 0 && value <= count && labels[value - 1]) snprintf(text + at, size - at, " %s", labels[value - 1]);
}

/* What the money cell shows: the amount with two decimals and the currency. */
static void money_text(char *text, size_t size, double amount, const char *currency) {
    snprintf(text, size, "%.2f %s", amount, currency ? currency : "");
}

/* A section: its header, underlined, then a row per field. */
static void text_section(FILE *out, const char *header, const struct text_field *fields, int n) {
    if (header) {
        putc('\n', out);
        text_underlined(out, header, '-');
    }
    int widest = 0;
    for (int i = 0; i < n; i++) {
        int w = text_columns(fields[i].title);
        if (w > widest) widest = w;
    }
    int label_width = widest < 26 ? widest : 26;
    int indent = 2 + label_width + 2;
    char text[256];
    for (int i = 0; i < n; i++) {
        const struct text_field *f = &fields[i];
        text_spaces(out, 2);
        fputs(f->title, out);
        text_spaces(out, indent - 2 - text_columns(f->title));
        if (!strcmp(f->cell, "org.formwork.text-field")) {
            putc('[', out);
            fputs(f->value, out);
            text_spaces(out, 40 - text_columns(f->value));
            fputs("]\n", out);
            text_spaces(out, indent);
            fputs(f->hint, out);
            putc('\n', out);
        } else if (!strcmp(f->cell, "org.formwork.toggle")) {
            fputs(f->number != 0 ? "[x] on\n" : "[ ] off\n", out);
        } else if (!strcmp(f->cell, "org.formwork.c.rating")) {
            rating_text(text, sizeof text, (int)f->number, f->list, f->count);
            /* The renderer wraps the value's words: runs of spaces become one. */
            char *gap = strstr(text, "  ");
            if (gap) memmove(gap, gap + 1, strlen(gap + 1) + 1);
            fputs(text, out);
            putc('\n', out);
        } else if (!strcmp(f->cell, "org.formwork.picker")) {
            putc('[', out);
            fputs(f->value, out);
            text_spaces(out, 38 - text_columns(f->value));
            fputs(" \xE2\x96\xBE]\n", out);
            text_spaces(out, indent);
            fputs("of:", out);
            for (int c = 0; c < f->count; c++) {
                fputs(c ? ", " : " ", out);
                fputs(f->list[c], out);
            }
            putc('\n', out);
        } else {
            money_text(text, sizeof text, f->number, f->currency);
            fputs(text, out);
            putc('\n', out);
        }
    }
}

#endif
