/*
 * The C baseline for `formwork render FORM.yaml --format text` on the suite's generated
 * document: parse the document with libyaml's event API, keep each section's fields
 * (their strings copied out of the events) and write the section as formwork's text
 * renderer writes it (text_form.h): the same bytes, with no validation, no plug-ins and
 * no cells.
 * Build: cc -O2 render_yaml.c -o render_yaml -lyaml
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "text_form.h"

/* Where an event is: the containers that matter, by the key they are the value of. */
enum place { ROOT, SECTIONS, SECTION, FIELDS, FIELD, MODEL, LIST, OTHER };

static char *copy(const char *s) {
    char *c = strdup(s);
    if (!c) exit(71);
    return c;
}

/* Frees what a section's fields hold (every string of theirs is a copy, or "" when absent). */
static void release(struct text_field *fields, int n) {
    for (int i = 0; i < n; i++) {
        struct text_field *f = &fields[i];
        const char *strings[] = {f->cell, f->title, f->value, f->hint, f->currency};
        for (size_t k = 0; k < sizeof strings / sizeof *strings; k++)
            if (strings[k] && *strings[k]) free((char *)strings[k]);
        for (int k = 0; k < f->count; k++)
            if (*f->list[k]) free((char *)f->list[k]);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) return 64;
    FILE *in = fopen(argv[1], "rb");
    if (!in) return 66;
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, in);
    static char buffer[1 << 16];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);

    enum place stack[64];
    int is_mapping[64], expect_key[64], depth = 0;
    char key[128] = "";
    char *header = NULL;
    struct text_field *fields = NULL;
    int n = 0, capacity = 0;
    yaml_event_t event;
    int done = 0;
    while (!done) {
        if (!yaml_parser_parse(&parser, &event)) return 65;
        enum place here = depth > 0 ? stack[depth - 1] : ROOT;
        switch (event.type) {
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT: {
            int mapping = event.type == YAML_MAPPING_START_EVENT;
            enum place next = OTHER;
            if (depth == 0) next = ROOT;
            else if (mapping && here == SECTIONS) next = SECTION;
            else if (mapping && here == FIELDS) next = FIELD;
            else if (mapping && here == FIELD && !strcmp(key, "model")) next = MODEL;
            else if (!mapping && here == ROOT && !strcmp(key, "sections")) next = SECTIONS;
            else if (!mapping && here == SECTION && !strcmp(key, "fields")) next = FIELDS;
            else if (!mapping && here == MODEL && (!strcmp(key, "labels") || !strcmp(key, "choices"))) next = LIST;
            if (depth == 64) return 65;
            if (next == FIELD) {
                if (n == capacity) {
                    capacity = capacity ? 2 * capacity : 1024;
                    fields = realloc(fields, (size_t)capacity * sizeof *fields);
                    if (!fields) return 71;
                }
                struct text_field *f = &fields[n++];
                memset(f, 0, sizeof *f);
                f->cell = f->title = f->value = f->hint = f->currency = "";
            }
            stack[depth] = next;
            is_mapping[depth] = mapping;
            expect_key[depth] = 1;
            depth++;
            break;
        }
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            if (here == SECTION) {
                text_section(stdout, header, fields, n);
                release(fields, n);
                free(header);
                header = NULL;
                n = 0;
            }
            depth--;
            if (depth > 0) expect_key[depth - 1] = 1;
            break;
        case YAML_SCALAR_EVENT: {
            const char *s = (const char *)event.data.scalar.value;
            if (depth > 0 && is_mapping[depth - 1] && expect_key[depth - 1]) {
                snprintf(key, sizeof key, "%s", s);
                expect_key[depth - 1] = 0;
                break;
            }
            if (depth > 0) expect_key[depth - 1] = 1;
            struct text_field *f = n > 0 ? &fields[n - 1] : NULL;
            if (here == ROOT && !strcmp(key, "title")) text_underlined(stdout, s, '=');
            else if (here == SECTION && !strcmp(key, "header")) {
                free(header);
                header = copy(s);
            } else if (here == FIELD && f && !strcmp(key, "cell")) f->cell = copy(s);
            else if (here == MODEL && f) {
                if (!strcmp(key, "title")) f->title = copy(s);
                else if (!strcmp(key, "hint")) f->hint = copy(s);
                else if (!strcmp(key, "currency")) f->currency = copy(s);
                else if (!strcmp(key, "amount")) f->number = strtod(s, NULL);
                else if (!strcmp(key, "value")) {
                    f->value = copy(s);
                    f->number = !strcmp(s, "true") ? 1 : strtod(s, NULL);
                }
            } else if (here == LIST && f && f->count < 8) f->list[f->count++] = copy(s);
            break;
        }
        case YAML_STREAM_END_EVENT: done = 1; break;
        default: break;
        }
        yaml_event_delete(&event);
    }
    free(fields);
    free(header);
    yaml_parser_delete(&parser);
    fclose(in);
    fflush(stdout);
    return 0;
}
