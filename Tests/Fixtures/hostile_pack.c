/*
 * A hostile pack for the isolation tests, compiled at test time like a
 * third-party pack (cc -shared -fPIC -fvisibility=hidden, header only).
 * It misbehaves in one place, chosen by -D flags:
 *   HOSTILE_AT_<POINT>   CONSTRUCTOR, ENTRY, INIT, CREATE, CONFIGURE, TYPED, VALUE_CHANGED,
 *                        RENDER, DESTROY or DEINIT (TYPED also declares typed configure)
 *   HOSTILE_<HOW>        CRASH (writes through NULL), ABORT, EXIT (exit(0)), HANG, or
 *                        STDOUT (prints on standard output and carries on), or WHOAMI
 *                        (prints its process's command line, "cmdline: ...", then aborts), or FRAME
 *                        (writes HOSTILE_FRAME_TAG into the scanner's progress page, found in
 *                        /proc/self/maps, as if another pack were being read, then crashes: the host
 *                        must not believe it), or BREAK (closes the channel, descriptor 3, and
 *                        returns as if nothing happened), or LOG_THREAD (logs 70 messages with a
 *                        terminal escape from a thread of its own, then one during the call, and
 *                        carries on), or FAIL (with INIT: logs "no licence file" and returns FW_ERROR)
 *   HOSTILE_SANDBOX      render tries execve, an AF_INET socket, ptrace and killing its
 *                        parent (the host), and shows
 *                        what each returned (errno names) as values
 *   HOSTILE_PACK_ID / HOSTILE_CELL_ID   identifiers
 * Its cell type has two string fields, "title" and "value" (the value role).
 */
#define _GNU_SOURCE
#include "formwork.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <unistd.h>
#include <pthread.h>

#ifndef HOSTILE_PACK_ID
#define HOSTILE_PACK_ID "com.hostile.pack"
#endif
#ifndef HOSTILE_FRAME_TAG
#define HOSTILE_FRAME_TAG 0
#endif
#ifndef HOSTILE_CELL_ID
#define HOSTILE_CELL_ID "com.hostile.cell"
#endif

#if defined(HOSTILE_FRAME)
/* The progress page as pack code finds it: the child maps it from a memfd and closes the descriptor. */
static volatile unsigned long long *progress_page(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return NULL;
    char line[512];
    unsigned long start = 0;
    while (fgets(line, sizeof line, maps))
        if (strstr(line, "formwork-progress") && sscanf(line, "%lx", &start) == 1) break;
    fclose(maps);
    return (volatile unsigned long long *)start;
}
#endif

static const fw_host *saved_host;

#if defined(HOSTILE_LOG_THREAD)
static void *logger(void *unused) {
    (void)unused;
    for (int i = 0; i < 70; i++) saved_host->log(saved_host, FW_LOG_WARNING, "from its own thread \x1b]0;pwned\x07");
    return NULL;
}
#endif

static void misbehave(void) {
#if defined(HOSTILE_CRASH)
    *(volatile int *)0 = 1;
#elif defined(HOSTILE_ABORT)
    abort();
#elif defined(HOSTILE_EXIT)
    exit(0);
#elif defined(HOSTILE_HANG)
    for (;;) pause();
#elif defined(HOSTILE_STDOUT)
    printf("hostile output on stdout\n");
    fflush(stdout);
#elif defined(HOSTILE_FRAME)
    volatile unsigned long long *page = progress_page();
    if (page) {
        page[1] = HOSTILE_FRAME_TAG;
        page[0] += 1;
    }
    *(volatile int *)0 = 1;
#elif defined(HOSTILE_LOG_THREAD)
    pthread_t thread;
    if (saved_host && pthread_create(&thread, NULL, logger, NULL) == 0) pthread_join(thread, NULL);
    if (saved_host) saved_host->log(saved_host, FW_LOG_WARNING, "during the call");
#elif defined(HOSTILE_BREAK)
    close(3);
#elif defined(HOSTILE_WHOAMI)
    char text[512] = {0};
    int fd = open("/proc/self/cmdline", O_RDONLY);
    ssize_t n = fd < 0 ? 0 : read(fd, text, sizeof text - 1);
    for (ssize_t i = 0; i < n; i++)
        if (text[i] == 0) text[i] = ' ';
    printf("cmdline: %s\n", text);
    fflush(stdout);
    abort();
#endif
}

#if defined(HOSTILE_AT_CONSTRUCTOR)
__attribute__((constructor)) static void on_load(void) { misbehave(); }
#endif
#define AT(point) (defined(HOSTILE_AT_##point))

typedef struct hostile_cell {
    char title[64];
    char value[64];
} hostile_cell;

static fw_status pack_init(const fw_host *host) {
    saved_host = host;
#if defined(HOSTILE_AT_INIT) && defined(HOSTILE_FAIL)
    host->log(host, FW_LOG_ERROR, "no licence file");
    return FW_ERROR;
#elif defined(HOSTILE_AT_INIT)
    misbehave();
#endif
    return FW_OK;
}

static void pack_deinit(void) {
#if defined(HOSTILE_AT_DEINIT)
    misbehave();
#endif
}

static void *create(const fw_cell_type *type, const fw_host *host) {
    (void)type;
    (void)host;
#if defined(HOSTILE_AT_CREATE)
    misbehave();
#endif
    return calloc(1, sizeof(hostile_cell));
}

static void destroy(void *cell) {
#if defined(HOSTILE_AT_DESTROY)
    misbehave();
#endif
    free(cell);
}

static void copy(char *to, const fw_value *v) { snprintf(to, 64, "%s", v->type == FW_FIELD_STRING && v->as.string ? v->as.string : ""); }

static fw_status configure(void *cell, const fw_value *values, uint32_t count) {
#if defined(HOSTILE_AT_CONFIGURE)
    misbehave();
#endif
    hostile_cell *c = cell;
    if (count != 2) return FW_INVALID_ARGUMENT;
    copy(c->title, &values[0]);
    copy(c->value, &values[1]);
    return FW_OK;
}

typedef struct hostile_model {
    const char *title;
    const char *value;
} hostile_model;

static fw_status typed_configure(void *cell, const hostile_model *model) {
#if defined(HOSTILE_AT_TYPED)
    misbehave();
#endif
    hostile_cell *c = cell;
    snprintf(c->title, sizeof c->title, "%s", model->title ? model->title : "");
    snprintf(c->value, sizeof c->value, "%s", model->value ? model->value : "");
    return FW_OK;
}

static fw_status value_changed(void *cell, const char *field, const fw_value *value, const char **message) {
    (void)cell;
    (void)field;
    (void)value;
    (void)message;
#if defined(HOSTILE_AT_VALUE_CHANGED)
    misbehave();
#endif
    return FW_OK;
}

#ifdef HOSTILE_SANDBOX
static const char *outcome(int result) {
    if (result >= 0) return "allowed";
    return errno == EPERM ? "EPERM" : strerror(errno);
}
#endif

static fw_status render(void *cell, const fw_canvas *canvas, void *ctx) {
#if defined(HOSTILE_AT_RENDER)
    misbehave();
#endif
    hostile_cell *c = cell;
    canvas->label(ctx, c->title, FW_LABEL_TITLE);
    canvas->text_input(ctx, "value", c->title, c->value, NULL, 0);
#ifdef HOSTILE_SANDBOX
    char *const argv[] = { "/bin/true", NULL };
    canvas->value(ctx, "execve", outcome(execve("/bin/true", argv, NULL)));
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    canvas->value(ctx, "socket", outcome(fd));
    if (fd >= 0) close(fd);
    canvas->value(ctx, "ptrace", outcome((int)ptrace(PTRACE_TRACEME, 0, NULL, NULL)));
    canvas->value(ctx, "kill", outcome(kill(getppid(), SIGKILL)));
#endif
    return FW_OK;
}

static const fw_field fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "title", .label = "Title" },
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "value", .label = "Value" },
};

static const fw_cell_type cells[] = { {
    .struct_size = sizeof(fw_cell_type),
#if defined(HOSTILE_AT_TYPED)
    .flags = FW_CELL_TYPED_CONFIGURE,
    .typed_configure = (fw_typed_configure_fn)typed_configure,
    .typed_convention = FW_TYPED_BY_POINTER,
    .model_size = sizeof(hostile_model),
    .model_alignment = FW_ALIGNOF(hostile_model),
#endif
    .id = HOSTILE_CELL_ID,
    .name = "Hostile",
    .fields = fields,
    .field_count = 2,
    .create = create,
    .destroy = destroy,
    .configure = configure,
    .render = render,
    .value_changed = value_changed,
    .value_field = "value",
    .title_field = "title",
} };

static const fw_pack pack = {
    .abi = { FW_ABI_VERSION_MAJOR, FW_ABI_VERSION_MINOR, 0 },
    .struct_size = sizeof(fw_pack),
    .id = HOSTILE_PACK_ID,
    .name = "Hostile",
    .version = "1.0.0",
    .init = pack_init,
    .deinit = pack_deinit,
    .cell_types = cells,
    .cell_type_count = 1,
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) {
#if defined(HOSTILE_AT_ENTRY)
    misbehave();
#endif
    return &pack;
}
