/*
 * A pack built against the ABI 1.2 header, compiled at test time like a
 * third-party pack. It uses what 1.2 adds: a step and exclusive bounds on
 * number and integer fields, and presence in typed configure (by pointer), so
 * that an absent weight, count or bool is told from 0 / false. Its render
 * says what it was given ("absent" or the value), in both configure paths,
 * so `check` can compare them. Variants by -D flag:
 *   FIXTURE_ZERO_STEP           FW_FIELD_HAS_STEP with a step of 0
 *   FIXTURE_FRACTIONAL_STEP     an integer field with a step of 0.5
 *   FIXTURE_EMPTY_RANGE         minimum == maximum, the minimum exclusive
 *   FIXTURE_EXCLUSIVE_NO_BOUND  FW_FIELD_EXCLUSIVE_MAXIMUM without a maximum
 *   FIXTURE_NO_BITMAP           FW_CELL_TYPED_PRESENCE, model_size without the bitmap
 *   FIXTURE_PRESENCE_UNTYPED    FW_CELL_TYPED_PRESENCE without typed configure
 *   FIXTURE_OFF_STEP_DEFAULT    the count's default (3) is off its step of 2
 * Built with -DFW_TARGET_ABI_MINOR=1 it does not compile (it uses 1.2 names):
 * the target macro's promise.
 */
#include "formwork.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct model {
    double weight;
    int64_t count;
    bool express;
    const char *note;
#ifndef FIXTURE_NO_BITMAP
    uint8_t present[FW_PRESENCE_BYTES(4)];
#endif
} model;

static const fw_field fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_NUMBER, .name = "weight", .label = "Weight (kg)",
#if defined(FIXTURE_EMPTY_RANGE)
      .flags = FW_FIELD_REQUIRED | FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM | FW_FIELD_EXCLUSIVE_MINIMUM,
      .minimum = 5, .maximum = 5 },
#elif defined(FIXTURE_EXCLUSIVE_NO_BOUND)
      .flags = FW_FIELD_REQUIRED | FW_FIELD_HAS_MINIMUM | FW_FIELD_EXCLUSIVE_MAXIMUM, .minimum = 0 },
#elif defined(FIXTURE_ZERO_STEP)
      .flags = FW_FIELD_REQUIRED | FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_STEP, .minimum = 0, .step = 0 },
#else
      .flags = FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM | FW_FIELD_EXCLUSIVE_MINIMUM | FW_FIELD_HAS_STEP,
      .minimum = 0, .maximum = 500, .step = 0.5 },
#endif
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_INTEGER, .name = "count", .label = "Parcels",
      .flags = FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM | FW_FIELD_EXCLUSIVE_MAXIMUM | FW_FIELD_HAS_STEP,
#if defined(FIXTURE_FRACTIONAL_STEP)
      .minimum = 0, .maximum = 10, .step = 0.5 },
#elif defined(FIXTURE_OFF_STEP_DEFAULT)
      .minimum = 0, .maximum = 10, .step = 2, .default_value = { .type = FW_FIELD_INTEGER, .as.integer = 3 } },
#else
      .minimum = 0, .maximum = 10, .step = 2 },
#endif
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_BOOL, .name = "express", .label = "Express" },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "note", .label = "Note" },
};

typedef struct cell {
    model m;
    bool has[4];
    char note[128];
} cell;

static void *create(const fw_cell_type *type, const fw_host *host) {
    (void)type; (void)host;
    return calloc(1, sizeof(cell));
}
static void destroy(void *c) { free(c); }

static void keep_note(cell *c, const char *note) {
    snprintf(c->note, sizeof c->note, "%s", note ? note : "");
    c->m.note = c->note;
}

static fw_status configure(void *p, const fw_value *values, uint32_t count) {
    cell *c = p;
    memset(&c->m, 0, sizeof c->m);
    memset(c->has, 0, sizeof c->has);
    for (uint32_t i = 0; i < count && i < 4; i++) c->has[i] = values[i].type != FW_FIELD_NONE;
    if (c->has[0]) c->m.weight = values[0].as.number;
    if (c->has[1]) c->m.count = values[1].as.integer;
    if (c->has[2]) c->m.express = values[2].as.boolean;
    keep_note(c, c->has[3] ? values[3].as.string : NULL);
    return FW_OK;
}

static fw_status typed_configure(void *p, const model *m) {
    cell *c = p;
    c->m = *m;
#ifndef FIXTURE_NO_BITMAP
    for (uint32_t i = 0; i < 4; i++) c->has[i] = fw_is_present(m->present, i);
    /* Bits past the schema's fields are 0: a pack may rely on it. */
    if (m->present[0] & 0xF0) return FW_INVALID_ARGUMENT;
#endif
    keep_note(c, c->has[3] ? m->note : NULL);
    return FW_OK;
}

static fw_status render(void *p, const fw_canvas *canvas, void *ctx) {
    cell *c = p;
    char text[160];
    if (c->has[0]) snprintf(text, sizeof text, "%g kg", c->m.weight); else snprintf(text, sizeof text, "absent");
    canvas->value(ctx, "Weight", text);
    if (c->has[1]) snprintf(text, sizeof text, "%lld", (long long)c->m.count); else snprintf(text, sizeof text, "absent");
    canvas->value(ctx, "Parcels", text);
    canvas->value(ctx, "Express", c->has[2] ? (c->m.express ? "yes" : "no") : "absent");
    canvas->value(ctx, "Note", c->has[3] ? c->note : "absent");
    canvas->number(ctx, "weight", "Weight (kg)", c->has[0], c->m.weight, 0, 500, 0.5, FW_NUMBER_FIELD, FW_CONTROL_REQUIRED);
    return FW_OK;
}

static const fw_cell_type cell_types[] = {
    {
        .struct_size = sizeof(fw_cell_type),
#if defined(FIXTURE_PRESENCE_UNTYPED)
        .flags = FW_CELL_TYPED_PRESENCE,
#else
        .flags = FW_CELL_TYPED_CONFIGURE | FW_CELL_TYPED_PRESENCE,
#endif
        .id = "com.example.v12.parcel",
        .name = "Parcel",
        .summary = "A parcel's weight, count and speed, each of which may be left out.",
        .fields = fields,
        .field_count = 4,
        .create = create,
        .destroy = destroy,
        .configure = configure,
        .render = render,
#if !defined(FIXTURE_PRESENCE_UNTYPED)
        .typed_convention = FW_TYPED_BY_POINTER,
        .model_alignment = FW_ALIGNOF(model),
        .model_size = sizeof(model),
        .typed_configure = (fw_typed_configure_fn)typed_configure,
#endif
        .value_field = "weight",
        .title_field = "",
        .required_field = "",
        .max_length_field = "",
        .placeholder_field = "",
    },
};

static const fw_pack pack = {
    .abi = FW_ABI_VERSION_INIT,
    .struct_size = sizeof(fw_pack),
    .id = "com.example.v12",
    .name = "ABI 1.2 fixture",
    .version = "1.2.0",
    .cell_types = cell_types,
    .cell_type_count = 1,
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
