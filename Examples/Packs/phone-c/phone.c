/*
 * A third-party Formwork pack in plain C: a phone-number cell.
 *
 * Built outside SwiftPM against formwork.h alone (see the Makefile):
 *     cc -std=c99 -shared -fPIC -fvisibility=hidden -I<formwork>/Sources/CFormwork/include phone.c -o libphone.so
 * It links no Swift runtime, exports only `formwork_pack_v1`, and uses the
 * generic configure entry (tagged values) plus a text-field text input with
 * phone-pad traits.
 */
#include "formwork.h"

#include <stdlib.h>
#include <string.h>

typedef struct phone_cell {
    const fw_host *host;
    char *title;
    char *number;
    char *country;
    bool required;
    char reason[96];
} phone_cell;

static const fw_choice countries[] = {
    { sizeof(fw_choice), 0, "+1", "United States / Canada" },
    { sizeof(fw_choice), 0, "+33", "France" },
    { sizeof(fw_choice), 0, "+44", "United Kingdom" },
    { sizeof(fw_choice), 0, "+49", "Germany" },
    { sizeof(fw_choice), 0, "+81", "Japan" },
};

static const fw_field fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "title", .label = "Title",
      .flags = FW_FIELD_REQUIRED, .max_length = 100, .doc = "Label shown with the number." },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "number", .label = "Number",
      .max_length = 20, .doc = "The number, digits, spaces and dashes." },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_CHOICE, .name = "country", .label = "Country code",
      .choices = countries, .choice_count = 5, .default_value = { .type = FW_FIELD_CHOICE, .as.string = "+1" } },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_BOOL, .name = "required", .label = "Required",
      .default_value = { .type = FW_FIELD_BOOL, .as.boolean = false } },
};

static const fw_text_traits traits = {
    .struct_size = sizeof(fw_text_traits),
    .keyboard = FW_KEYBOARD_PHONE_PAD,
    .content_type = "tel",
    .autocorrection = FW_TRAIT_NO,
    .spell_checking = FW_TRAIT_NO,
    .return_key = FW_RETURN_KEY_NEXT,
};

static char *copy(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

static void *phone_create(const fw_cell_type *type, const fw_host *host) {
    (void)type;
    phone_cell *cell = calloc(1, sizeof *cell);
    if (cell) cell->host = host;
    return cell;
}

static void phone_destroy(void *p) {
    phone_cell *cell = p;
    free(cell->title);
    free(cell->number);
    free(cell->country);
    free(cell);
}

static fw_status phone_configure(void *p, const fw_value *values, uint32_t count) {
    phone_cell *cell = p;
    if (count != 4) return FW_INVALID_ARGUMENT;
    free(cell->title);
    free(cell->number);
    free(cell->country);
    cell->title = copy(values[0].type ? values[0].as.string : "Phone");
    cell->number = copy(values[1].type ? values[1].as.string : NULL);
    cell->country = copy(values[2].type ? values[2].as.string : "+1");
    cell->required = values[3].type ? values[3].as.boolean : false;
    return FW_OK;
}

static fw_status phone_render(void *p, const fw_canvas *canvas, void *ctx) {
    phone_cell *cell = p;
    canvas->begin_group(ctx, "row", NULL);
    canvas->choice(ctx, "country", "Country code", countries, 5, cell->country, FW_CHOICE_MENU, 0);
    canvas->text_input(ctx, "number", cell->title, cell->number, "555 0100",
                       cell->required ? FW_CONTROL_REQUIRED : 0);
    canvas->end_group(ctx);
    return FW_OK;
}

static fw_status phone_value_changed(void *p, const char *field, const fw_value *value, const char **message) {
    phone_cell *cell = p;
    if (strcmp(field, "number") != 0 || value->type != FW_FIELD_STRING || !value->as.string) return FW_OK;
    for (const char *c = value->as.string; *c; c++) {
        if (!((*c >= '0' && *c <= '9') || *c == ' ' || *c == '-')) {
            strcpy(cell->reason, "use digits, spaces and dashes only");
            *message = cell->reason;
            return FW_REJECTED;
        }
    }
    return FW_OK;
}

static const fw_cell_type cell_types[] = { {
    .struct_size = sizeof(fw_cell_type),
    .id = "com.example.phone",
    .name = "Phone number",
    .summary = "A phone number with its country code.",
    .fields = fields,
    .field_count = 4,
    .text_input_kind = FW_TEXT_INPUT_TEXT_FIELD,
    .text_input_field = "number",
    .text_traits = &traits,
    .create = phone_create,
    .destroy = phone_destroy,
    .configure = phone_configure,
    .render = phone_render,
    .value_changed = phone_value_changed,
} };

static const fw_pack pack = {
    .abi = FW_ABI_VERSION_INIT,
    .struct_size = sizeof(fw_pack),
    .id = "com.example.phone",
    .name = "Phone (example C pack)",
    .version = "0.1.0",
    .vendor = "Example Inc.",
    .license = "MIT",
    .cell_types = cell_types,
    .cell_type_count = 1,
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
