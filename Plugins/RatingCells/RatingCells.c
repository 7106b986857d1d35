/*
 * RatingCells — a Formwork cell pack in plain C, written against formwork.h
 * alone. Both cell types use the *typed* configure entry: the host lays out
 * the model structs below from the schema (through libffi) and calls
 * configure with them, by value for the rating and by pointer for money.
 */
#include "formwork.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Everything below is hidden unless marked FW_EXPORT (the entry, declared in formwork.h),
 * even when the build adds no -fvisibility=hidden (a SwiftPM package used as a dependency). */
#pragma GCC visibility push(hidden)

/* ------------------------------------------------------------------ helpers */

static char *copy_string(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

static void replace_string(char **slot, const char *s) {
    free(*slot);
    *slot = copy_string(s);
}

static void log_message(const fw_host *host, fw_log_level level, const char *message) {
    if (host && host->log) host->log(host, level, message);
}

/* ------------------------------------------------------------ star rating */

/* The typed model: members follow the schema order and its C types. */
typedef struct rating_model {
    const char *title;     /* string */
    int64_t value;         /* integer */
    int64_t maximum;       /* integer */
    bool enabled;          /* bool */
    fw_string_list labels; /* string list */
} rating_model;

typedef struct rating_cell {
    const fw_host *host;
    char *title;
    int64_t value;
    int64_t maximum;
    bool enabled;
    bool selected;
    char *label;       /* the label that matches the value, if any */
    char message[128]; /* value_changed rejection message */
} rating_cell;

static const fw_field rating_fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "title", .label = "Title",
      .doc = "What is being rated.", .flags = FW_FIELD_REQUIRED, .max_length = 200 },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_INTEGER, .name = "value", .label = "Stars",
      .doc = "The rating, 0 when not rated yet.",
      .flags = FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM, .minimum = 0, .maximum = 10,
      .default_value = { .type = FW_FIELD_INTEGER, .as.integer = 0 } },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_INTEGER, .name = "maximum", .label = "Maximum",
      .doc = "Number of stars shown.", .flags = FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM,
      .minimum = 1, .maximum = 10, .default_value = { .type = FW_FIELD_INTEGER, .as.integer = 5 } },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_BOOL, .name = "enabled", .label = "Enabled",
      .doc = "Whether the rating can be changed.", .default_value = { .type = FW_FIELD_BOOL, .as.boolean = true } },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING_LIST, .name = "labels", .label = "Labels",
      .doc = "Optional words for each star count, from 1 star up (\"Poor\", ..., \"Excellent\").",
      .max_length = 10 },
};

static void *rating_create(const fw_cell_type *type, const fw_host *host) {
    (void)type;
    rating_cell *cell = calloc(1, sizeof *cell);
    if (!cell) return NULL;
    cell->host = host;
    cell->maximum = 5;
    cell->enabled = true;
    return cell;
}

static void rating_destroy(void *p) {
    rating_cell *cell = p;
    if (!cell) return;
    free(cell->title);
    free(cell->label);
    free(cell);
}

/* The schema bounds each field; a value above the model's own maximum is shown
 * as full stars (a model the host accepted must configure), while edits above
 * it are refused by value_changed. */
static fw_status rating_apply(rating_cell *cell, const rating_model *m) {
    if (m->maximum < 1 || m->maximum > 10 || m->value < 0) {
        char line[160];
        snprintf(line, sizeof line, "rating maximum %" PRId64 " / value %" PRId64 " is outside the schema", m->maximum, m->value);
        log_message(cell->host, FW_LOG_ERROR, line);
        return FW_INVALID_ARGUMENT;
    }
    replace_string(&cell->title, m->title);
    cell->value = m->value > m->maximum ? m->maximum : m->value;
    cell->maximum = m->maximum;
    cell->enabled = m->enabled;
    const char *label = NULL;
    if (m->value >= 1 && (size_t)m->value <= m->labels.count) label = m->labels.items[m->value - 1];
    replace_string(&cell->label, label);
    return FW_OK;
}

/* Typed configure, by value: the host passes the whole struct. */
static fw_status rating_configure_typed(void *p, rating_model model) {
    return rating_apply(p, &model);
}

/* Generic configure: values arrive in schema order as tagged values. */
static fw_status rating_configure(void *p, const fw_value *values, uint32_t count) {
    if (count != 5) return FW_INVALID_ARGUMENT;
    rating_model m = { .maximum = 5, .enabled = true };
    if (values[0].type == FW_FIELD_STRING) m.title = values[0].as.string;
    if (values[1].type == FW_FIELD_INTEGER) m.value = values[1].as.integer;
    if (values[2].type == FW_FIELD_INTEGER) m.maximum = values[2].as.integer;
    if (values[3].type == FW_FIELD_BOOL) m.enabled = values[3].as.boolean;
    if (values[4].type == FW_FIELD_STRING_LIST) m.labels = values[4].as.list;
    return rating_apply(p, &m);
}

static fw_status rating_render(void *p, const fw_canvas *canvas, void *ctx) {
    rating_cell *cell = p;
    char stars[10 * 3 * 2 + 64];
    size_t used = 0;
    for (int64_t i = 0; i < cell->maximum; i++) {
        const char *star = i < cell->value ? "\xE2\x98\x85" : "\xE2\x98\x86"; /* ★ ☆ */
        memcpy(stars + used, star, 3);
        used += 3;
    }
    snprintf(stars + used, sizeof stars - used, "  %" PRId64 "/%" PRId64 "%s%s", cell->value, cell->maximum,
             cell->label ? " " : "", cell->label ? cell->label : "");
    canvas->begin_group(ctx, "row", NULL);
    canvas->value(ctx, cell->title ? cell->title : "Rating", stars);
    canvas->end_group(ctx);
    if (!cell->enabled) canvas->message(ctx, FW_MESSAGE_HINT, "Rating is locked.");
    return FW_OK;
}

static void rating_did_set_selected(void *p, bool selected) { ((rating_cell *)p)->selected = selected; }

static fw_status rating_value_changed(void *p, const char *field, const fw_value *value, const char **message) {
    rating_cell *cell = p;
    if (strcmp(field, "value") == 0 && value->type == FW_FIELD_INTEGER) {
        if (!cell->enabled) {
            *message = "the rating is locked";
            return FW_REJECTED;
        }
        if (value->as.integer < 0 || value->as.integer > cell->maximum) {
            snprintf(cell->message, sizeof cell->message, "choose between 0 and %" PRId64 " stars", cell->maximum);
            *message = cell->message;
            return FW_REJECTED;
        }
        cell->value = value->as.integer;
    }
    return FW_OK;
}

/* ------------------------------------------------------------ money amount */

typedef struct money_model {
    const char *title;    /* string */
    double amount;        /* number */
    const char *currency; /* choice */
    int64_t installments; /* integer */
    bool recurring;       /* bool */
    double due;           /* date */
    const char *note;     /* text */
} money_model;

typedef struct money_cell {
    const fw_host *host;
    char *title;
    double amount;
    char currency[8];
    int64_t installments;
    bool recurring;
    double due;
    char *note;
} money_cell;

static const fw_choice currencies[] = {
    { sizeof(fw_choice), 0, "EUR", "Euro" },
    { sizeof(fw_choice), 0, "USD", "US dollar" },
    { sizeof(fw_choice), 0, "GBP", "Pound sterling" },
    { sizeof(fw_choice), 0, "JPY", "Yen" },
};

static const fw_field money_fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "title", .label = "Title",
      .flags = FW_FIELD_REQUIRED, .max_length = 200, .doc = "What the amount is for." },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_NUMBER, .name = "amount", .label = "Amount",
      .flags = FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM, .minimum = 0, .maximum = 1e12,
      .default_value = { .type = FW_FIELD_NUMBER, .as.number = 0 }, .doc = "The amount, in currency units." },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_CHOICE, .name = "currency", .label = "Currency",
      .choices = currencies, .choice_count = 4, .default_value = { .type = FW_FIELD_CHOICE, .as.string = "EUR" },
      .doc = "ISO 4217 code." },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_INTEGER, .name = "installments", .label = "Installments",
      .flags = FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM, .minimum = 1, .maximum = 120,
      .default_value = { .type = FW_FIELD_INTEGER, .as.integer = 1 }, .doc = "Number of payments." },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_BOOL, .name = "recurring", .label = "Recurring",
      .default_value = { .type = FW_FIELD_BOOL, .as.boolean = false }, .doc = "Whether it repeats monthly." },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_DATE, .name = "due", .label = "Due",
      .doc = "When the first payment is due." },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_TEXT, .name = "note", .label = "Note",
      .max_length = 1000, .doc = "Free text shown under the amount." },
};

static void *money_create(const fw_cell_type *type, const fw_host *host) {
    (void)type;
    money_cell *cell = calloc(1, sizeof *cell);
    if (!cell) return NULL;
    cell->host = host;
    strcpy(cell->currency, "EUR");
    cell->installments = 1;
    cell->due = NAN;
    return cell;
}

static void money_destroy(void *p) {
    money_cell *cell = p;
    if (!cell) return;
    free(cell->title);
    free(cell->note);
    free(cell);
}

static fw_status money_apply(money_cell *cell, const money_model *m) {
    if (m->amount < 0 || m->installments < 1) {
        log_message(cell->host, FW_LOG_ERROR, "money amount must be >= 0 with at least one installment");
        return FW_INVALID_ARGUMENT;
    }
    replace_string(&cell->title, m->title);
    replace_string(&cell->note, m->note);
    cell->amount = m->amount;
    snprintf(cell->currency, sizeof cell->currency, "%s", m->currency ? m->currency : "EUR");
    cell->installments = m->installments;
    cell->recurring = m->recurring;
    cell->due = m->due;
    return FW_OK;
}

/* Typed configure, by pointer. */
static fw_status money_configure_typed(void *p, const money_model *model) { return money_apply(p, model); }

static fw_status money_configure(void *p, const fw_value *values, uint32_t count) {
    if (count != 7) return FW_INVALID_ARGUMENT;
    money_model m = { .currency = "EUR", .installments = 1, .due = NAN };
    if (values[0].type == FW_FIELD_STRING) m.title = values[0].as.string;
    if (values[1].type == FW_FIELD_NUMBER) m.amount = values[1].as.number;
    if (values[2].type == FW_FIELD_CHOICE) m.currency = values[2].as.string;
    if (values[3].type == FW_FIELD_INTEGER) m.installments = values[3].as.integer;
    if (values[4].type == FW_FIELD_BOOL) m.recurring = values[4].as.boolean;
    if (values[5].type == FW_FIELD_DATE) m.due = values[5].as.number;
    if (values[6].type == FW_FIELD_TEXT) m.note = values[6].as.string;
    return money_apply(p, &m);
}

static fw_status money_render(void *p, const fw_canvas *canvas, void *ctx) {
    money_cell *cell = p;
    char text[160];
    int decimals = strcmp(cell->currency, "JPY") == 0 ? 0 : 2;
    if (cell->installments > 1)
        snprintf(text, sizeof text, "%.*f %s in %" PRId64 " installments of %.*f%s", decimals, cell->amount,
                 cell->currency, cell->installments, decimals, cell->amount / (double)cell->installments,
                 cell->recurring ? ", monthly" : "");
    else
        snprintf(text, sizeof text, "%.*f %s%s", decimals, cell->amount, cell->currency,
                 cell->recurring ? ", monthly" : "");
    canvas->begin_group(ctx, "row", NULL);
    canvas->value(ctx, cell->title ? cell->title : "Amount", text);
    canvas->end_group(ctx);
    if (!isnan(cell->due)) {
        time_t t = (time_t)cell->due;
        struct tm tm;
        char day[32], line[64];
        gmtime_r(&t, &tm);
        strftime(day, sizeof day, "%Y-%m-%d", &tm);
        snprintf(line, sizeof line, "First payment due %s.", day);
        canvas->message(ctx, FW_MESSAGE_HINT, line);
    }
    if (cell->note) canvas->message(ctx, FW_MESSAGE_HINT, cell->note);
    return FW_OK;
}

/* -------------------------------------------------------------------- pack */

static const fw_cell_type cell_types[] = {
    {
        .struct_size = sizeof(fw_cell_type),
        .flags = FW_CELL_SELECTABLE | FW_CELL_TYPED_CONFIGURE,
        .id = "org.formwork.c.rating",
        .name = "Star rating",
        .summary = "Zero to ten stars, with optional words per star count (typed configure, by value).",
        .fields = rating_fields,
        .field_count = sizeof rating_fields / sizeof rating_fields[0],
        .text_input_kind = FW_TEXT_INPUT_NONE,
        .create = rating_create,
        .destroy = rating_destroy,
        .configure = rating_configure,
        .render = rating_render,
        .did_set_selected = rating_did_set_selected,
        .value_changed = rating_value_changed,
        .typed_convention = FW_TYPED_BY_VALUE,
        .model_alignment = _Alignof(rating_model),
        .model_size = sizeof(rating_model),
        .typed_configure = (fw_typed_configure_fn)rating_configure_typed,
    },
    {
        .struct_size = sizeof(fw_cell_type),
        .flags = FW_CELL_TYPED_CONFIGURE,
        .id = "org.formwork.c.money",
        .name = "Money amount",
        .summary = "An amount in a currency, optionally split into installments (typed configure, by pointer).",
        .fields = money_fields,
        .field_count = sizeof money_fields / sizeof money_fields[0],
        .text_input_kind = FW_TEXT_INPUT_NONE,
        .create = money_create,
        .destroy = money_destroy,
        .configure = money_configure,
        .render = money_render,
        .typed_convention = FW_TYPED_BY_POINTER,
        .model_alignment = _Alignof(money_model),
        .model_size = sizeof(money_model),
        .typed_configure = (fw_typed_configure_fn)money_configure_typed,
    },
};

static const fw_pack pack = {
    .abi = FW_ABI_VERSION_INIT,
    .struct_size = sizeof(fw_pack),
    .id = "org.formwork.c",
    .name = "Rating cells (C)",
    .version = "1.0.0",
    .vendor = "Formwork",
    .license = "MIT",
    .description = "First-party cells written in plain C against formwork.h.",
    .cell_types = cell_types,
    .cell_type_count = sizeof cell_types / sizeof cell_types[0],
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
#pragma GCC visibility pop
