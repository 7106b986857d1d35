/*
 * The C baseline for `formwork render FORM.json --format text`: parse the document
 * with cJSON, walk every section and field, and write one line of text per field
 * (title, a box with the value) — the same shape and about the same bytes as
 * formwork's text renderer, with no validation and no cells.
 * Build: cc -O2 render_json.c -o render_json -lcjson
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void value_text(const cJSON *v, char *out, size_t size) {
    if (!v) snprintf(out, size, "%s", "");
    else if (cJSON_IsString(v)) snprintf(out, size, "%s", v->valuestring);
    else if (cJSON_IsBool(v)) snprintf(out, size, "%s", cJSON_IsTrue(v) ? "on" : "off");
    else if (cJSON_IsNumber(v)) snprintf(out, size, "%g", v->valuedouble);
    else snprintf(out, size, "%s", "");
}

int main(int argc, char **argv) {
    if (argc != 2) return 64;
    size_t size;
    char *text = slurp(argv[1], &size);
    if (!text) return 66;
    cJSON *root = cJSON_ParseWithLength(text, size);
    if (!root) return 65;
    FILE *out = stdout;
    static char buffer[1 << 16];
    setvbuf(out, buffer, _IOFBF, sizeof buffer);
    const cJSON *title = cJSON_GetObjectItemCaseSensitive(root, "title");
    if (cJSON_IsString(title)) fprintf(out, "%s\n%.*s\n", title->valuestring, (int)strlen(title->valuestring), "================================================");
    const cJSON *section;
    cJSON_ArrayForEach(section, cJSON_GetObjectItemCaseSensitive(root, "sections")) {
        const cJSON *header = cJSON_GetObjectItemCaseSensitive(section, "header");
        if (cJSON_IsString(header)) fprintf(out, "\n%s\n--------------\n", header->valuestring);
        const cJSON *field;
        cJSON_ArrayForEach(field, cJSON_GetObjectItemCaseSensitive(section, "fields")) {
            const cJSON *model = cJSON_GetObjectItemCaseSensitive(field, "model");
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(model, "title");
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(model, "value");
            if (!v) v = cJSON_GetObjectItemCaseSensitive(model, "amount");
            char value[256];
            value_text(v, value, sizeof value);
            fprintf(out, "  %-24s [%-40s]\n", cJSON_IsString(t) ? t->valuestring : "", value);
            const cJSON *hint = cJSON_GetObjectItemCaseSensitive(model, "hint");
            if (cJSON_IsString(hint)) fprintf(out, "  %-24s %s\n", "", hint->valuestring);
        }
    }
    fflush(out);
    cJSON_Delete(root);
    free(text);
    return 0;
}
