/*
 * A pack built against the ABI 1.1 header, compiled at test time like a
 * third-party pack (cc -shared -fPIC -fvisibility=hidden, header only).
 * It uses what 1.1 adds: declared field roles, a choice-list field, the
 * number and multi_choice canvas controls, the pack-context extension, and
 * fw_host.log. Variants by -D flag:
 *   FIXTURE_PACK_ID="..."  FIXTURE_CELL_ID="..."   identifiers
 *   FIXTURE_THREAD_SAFE        sets FW_CELL_THREAD_SAFE
 *   FIXTURE_RESERVED_PACK / _CHOICE / _VALUE / _TRAITS   a "must be 0" field set to 1
 *   FIXTURE_BAD_TRAITS         secure entry on a text view
 *   FIXTURE_BAD_ROLE           title_field names the integer field
 *   FIXTURE_MISSING_ROLE       value_field names no field
 *   FIXTURE_CLAIM_1_0          claims ABI 1.0 while using FW_FIELD_CHOICE_LIST
 *   FIXTURE_MANGLED            exports the entry under its C++-mangled name only
 *   FIXTURE_UNMEETABLE_ITEMS   the choice list asks for at least 4 of its 3 choices
 *   FIXTURE_ZERO_STEP          draws its number control with a step of 0
 */
#define _POSIX_C_SOURCE 200809L
#include "formwork.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef FIXTURE_PACK_ID
#define FIXTURE_PACK_ID "com.example.v11"
#endif
#ifndef FIXTURE_CELL_ID
#define FIXTURE_CELL_ID "com.example.v11.extras"
#endif

static const fw_choice extras[] = {
    { sizeof(fw_choice), 0, "wifi", "Wi-Fi" },
    { sizeof(fw_choice), 0, "meal", "Meal" },
#ifdef FIXTURE_RESERVED_CHOICE
    { sizeof(fw_choice), 1, "seat", "Seat" },
#else
    { sizeof(fw_choice), 0, "seat", "Seat" },
#endif
};
static const char *const default_extras[] = { "wifi" };

static const fw_field fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "name", .label = "Name",
      .flags = FW_FIELD_REQUIRED, .max_length = 80 },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_CHOICE_LIST, .name = "extras", .label = "Extras",
#ifdef FIXTURE_UNMEETABLE_ITEMS
      .choices = extras, .choice_count = 3, .min_length = 4,
#else
      .choices = extras, .choice_count = 3, .max_length = 2,
#endif
#ifdef FIXTURE_RESERVED_VALUE
      .default_value = { .type = FW_FIELD_CHOICE_LIST, .reserved = 1, .as.list = { default_extras, 1 } } },
#else
      .default_value = { .type = FW_FIELD_CHOICE_LIST, .as.list = { default_extras, 1 } } },
#endif
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_INTEGER, .name = "count", .label = "Count",
      .flags = FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM, .minimum = 0, .maximum = 9 },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "note", .label = "Note", .max_length = 200 },
};

typedef struct extras_cell {
    const fw_host *host;
    char name[96];
    const char *selected[3];
    size_t selected_count;
    int64_t count;
    int has_count;
} extras_cell;

/* Set by init from the pack-context extension. */
static char context_line[512] = "no context";
static atomic_int creating, most_creating;

static fw_status pack_init(const fw_host *host) {
    const fw_pack_context *context = host->get_extension ? host->get_extension(host, FW_EXTENSION_PACK_CONTEXT) : NULL;
    if (context && context->struct_size >= sizeof(fw_pack_context)) {
        const char *file = strrchr(context->pack_path, '/');
        const char *dir = strrchr(context->resource_dir, '/');
        snprintf(context_line, sizeof context_line, "%s %s", file ? file + 1 : context->pack_path, dir ? dir + 1 : context->resource_dir);
    }
    return FW_OK;
}

static void *create(const fw_cell_type *type, const fw_host *host) {
    (void)type;
    int now = atomic_fetch_add(&creating, 1) + 1;
    int most = atomic_load(&most_creating);
    while (now > most && !atomic_compare_exchange_weak(&most_creating, &most, now)) {}
    struct timespec pause = { 0, 200000 }; /* 0.2 ms: lets concurrent creates overlap if the host allows them */
    nanosleep(&pause, NULL);
    extras_cell *cell = calloc(1, sizeof(extras_cell));
    if (cell) cell->host = host;
    atomic_fetch_sub(&creating, 1);
    return cell;
}

static void destroy(void *cell) { free(cell); }

static fw_status configure(void *cell, const fw_value *values, uint32_t count) {
    extras_cell *c = cell;
    if (count != 4) return FW_INVALID_ARGUMENT;
    snprintf(c->name, sizeof c->name, "%s", values[0].type ? values[0].as.string : "");
    c->selected_count = 0;
    if (values[1].type == FW_FIELD_CHOICE_LIST) {
        for (size_t i = 0; i < values[1].as.list.count && i < 3; i++) {
            for (size_t j = 0; j < 3; j++) {
                if (strcmp(values[1].as.list.items[i], extras[j].value) == 0) c->selected[c->selected_count++] = extras[j].value;
            }
        }
    }
    c->has_count = values[2].type == FW_FIELD_INTEGER;
    c->count = c->has_count ? values[2].as.integer : 0;
    if (c->has_count && c->count == 7) {
        c->host->log(c->host, FW_LOG_ERROR, "seven is not allowed by " FIXTURE_PACK_ID);
        return FW_INVALID_ARGUMENT;
    }
    return FW_OK;
}

static fw_status render(void *cell, const fw_canvas *canvas, void *ctx) {
    extras_cell *c = cell;
    canvas->label(ctx, c->name, FW_LABEL_TITLE);
    if (canvas->struct_size >= offsetof(fw_canvas, multi_choice) + sizeof(void *)) {
        fw_string_list selected = { c->selected, c->selected_count };
#ifdef FIXTURE_ZERO_STEP
        canvas->number(ctx, "count", "Count", c->has_count, (double)c->count, 0, 9, 0, FW_NUMBER_STEPPER, 0);
#else
        canvas->number(ctx, "count", "Count", c->has_count, (double)c->count, 0, 9, 1, FW_NUMBER_STEPPER, 0);
#endif
        canvas->multi_choice(ctx, "extras", "Extras", extras, 3, &selected, FW_MULTI_CHOICE_CHECKBOXES, 0);
    }
    canvas->value(ctx, "Context", context_line);
    char most[32];
    snprintf(most, sizeof most, "%d", atomic_load(&most_creating));
    canvas->value(ctx, "Most concurrent creates", most);
    return FW_OK;
}

#ifdef FIXTURE_RESERVED_TRAITS
#define TRAITS_RESERVED 1
#else
#define TRAITS_RESERVED 0
#endif
#ifdef FIXTURE_BAD_TRAITS
static const fw_text_traits traits = { .struct_size = sizeof(fw_text_traits), .secure_entry = FW_TRAIT_YES };
#define TEXT_INPUT FW_TEXT_INPUT_TEXT_VIEW
#else
static const fw_text_traits traits = { .struct_size = sizeof(fw_text_traits), .autocapitalization = FW_AUTOCAPITALIZATION_WORDS,
                                       .reserved = TRAITS_RESERVED };
#define TEXT_INPUT FW_TEXT_INPUT_TEXT_FIELD
#endif

#if defined(FIXTURE_BAD_ROLE)
#define TITLE_ROLE "count"
#else
#define TITLE_ROLE "name"
#endif
#if defined(FIXTURE_MISSING_ROLE)
#define VALUE_ROLE "selection"
#else
#define VALUE_ROLE "extras"
#endif
#ifdef FIXTURE_THREAD_SAFE
#define CELL_FLAGS FW_CELL_THREAD_SAFE
#else
#define CELL_FLAGS 0
#endif

static const fw_cell_type cells[] = { {
    .struct_size = sizeof(fw_cell_type),
    .flags = CELL_FLAGS,
    .id = FIXTURE_CELL_ID,
    .name = "Extras",
    .summary = "A 1.1 cell: roles, a choice list, number and multi-choice controls.",
    .fields = fields,
    .field_count = 4,
    .text_input_kind = TEXT_INPUT,
    .text_input_field = "note",
    .text_traits = &traits,
    .create = create,
    .destroy = destroy,
    .configure = configure,
    .render = render,
    .value_field = VALUE_ROLE,
    .title_field = TITLE_ROLE,
    .required_field = "",
    .max_length_field = "",
    .placeholder_field = "note",
} };

#ifdef FIXTURE_CLAIM_1_0
#define MINOR 0
#elif defined(FW_TARGET_ABI_MINOR)
#define MINOR FW_TARGET_ABI_MINOR /* a 1.2 header: the minor the build targets */
#else
#define MINOR FW_ABI_VERSION_MINOR
#endif

static const fw_pack pack = {
    .abi = { FW_ABI_VERSION_MAJOR, MINOR, 0 },
    .struct_size = sizeof(fw_pack),
    .id = FIXTURE_PACK_ID,
    .name = "Fixture 1.1",
    .version = "1.1.0",
    .init = pack_init,
    .cell_types = cells,
    .cell_type_count = 1,
#ifdef FIXTURE_RESERVED_PACK
    .reserved = 1,
#endif
};

#ifdef FIXTURE_MANGLED
/* What a C++ author gets without extern "C": only the mangled name is exported. */
FW_EXPORT const fw_pack *_Z16formwork_pack_v1v(void) { return &pack; }
#else
FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
#endif
