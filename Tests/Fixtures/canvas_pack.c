/* A pack whose one cell draws the canvas's corner cases, for the tests that record a render two ways (view
 * nodes in the host, wire bytes in the cell host) and compare. Its integer model field `mode` picks the drawing:
 *   0  every kind of node: NULL and invalid UTF-8 strings, unknown enum values, NaN and infinite numbers, a
 *      negative step, choices without values or labels (and labels that are their values), selections with NULL
 *      items, controls of one field drawn again and again, a field named like a suffix, a failed-looking title
 *   1  more nodes than the host keeps, with a group closed past the limit
 *   2  groups nested deeper than the host keeps, ends without begins, groups left open
 *   3  a few nodes, then FW_ERROR
 * Built with cc -shared -fPIC -fvisibility=hidden against the header alone, at test time. */
#include "formwork.h"

#include <math.h>
#include <stdlib.h>

typedef struct canvas_cell {
    long long mode;
} canvas_cell;

static const fw_field fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_INTEGER, .name = "mode", .label = "Mode" },
};

static void *canvas_create(const fw_cell_type *type, const fw_host *host) {
    (void)type; (void)host;
    return calloc(1, sizeof(canvas_cell));
}
static void canvas_destroy(void *cell) { free(cell); }
static fw_status canvas_configure(void *cell, const fw_value *values, uint32_t count) {
    if (count != 1) return FW_INVALID_ARGUMENT;
    ((canvas_cell *)cell)->mode = values[0].type == FW_FIELD_INTEGER ? values[0].as.integer : 0;
    return FW_OK;
}

static const char invalid[] = { 'a', (char)0xC3, 'b', (char)0xFF, (char)0xC2, (char)0x9B, '[', '2', 'J', 0 };
static const char *const picked[] = { "b", NULL, "zz", invalid };
static const fw_string_list selection = { picked, 4 };
static const fw_string_list none = { NULL, 0 };
static const char same[] = "same";

static fw_status canvas_render(void *p, const fw_canvas *canvas, void *ctx) {
    canvas_cell *cell = p;
    int i;
    fw_choice choices[5] = {
        { sizeof(fw_choice), 0, "a", "Alpha" },
        { sizeof(fw_choice), 0, NULL, "no value" },
        { sizeof(fw_choice), 0, "b", NULL },
        { sizeof(fw_choice), 0, same, same },
        { sizeof(fw_choice), 0, invalid, invalid },
    };
    switch (cell->mode) {
    case 0:
        canvas->label(ctx, "Plain", FW_LABEL_BODY);
        canvas->label(ctx, NULL, 99);
        canvas->label(ctx, invalid, FW_LABEL_TITLE);
        canvas->value(ctx, NULL, "v");
        canvas->value(ctx, "Total", invalid);
        canvas->begin_group(ctx, NULL, NULL);
        canvas->begin_group(ctx, "row", "A title");
        canvas->text_input(ctx, "mode", "Mode", NULL, NULL, FW_CONTROL_REQUIRED);
        canvas->text_input(ctx, "mode", "Again", "text", "hint", FW_CONTROL_MULTILINE | FW_CONTROL_DISABLED);
        canvas->text_input(ctx, NULL, NULL, invalid, invalid, 0xFFFFFFFFu);
        canvas->end_group(ctx);
        canvas->toggle(ctx, "2", "Two", true, 0);
        canvas->toggle(ctx, invalid, NULL, false, FW_CONTROL_REQUIRED);
        canvas->end_group(ctx);
        canvas->button(ctx, "go", "Go", FW_BUTTON_PRIMARY, 0);
        canvas->button(ctx, NULL, NULL, 77, FW_CONTROL_DISABLED);
        canvas->choice(ctx, "pick", "Pick", choices, 5, "b", FW_CHOICE_SEGMENTS, 0);
        canvas->choice(ctx, "pick", NULL, choices, 0, NULL, 9, 0);
        canvas->choice(ctx, "pick", NULL, NULL, 3, invalid, FW_CHOICE_MENU, 0);
        canvas->date(ctx, "when", "When", true, 86400.5, FW_DATE_PICKER_DATE, 0);
        canvas->date(ctx, "when", "Never", true, NAN, 42, 0);
        canvas->date(ctx, "when", "Unset", false, 12.0, FW_DATE_PICKER_TIME, 0);
        canvas->message(ctx, FW_MESSAGE_ERROR, "Wrong");
        canvas->message(ctx, 12, NULL);
        if (canvas->struct_size >= sizeof(fw_canvas)) {
            canvas->number(ctx, "n", "N", true, 2.5, 0, 10, 0.5, FW_NUMBER_SLIDER, 0);
            canvas->number(ctx, "n", NULL, true, INFINITY, -INFINITY, NAN, -1, 31, 0);
            canvas->number(ctx, "n", "Zero step", false, 1, 0, 0, 0, FW_NUMBER_STEPPER, 0);
            canvas->multi_choice(ctx, "many", "Many", choices, 5, &selection, FW_MULTI_CHOICE_LIST, 0);
            canvas->multi_choice(ctx, "many", NULL, choices, 5, &none, 5, 0);
            canvas->multi_choice(ctx, "many", NULL, choices, 5, NULL, FW_MULTI_CHOICE_CHECKBOXES, 0);
        }
        for (i = 0; i < 12; i++) canvas->toggle(ctx, "mode-2", "Suffix-like", i % 2, 0);
        /* One name two ways: e-acute as one code point, then as e and a combining accent (equal as strings). */
        canvas->toggle(ctx, "caf\xc3\xa9", "Composed", true, 0);
        canvas->toggle(ctx, "cafe\xcc\x81", "Decomposed", false, 0);
        break;
    case 1:
        canvas->begin_group(ctx, "stack", "Early");
        for (i = 0; i < 100; i++) canvas->label(ctx, "in an early group", FW_LABEL_BODY);
        canvas->end_group(ctx);
        canvas->begin_group(ctx, "stack", "Cut");
        for (i = 0; i < 10000; i++) canvas->value(ctx, "k", "v");
        canvas->end_group(ctx);
        canvas->label(ctx, "after the limit", FW_LABEL_BODY);
        break;
    case 2:
        canvas->end_group(ctx);
        for (i = 0; i < 40; i++) {
            canvas->begin_group(ctx, "stack", NULL);
            canvas->toggle(ctx, "deep", "Deep", true, 0);
        }
        for (i = 0; i < 20; i++) canvas->end_group(ctx);
        canvas->label(ctx, "left open", FW_LABEL_CAPTION);
        break;
    default:
        canvas->label(ctx, "before failing", FW_LABEL_BODY);
        return FW_ERROR;
    }
    return FW_OK;
}

static const fw_cell_type cell_types[] = { {
    .struct_size = sizeof(fw_cell_type),
    .id = "org.test.canvas",
    .name = "Canvas",
    .summary = "Draws the canvas's corner cases.",
    .fields = fields,
    .field_count = 1,
    .text_input_kind = FW_TEXT_INPUT_NONE,
    .create = canvas_create,
    .destroy = canvas_destroy,
    .configure = canvas_configure,
    .render = canvas_render,
} };

static const fw_pack pack = {
    .abi = FW_ABI_VERSION_INIT,
    .struct_size = sizeof(fw_pack),
    .id = "org.test.canvas-pack",
    .name = "Canvas corner cases",
    .version = "1.0.0",
    .cell_types = cell_types,
    .cell_type_count = 1,
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
