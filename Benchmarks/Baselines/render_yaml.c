/*
 * The C baseline for `formwork render FORM.yaml --format text`: parse the document
 * with libyaml's event API and write one line of text per field (its title and
 * value), as render_json.c does for JSON: parsing and output, no validation, no cells.
 * Build: cc -O2 render_yaml.c -o render_yaml -lyaml
 */
#include <stdio.h>
#include <string.h>
#include <yaml.h>

int main(int argc, char **argv) {
    if (argc != 2) return 64;
    FILE *in = fopen(argv[1], "rb");
    if (!in) return 66;
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, in);
    static char buffer[1 << 16];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
    /* Keys of the innermost mapping: remember the last key, print on title/value. */
    char key[128] = "", title[256] = "", value[256] = "";
    int depth = 0, expect_key[64] = {0};
    yaml_event_t event;
    int done = 0;
    while (!done) {
        if (!yaml_parser_parse(&parser, &event)) return 65;
        switch (event.type) {
        case YAML_MAPPING_START_EVENT:
            if (depth < 63) expect_key[++depth] = 1;
            break;
        case YAML_MAPPING_END_EVENT:
            if (title[0]) { printf("  %-24s [%-40s]\n", title, value); title[0] = value[0] = 0; }
            depth--;
            if (depth > 0) expect_key[depth] = 1;
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            if (depth > 0 && event.type == YAML_SEQUENCE_END_EVENT) expect_key[depth] = 1;
            break;
        case YAML_SCALAR_EVENT: {
            const char *s = (const char *)event.data.scalar.value;
            if (depth > 0 && expect_key[depth]) {
                snprintf(key, sizeof key, "%s", s);
                expect_key[depth] = 0;
            } else {
                if (strcmp(key, "title") == 0) snprintf(title, sizeof title, "%s", s);
                else if (strcmp(key, "value") == 0 || strcmp(key, "amount") == 0) snprintf(value, sizeof value, "%s", s);
                else if (strcmp(key, "header") == 0) printf("\n%s\n--------------\n", s);
                if (depth > 0) expect_key[depth] = 1;
            }
            break;
        }
        case YAML_STREAM_END_EVENT: done = 1; break;
        default: break;
        }
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    fclose(in);
    fflush(stdout);
    return 0;
}
