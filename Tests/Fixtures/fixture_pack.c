/*
 * One pack source, compiled at test time with -D flags into good, broken and
 * version-skewed packs (cc -shared -fPIC -fvisibility=hidden, header only).
 *
 *   FIXTURE_PACK_ID="..."  FIXTURE_CELL_ID="..."   identifiers
 *   FIXTURE_ABI_MAJOR=n / FIXTURE_ABI_MINOR=n      claimed ABI version
 *   FIXTURE_PACK_SIZE=n / FIXTURE_CELL_SIZE=n      claimed struct_size
 *   FIXTURE_ENTRY_NULL, FIXTURE_NO_ENTRY, FIXTURE_ONLY_V2
 *   FIXTURE_DUPLICATE_FIELD, FIXTURE_UNKNOWN_TYPE, FIXTURE_MIN_GT_MAX,
 *   FIXTURE_DEFAULT_OUT_OF_RANGE, FIXTURE_EMPTY_CHOICES,
 *   FIXTURE_TEXT_INPUT_MISSING, FIXTURE_TYPED_SIZE_MISMATCH, FIXTURE_INVALID_UTF8
 *   FIXTURE_GROWN: append fields to every struct, as a future minor would
 *   For `formwork check`: FIXTURE_CRASH_RENDER, FIXTURE_HANG_RENDER, FIXTURE_EXTRA_EXPORT,
 *   FIXTURE_REJECT_NO_MESSAGE, FIXTURE_TYPED_DIFFERS, FIXTURE_TYPED_FORGETS
 *   FIXTURE_HEAP_DESCRIPTOR: the fw_pack lives in a heap block of exactly struct_size bytes
 *   FIXTURE_LIFECYCLE: init/deinit count their calls; render shows "init=N deinit=M"
 *   FIXTURE_END_LOG="path" (with FIXTURE_LIFECYCLE): destroy and deinit each append a line to that file
 *   Hostile: FIXTURE_CELL_COUNT=n (the cells array claims n elements; with FIXTURE_CELL_SIZE a huge stride),
 *   FIXTURE_HUGE_BOUND (integer maximum 1e300), FIXTURE_ESCAPES (labels and messages with terminal escapes),
 *   FIXTURE_PRINTS (writes to standard output in its entry, init and render)
 *   FIXTURE_KEEPS_VALUE_POINTER: value_changed keeps the host's field name; render reads it
 *   FIXTURE_KEEPS_CONFIGURE_POINTER: configure keeps the title's pointer; render reads it
 */
#include "formwork.h"

#include <stdlib.h>
#include <string.h>

#ifndef FIXTURE_PACK_ID
#define FIXTURE_PACK_ID "com.example.fixture"
#endif
#ifndef FIXTURE_CELL_ID
#define FIXTURE_CELL_ID "com.example.fixture.counter"
#endif
#ifndef FIXTURE_ABI_MAJOR
#define FIXTURE_ABI_MAJOR FW_ABI_VERSION_MAJOR
#endif
#ifndef FIXTURE_ABI_MINOR
#define FIXTURE_ABI_MINOR FW_ABI_VERSION_MINOR
#endif

#ifdef FIXTURE_GROWN
/* A future minor appends members; a 1.0 host must never read them. */
typedef struct grown_field { fw_field base; uint64_t future[4]; } grown_field;
typedef struct grown_cell { fw_cell_type base; uint64_t future[4]; } grown_cell;
typedef struct grown_pack { fw_pack base; uint64_t future[4]; } grown_pack;
#define FIELD_T grown_field
#define FIELD(...) { .base = { __VA_ARGS__ } }
#else
#define FIELD_T fw_field
#define FIELD(...) { __VA_ARGS__ }
#endif

/* The typed model: title (string), count (integer), mood (choice). */
typedef struct counter_model {
    const char *title;
    int64_t count;
    const char *mood;
} counter_model;

typedef struct counter { int64_t count; int configured; const char *kept; } counter;

static const fw_choice moods[] = {
    { sizeof(fw_choice), 0, "happy", "Happy" },
    { sizeof(fw_choice), 0, "sad", "Sad" },
};

#ifdef FIXTURE_UNKNOWN_TYPE
#define COUNT_TYPE 99
#else
#define COUNT_TYPE FW_FIELD_INTEGER
#endif
#ifdef FIXTURE_MIN_GT_MAX
#define COUNT_MIN 10
#define COUNT_MAX 1
#elif defined(FIXTURE_HUGE_BOUND)
#define COUNT_MIN 0
#define COUNT_MAX 1e300
#else
#define COUNT_MIN 0
#define COUNT_MAX 10
#endif
#ifdef FIXTURE_DEFAULT_OUT_OF_RANGE
#define COUNT_DEFAULT 12
#else
#define COUNT_DEFAULT 1
#endif
#ifdef FIXTURE_DUPLICATE_FIELD
#define MOOD_NAME "count"
#else
#define MOOD_NAME "mood"
#endif
#ifdef FIXTURE_EMPTY_CHOICES
#define MOOD_CHOICES .choices = NULL, .choice_count = 0
#else
#define MOOD_CHOICES .choices = moods, .choice_count = 2
#endif
#ifdef FIXTURE_INVALID_UTF8
#define TITLE_LABEL "Ti\xC3\x28tle"
#elif defined(FIXTURE_ESCAPES)
#define TITLE_LABEL "Title\033]0;owned\007\033[2J"
#else
#define TITLE_LABEL "Title"
#endif

static const FIELD_T fields[] = {
    FIELD(.struct_size = sizeof(FIELD_T), .type = FW_FIELD_STRING, .name = "title", .label = TITLE_LABEL,
          .flags = FW_FIELD_REQUIRED),
    FIELD(.struct_size = sizeof(FIELD_T), .type = COUNT_TYPE, .name = "count",
          .flags = FW_FIELD_HAS_MINIMUM | FW_FIELD_HAS_MAXIMUM, .minimum = COUNT_MIN, .maximum = COUNT_MAX,
          .default_value = { .type = FW_FIELD_INTEGER, .as.integer = COUNT_DEFAULT }),
    FIELD(.struct_size = sizeof(FIELD_T), .type = FW_FIELD_CHOICE, .name = MOOD_NAME, MOOD_CHOICES),
};

static void *counter_create(const fw_cell_type *type, const fw_host *host) {
    (void)type; (void)host;
    return calloc(1, sizeof(counter));
}
#if defined(FIXTURE_LIFECYCLE) && defined(FIXTURE_END_LOG)
#include <stdio.h>
static void end_log(const char *line) {
    FILE *f = fopen(FIXTURE_END_LOG, "a");
    if (f) {
        fputs(line, f);
        fclose(f);
    }
}
#endif

static void counter_destroy(void *cell) {
#if defined(FIXTURE_LIFECYCLE) && defined(FIXTURE_END_LOG)
    end_log("destroy\n");
#endif
    free(cell);
}
static fw_status counter_configure(void *cell, const fw_value *values, uint32_t count) {
    if (count != 3) return FW_INVALID_ARGUMENT;
    ((counter *)cell)->count = values[1].type == FW_FIELD_INTEGER ? values[1].as.integer : 0;
    ((counter *)cell)->configured = 1;
#ifdef FIXTURE_KEEPS_CONFIGURE_POINTER
    ((counter *)cell)->kept = values[0].as.string; /* wrong: valid only during the call */
#endif
    return FW_OK;
}
static fw_status counter_configure_typed(void *cell, const counter_model *model) {
#ifdef FIXTURE_TYPED_DIFFERS
    ((counter *)cell)->count = model->count + 1;
#elif defined(FIXTURE_TYPED_FORGETS)
    (void)model; /* forgets `count`: after a generic configure the stale value hides it */
#else
    ((counter *)cell)->count = model->count;
#endif
    ((counter *)cell)->configured = 2;
#ifdef FIXTURE_KEEPS_CONFIGURE_POINTER
    ((counter *)cell)->kept = model->title; /* wrong: valid only during the call */
#endif
    return FW_OK;
}
static fw_status counter_value_changed(void *cell, const char *field, const fw_value *value, const char **message) {
    (void)cell; (void)field; (void)value;
#ifdef FIXTURE_KEEPS_VALUE_POINTER
    ((counter *)cell)->kept = field; /* wrong: valid only during the call */
#endif
#ifdef FIXTURE_REJECT_NO_MESSAGE
    (void)message;
    return FW_REJECTED;
#else
#ifdef FIXTURE_ESCAPES
    if (value->type == FW_FIELD_INTEGER && value->as.integer > 10) { *message = "at most 10\033]52;c;b3duZWQ=\007"; return FW_REJECTED; }
#else
    if (value->type == FW_FIELD_INTEGER && value->as.integer > 10) { *message = "at most 10"; return FW_REJECTED; }
#endif
    return FW_OK;
#endif
}

#ifdef FIXTURE_LIFECYCLE
#include <stdio.h>
static int inits, deinits;
static fw_status pack_init(const fw_host *host) { (void)host; inits++; return FW_OK; }
static void pack_deinit(void) {
    deinits++;
#ifdef FIXTURE_END_LOG
    end_log("deinit\n");
#endif
}
#define PACK_LIFECYCLE .init = pack_init, .deinit = pack_deinit,
#elif defined(FIXTURE_PRINTS)
#include <stdio.h>
#include <unistd.h>
static fw_status pack_init(const fw_host *host) { (void)host; printf("PACK-STDOUT init\n"); return FW_OK; }
#define PACK_LIFECYCLE .init = pack_init,
#else
#define PACK_LIFECYCLE
#endif

static fw_status counter_render(void *cell, const fw_canvas *canvas, void *ctx) {
#ifdef FIXTURE_LIFECYCLE
    char counts[64];
    snprintf(counts, sizeof counts, "init=%d deinit=%d", inits, deinits);
    canvas->value(ctx, "Lifecycle", counts);
#endif
#ifdef FIXTURE_PRINTS
    printf("PACK-STDOUT render (buffered)\n");
    (void)!write(1, "PACK-STDOUT render (raw)\n", 26);
#endif
#ifdef FIXTURE_ESCAPES
    canvas->value(ctx, "Escapes\033[31m", "\033]8;;http://evil.example\007link\033]8;;\007");
#endif
#ifdef FIXTURE_CRASH_RENDER
    volatile int *nowhere = NULL;
    *nowhere = 1;
#endif
#ifdef FIXTURE_HANG_RENDER
    for (;;) {}
#endif
    if (((counter *)cell)->kept) canvas->value(ctx, "Kept", ((counter *)cell)->kept);
    char text[32];
    int64_t n = ((counter *)cell)->count;
    int i = 0;
    if (n < 0) n = 0;
    if (n > 20) n = 20;
    for (; i < n; i++) text[i] = '#';
    text[i] = 0;
    canvas->value(ctx, "Count", text);
    return FW_OK;
}

#ifdef FIXTURE_TEXT_INPUT_MISSING
#define TEXT_INPUT FW_TEXT_INPUT_TEXT_FIELD, "subtitle"
#else
#define TEXT_INPUT FW_TEXT_INPUT_TEXT_FIELD, "title"
#endif
#ifdef FIXTURE_TYPED_SIZE_MISMATCH
#define MODEL_SIZE (sizeof(counter_model) + 8)
#else
#define MODEL_SIZE sizeof(counter_model)
#endif

#ifdef FIXTURE_GROWN
#define CELL_T grown_cell
#define CELL(...) { .base = { __VA_ARGS__ } }
#else
#define CELL_T fw_cell_type
#define CELL(...) { __VA_ARGS__ }
#endif
#ifndef FIXTURE_CELL_SIZE
#define FIXTURE_CELL_SIZE sizeof(CELL_T)
#endif

static const CELL_T cells[] = {
    CELL(.struct_size = FIXTURE_CELL_SIZE,
         .flags = FW_CELL_TYPED_CONFIGURE,
         .id = FIXTURE_CELL_ID,
         .name = "Counter",
         .summary = "A test cell.",
         .fields = (const fw_field *)fields,
         .field_count = 3,
         .text_input_kind = TEXT_INPUT,
         .create = counter_create,
         .destroy = counter_destroy,
         .configure = counter_configure,
         .render = counter_render,
         .value_changed = counter_value_changed,
         .typed_convention = FW_TYPED_BY_POINTER,
         .model_alignment = _Alignof(counter_model),
         .model_size = MODEL_SIZE,
         .typed_configure = (fw_typed_configure_fn)counter_configure_typed),
};

#ifdef FIXTURE_GROWN
#define PACK_T grown_pack
#define PACK(...) { .base = { __VA_ARGS__ } }
#else
#define PACK_T fw_pack
#define PACK(...) { __VA_ARGS__ }
#endif
#ifndef FIXTURE_PACK_SIZE
#define FIXTURE_PACK_SIZE sizeof(PACK_T)
#endif

static const PACK_T pack = PACK(
    .abi = { FIXTURE_ABI_MAJOR, FIXTURE_ABI_MINOR, 0 },
    .struct_size = FIXTURE_PACK_SIZE,
    .id = FIXTURE_PACK_ID,
    .name = "Fixture",
    .version = "1.0.0",
    PACK_LIFECYCLE
    .cell_types = (const fw_cell_type *)cells,
#ifdef FIXTURE_CELL_COUNT
    .cell_type_count = FIXTURE_CELL_COUNT);
#else
    .cell_type_count = 1);
#endif

#ifdef FIXTURE_EXTRA_EXPORT
FW_EXPORT const fw_pack *formwork_pack_latest(void) { return (const fw_pack *)&pack; }
#endif

#if defined(FIXTURE_HEAP_DESCRIPTOR)
/* A heap copy of exactly FIXTURE_PACK_SIZE bytes: under AddressSanitizer any read
 * past struct_size is reported. */
FW_EXPORT const fw_pack *formwork_pack_v1(void) {
    static void *copy;
    if (!copy) {
        copy = malloc(FIXTURE_PACK_SIZE);
        memcpy(copy, &pack, FIXTURE_PACK_SIZE < sizeof pack ? FIXTURE_PACK_SIZE : sizeof pack);
    }
    return copy;
}
#elif defined(FIXTURE_NO_ENTRY)
FW_EXPORT int not_a_formwork_entry(void) { return 42; }
#elif defined(FIXTURE_ONLY_V2)
FW_EXPORT const fw_pack *formwork_pack_v2(void) { return (const fw_pack *)&pack; }
#elif defined(FIXTURE_ENTRY_NULL)
FW_EXPORT const fw_pack *formwork_pack_v1(void) { return NULL; }
#elif defined(FIXTURE_PRINTS)
FW_EXPORT const fw_pack *formwork_pack_v1(void) {
    printf("PACK-STDOUT entry\n");
    return (const fw_pack *)&pack;
}
#else
FW_EXPORT const fw_pack *formwork_pack_v1(void) { return (const fw_pack *)&pack; }
#endif
