/*
 * A pack that shows what the host told it about focus and selection, for the
 * interactive form's tests (cc -shared -fPIC -fvisibility=hidden, header only).
 *
 * One cell, "com.example.focus.note": a text field whose cell is highlightable and
 * selectable. It draws a "Focus" value that says whether did_set_highlighted(true)
 * was called since configure, and how often did_set_selected(true) was; its
 * value_changed refuses the text "forbidden" with a reason.
 */
#include "formwork.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct note {
    char text[128];
    bool highlighted;
    int selections;
} note;

static const fw_field fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "title", .label = "Title" },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "text", .label = "Text",
      .max_length = 100 },
};

static void *note_create(const fw_cell_type *type, const fw_host *host) {
    (void)type; (void)host;
    return calloc(1, sizeof(note));
}
static void note_destroy(void *cell) { free(cell); }
static fw_status note_configure(void *cell, const fw_value *values, uint32_t count) {
    note *n = cell;
    if (count != 2) return FW_INVALID_ARGUMENT;
    n->text[0] = 0;
    if (values[1].type == FW_FIELD_STRING && values[1].as.string) {
        snprintf(n->text, sizeof n->text, "%s", values[1].as.string);
    }
    return FW_OK;
}
static void note_highlighted(void *cell, bool highlighted) { ((note *)cell)->highlighted = highlighted; }
static void note_selected(void *cell, bool selected) { if (selected) ((note *)cell)->selections++; }
static fw_status note_value_changed(void *cell, const char *field, const fw_value *value, const char **message) {
    (void)cell; (void)field;
    if (value->type == FW_FIELD_STRING && value->as.string && strcmp(value->as.string, "forbidden") == 0) {
        *message = "that word is not allowed here";
        return FW_REJECTED;
    }
    return FW_OK;
}
static fw_status note_render(void *cell, const fw_canvas *canvas, void *ctx) {
    note *n = cell;
    char focus[64];
    snprintf(focus, sizeof focus, "%s, selected %d", n->highlighted ? "highlighted" : "plain", n->selections);
    canvas->text_input(ctx, "text", "Note", n->text, "write a note", 0);
    canvas->message(ctx, FW_MESSAGE_HINT, focus);
    return FW_OK;
}

static const fw_cell_type cells[] = {
    { .struct_size = sizeof(fw_cell_type),
      .flags = FW_CELL_SELECTABLE | FW_CELL_HIGHLIGHTABLE,
      .id = "com.example.focus.note",
      .name = "Note",
      .fields = fields,
      .field_count = 2,
      .text_input_kind = FW_TEXT_INPUT_TEXT_FIELD,
      .text_input_field = "text",
      .create = note_create,
      .destroy = note_destroy,
      .configure = note_configure,
      .render = note_render,
      .did_set_selected = note_selected,
      .did_set_highlighted = note_highlighted,
      .value_changed = note_value_changed,
      .value_field = "text",
      .title_field = "title" },
};

static const fw_pack pack = {
    .abi = { FW_ABI_VERSION_MAJOR, FW_ABI_VERSION_MINOR, 0 },
    .struct_size = sizeof(fw_pack),
    .id = "com.example.focus",
    .name = "Focus",
    .version = "1.0.0",
    .cell_types = cells,
    .cell_type_count = 1,
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
