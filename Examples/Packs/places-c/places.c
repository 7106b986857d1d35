/*
 * A pack that supplies choices (ABI 1.2, pack extension "org.formwork.choices/1"):
 * airports and countries, for a document's picker or multi-select to choose from:
 *
 *     - id: from
 *       cell: org.formwork.picker
 *       choicesFrom: com.example.places/airports
 *       model: { title: Flying from }
 *
 * The airports come from `airports.tsv` in the pack's resource directory
 * (`<directory of the library>/com.example.places/`, one "CODE<TAB>Name" per
 * line) when there is one, so the list changes without rebuilding the pack;
 * otherwise from the built-in list below. Formwork asks `list` in its sandboxed
 * cell host when it renders such a field and when one is submitted; it may
 * reuse an answer for `cache_seconds` when rendering.
 *
 * Written from formwork.h alone, as a third party would; built by the Makefile.
 */
#define _POSIX_C_SOURCE 200809L
#include "formwork.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct place {
    const char *code;
    const char *name;
} place;

static const place builtin_airports[] = {
    { "AMS", "Amsterdam Schiphol" }, { "CDG", "Paris Charles de Gaulle" }, { "FRA", "Frankfurt am Main" },
    { "LHR", "London Heathrow" },    { "MAD", "Madrid Barajas" },         { "ZRH", "Zürich" },
};
static const place countries[] = {
    { "DE", "Germany" }, { "ES", "Spain" }, { "FR", "France" }, { "GB", "United Kingdom" }, { "NL", "Netherlands" },
    { "CH", "Switzerland" },
};

/* Airports read from the resource directory by `init` (NULL: the built-in list). */
static place *loaded_airports;
static size_t loaded_count;
static const fw_host *the_host;

static void load_airports(const char *directory) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/airports.tsv", directory) >= (int)sizeof path) return;
    FILE *file = fopen(path, "r");
    if (!file) return;
    char line[512];
    size_t capacity = 0;
    while (fgets(line, sizeof line, file) && loaded_count < 10000) {
        char *tab = strchr(line, '\t');
        if (!tab || tab == line) continue;
        *tab = '\0';
        char *name = tab + 1;
        name[strcspn(name, "\r\n")] = '\0';
        if (loaded_count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            place *grown = realloc(loaded_airports, capacity * sizeof *grown);
            if (!grown) break;
            loaded_airports = grown;
        }
        loaded_airports[loaded_count].code = strdup(line);
        loaded_airports[loaded_count].name = strdup(name);
        if (!loaded_airports[loaded_count].code || !loaded_airports[loaded_count].name) break;
        loaded_count++;
    }
    fclose(file);
}

static fw_status places_init(const fw_host *host) {
    the_host = host;
    const fw_pack_context *context = host->get_extension(host, FW_EXTENSION_PACK_CONTEXT);
    if (context && context->resource_dir) load_airports(context->resource_dir);
    return FW_OK;
}

static void places_deinit(void) {
    for (size_t i = 0; i < loaded_count; i++) {
        free((char *)loaded_airports[i].code);
        free((char *)loaded_airports[i].name);
    }
    free(loaded_airports);
    loaded_airports = NULL;
    loaded_count = 0;
}

static fw_status list(const char *source, fw_choice_sink emit, void *ctx) {
    const place *places;
    size_t count;
    if (strcmp(source, "airports") == 0) {
        places = loaded_airports ? loaded_airports : builtin_airports;
        count = loaded_airports ? loaded_count : sizeof builtin_airports / sizeof builtin_airports[0];
    } else if (strcmp(source, "countries") == 0) {
        places = countries;
        count = sizeof countries / sizeof countries[0];
    } else {
        if (the_host) the_host->log(the_host, FW_LOG_ERROR, "unknown source");
        return FW_ERROR;
    }
    for (size_t i = 0; i < count; i++) emit(ctx, places[i].code, places[i].name);
    return FW_OK;
}

static const char *const sources[] = { "airports", "countries" };

static const fw_choices_ext choices = {
    .struct_size = sizeof(fw_choices_ext),
    .sources = sources,
    .source_count = 2,
    .cache_seconds = 60,
    .list = list,
};

static const void *get_extension(const char *id) {
    return strcmp(id, FW_PACK_EXTENSION_CHOICES) == 0 ? &choices : NULL;
}

/* A pack declares at least one cell type: a line naming a place, for a summary page. */
typedef struct label_cell { char text[256]; } label_cell;

static void *label_create(const fw_cell_type *type, const fw_host *host) {
    (void)type; (void)host;
    return calloc(1, sizeof(label_cell));
}
static void label_destroy(void *cell) { free(cell); }
static fw_status label_configure(void *cell, const fw_value *values, uint32_t count) {
    label_cell *c = cell;
    const char *text = count > 0 && values[0].type == FW_FIELD_STRING ? values[0].as.string : "";
    snprintf(c->text, sizeof c->text, "%s", text ? text : "");
    return FW_OK;
}
static fw_status label_render(void *cell, const fw_canvas *canvas, void *ctx) {
    canvas->label(ctx, ((label_cell *)cell)->text, FW_LABEL_BODY);
    return FW_OK;
}

static const fw_field label_fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "text", .label = "Text", .flags = FW_FIELD_REQUIRED,
      .max_length = 200 },
};

static const fw_cell_type cell_types[] = {
    {
        .struct_size = sizeof(fw_cell_type),
        .id = "com.example.places.note",
        .name = "Place note",
        .summary = "A line of text about a place.",
        .fields = label_fields,
        .field_count = 1,
        .create = label_create,
        .destroy = label_destroy,
        .configure = label_configure,
        .render = label_render,
        .value_field = "",
    },
};

static const fw_pack pack = {
    .abi = FW_ABI_VERSION_INIT,
    .struct_size = sizeof(fw_pack),
    .id = "com.example.places",
    .name = "Places",
    .version = "1.0.0",
    .vendor = "Example",
    .license = "MIT",
    .description = "Airports and countries to choose from (ABI 1.2 choices extension).",
    .init = places_init,
    .deinit = places_deinit,
    .cell_types = cell_types,
    .cell_type_count = 1,
    .get_extension = get_extension,
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
