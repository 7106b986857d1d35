/*
 * A pack with the ABI 1.2 choices extension that misbehaves on request, for the host's
 * defences. Source "sizes" lists S, M, L unless a -D flag says otherwise:
 *   CHOICES_CRASH       list dereferences NULL        CHOICES_HANG       list never returns
 *   CHOICES_DUPLICATE   emits M twice                 CHOICES_EMPTY_VALUE emits ""
 *   CHOICES_FAIL        returns FW_ERROR after logging why
 *   CHOICES_NONE        emits nothing
 *   CHOICES_NULL_LIST   the extension's list is NULL (refused at load)
 *   CHOICES_BAD_SOURCE  a source named "9lives" (refused at load)
 *   CHOICES_ESCAPES     a label with terminal escapes
 */
#include "formwork.h"
#include <stddef.h>
#include <string.h>

static const fw_host *host;

static fw_status pack_init(const fw_host *h) { host = h; return FW_OK; }

static fw_status list(const char *source, fw_choice_sink emit, void *ctx) {
    (void)source;
#if defined(CHOICES_CRASH)
    volatile int *nowhere = NULL;
    *nowhere = 1;
#elif defined(CHOICES_HANG)
    for (;;) {}
#elif defined(CHOICES_FAIL)
    host->log(host, FW_LOG_ERROR, "the sizes service is down");
    return FW_ERROR;
#elif defined(CHOICES_NONE)
    (void)emit; (void)ctx;
    return FW_OK;
#endif
    emit(ctx, "S", "Small");
#if defined(CHOICES_EMPTY_VALUE)
    emit(ctx, "", "Nothing");
#endif
#if defined(CHOICES_ESCAPES)
    emit(ctx, "M", "Medium\033]0;owned\007\033[2J");
#else
    emit(ctx, "M", "Medium");
#endif
#if defined(CHOICES_DUPLICATE)
    emit(ctx, "M", "Medium again");
#endif
    emit(ctx, "L", NULL);
    return FW_OK;
}

#if defined(CHOICES_BAD_SOURCE)
static const char *const sources[] = { "9lives" };
#else
static const char *const sources[] = { "sizes" };
#endif
static const fw_choices_ext choices = {
    .struct_size = sizeof(fw_choices_ext), .sources = sources, .source_count = 1,
#if defined(CHOICES_NULL_LIST)
    .list = NULL,
#else
    .list = list,
#endif
};
static const void *get_extension(const char *id) { return strcmp(id, FW_PACK_EXTENSION_CHOICES) == 0 ? &choices : NULL; }

static void *create(const fw_cell_type *t, const fw_host *h) { (void)t; (void)h; static int one; return &one; }
static void destroy(void *c) { (void)c; }
static fw_status configure(void *c, const fw_value *v, uint32_t n) { (void)c; (void)v; (void)n; return FW_OK; }
static fw_status render(void *c, const fw_canvas *canvas, void *ctx) { (void)c; canvas->label(ctx, "sizes", FW_LABEL_BODY); return FW_OK; }

static const fw_cell_type cell_types[] = { {
    .struct_size = sizeof(fw_cell_type), .id = "com.example.sizes.note", .name = "Note", .create = create, .destroy = destroy,
    .configure = configure, .render = render,
} };

static const fw_pack pack = {
    .abi = FW_ABI_VERSION_INIT, .struct_size = sizeof(fw_pack), .id = "com.example.sizes", .name = "Sizes", .version = "1.0.0",
    .init = pack_init, .cell_types = cell_types, .cell_type_count = 1, .get_extension = get_extension,
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
