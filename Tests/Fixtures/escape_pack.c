/* A pack that tries to escape the cell host's sandbox from `render` (docs/isolation.md, "The sandbox"), and
 * shows what each attempt returned as a value: "blocked" (with the errno's name) or "allowed" (with what it got).
 * Paths come from defines, since the sandbox gives a child no environment of the host's:
 *   ESCAPE_WRITE_PATH    a file the pack tries to create (in the user's home, or beside the document)
 *   ESCAPE_SECRET_PATH   a file the pack tries to read and show (a fake private key)
 *   ESCAPE_CONSTRUCTOR   also fork a daemon from the library's constructor (the scanner loads it)
 *   ESCAPE_UNIX_STREAM   a listening UNIX stream socket outside the sandbox the pack tries to connect to
 *   ESCAPE_UNIX_DGRAM    a UNIX datagram socket outside the sandbox the pack tries to send to, from a socket of its
 *                        own and from one end of a datagram socket pair (sendto with an address needs no connect)
 *   ESCAPE_FORGE_PROGRESS  instead: hang in render while a thread keeps writing the progress page (found in
 *                        /proc/self/maps: the child maps it and closes its descriptor)
 *   ESCAPE_FLOOD_FRAME     instead: write a frame header announcing 0xFFFFFFF0 bytes to the channel (descriptor 3),
 *                        then a byte every 20 ms
 * The test builds it, renders a form with its cell, and checks the host, the file system and the processes. */
#define _GNU_SOURCE
#include "formwork.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <dirent.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/mman.h>

#ifndef ESCAPE_WRITE_PATH
#define ESCAPE_WRITE_PATH "/tmp/formwork-escaped.txt"
#endif
#ifndef ESCAPE_SECRET_PATH
#define ESCAPE_SECRET_PATH "/etc/hostname"
#endif

#ifndef ESCAPE_UNIX_STREAM
#define ESCAPE_UNIX_STREAM "/tmp/formwork-escape-stream.sock"
#endif
#ifndef ESCAPE_UNIX_DGRAM
#define ESCAPE_UNIX_DGRAM "/tmp/formwork-escape-dgram.sock"
#endif

static char results[24][160];
static int result_count;

static void note(const char *name, int allowed, const char *detail) {
    if (result_count >= (int)(sizeof results / sizeof results[0])) return;
    snprintf(results[result_count++], sizeof results[0], "%s: %s%s%s", name, allowed ? "allowed" : "blocked ",
             allowed ? (detail ? " " : "") : detail, allowed && detail ? detail : "");
}

static const char *error_name(int e) {
    switch (e) {
    case EPERM: return "EPERM";
    case EACCES: return "EACCES";
    case ENOSYS: return "ENOSYS";
    case ESRCH: return "ESRCH";
    case ENOMEM: return "ENOMEM";
    case EROFS: return "EROFS";
    case ENOENT: return "ENOENT";
    case EAGAIN: return "EAGAIN";
    default: return strerror(e);
    }
}

static void check(const char *name, long result) {
    note(name, result >= 0, result >= 0 ? NULL : error_name(errno));
}

/* Sends "escaped" to the UNIX socket at `path`: a stream socket by connect, a datagram socket by sendto with the
 * address (from a socket of its own, or from one end of a socket pair). Returns what the last call returned. */
static long unix_attempt(int type, int pair, const char *path) {
    int fds[2] = {-1, -1};
    if (pair) {
        if (socketpair(AF_UNIX, type, 0, fds) != 0) return -1;
    } else if ((fds[0] = socket(AF_UNIX, type, 0)) < 0) {
        return -1;
    }
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    long result;
    if (type == SOCK_STREAM) {
        result = connect(fds[0], (struct sockaddr *)&address, sizeof address);
        if (result == 0) result = write(fds[0], "escaped", 7);
    } else {
        result = sendto(fds[0], "escaped", 7, 0, (struct sockaddr *)&address, sizeof address);
    }
    int saved = errno;
    close(fds[0]);
    if (fds[1] >= 0) close(fds[1]);
    errno = saved;
    return result;
}

#ifdef ESCAPE_CONSTRUCTOR
__attribute__((constructor)) static void on_load(void) {
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        for (;;) pause(); /* a daemon that would outlive its host */
    }
}
#endif

static void attack(void) {
    result_count = 0;
    int fd = open(ESCAPE_WRITE_PATH, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd >= 0) {
        (void)!write(fd, "escaped\n", 8);
        close(fd);
    }
    check("write-file", fd);
    char secret[96] = {0};
    fd = open(ESCAPE_SECRET_PATH, O_RDONLY);
    if (fd >= 0) {
        ssize_t n = read(fd, secret, sizeof secret - 1);
        close(fd);
        for (ssize_t i = 0; i < n; i++) if (secret[i] == '\n') secret[i] = ' ';
        note("read-secret", 1, secret);
    } else {
        note("read-secret", 0, error_name(errno));
    }
    check("socket-inet", socket(AF_INET, SOCK_STREAM, 0));
    check("unix-connect", unix_attempt(SOCK_STREAM, 0, ESCAPE_UNIX_STREAM));
    check("unix-sendto", unix_attempt(SOCK_DGRAM, 0, ESCAPE_UNIX_DGRAM));
    check("pair-sendto", unix_attempt(SOCK_DGRAM, 1, ESCAPE_UNIX_DGRAM));
    struct io_uring_params params;
    memset(&params, 0, sizeof params);
    check("io-uring", syscall(SYS_io_uring_setup, 4, &params));
    check("kill-parent", kill(getppid(), SIGKILL));
    union sigval value = {0};
    check("sigqueue-parent", sigqueue(getppid(), SIGKILL, value));
#ifdef SYS_pidfd_open
    check("pidfd-parent", syscall(SYS_pidfd_open, getppid(), 0));
#endif
    struct rlimit zero = {0, 0};
    check("prlimit-parent", prlimit(getppid(), RLIMIT_FSIZE, &zero, NULL));
    check("ptrace-parent", ptrace(PTRACE_ATTACH, getppid(), NULL, NULL));
    check("clear-deathsig", prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0));
    pid_t child = fork();
    if (child == 0) {
        for (;;) pause();
    }
    check("fork-daemon", child);
    char *const argv[] = {"/bin/true", NULL};
    check("execve", execve("/bin/true", argv, NULL));
    /* How many processes this one can see: its own namespace's only (init and itself). */
    int seen = 0;
    DIR *proc = opendir("/proc");
    if (proc) {
        struct dirent *entry;
        while ((entry = readdir(proc)) != NULL) if (entry->d_name[0] >= '1' && entry->d_name[0] <= '9') seen++;
        closedir(proc);
    }
    char count[32];
    snprintf(count, sizeof count, "%d", seen);
    note("processes-seen", 1, count);
    void *big = malloc((size_t)5 << 30);
    if (big) {
        memset(big, 1, (size_t)5 << 30);
        free(big);
    }
    note("alloc-5g", big != NULL, big ? NULL : "ENOMEM");
    /* Terminal escapes on both streams: the host must neutralise them. */
    static const char escapes[] = "\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J\xe2\x80\xae";
    (void)!write(1, escapes, sizeof escapes - 1);
    (void)!write(2, escapes, sizeof escapes - 1);
}

typedef struct escape_cell {
    char title[64];
} escape_cell;

static void *create(const fw_cell_type *type, const fw_host *host) {
    (void)type;
    (void)host;
    return calloc(1, sizeof(escape_cell));
}

static void destroy(void *cell) { free(cell); }

static fw_status configure(void *cell, const fw_value *values, uint32_t count) {
    escape_cell *c = cell;
    if (count >= 1 && values[0].type == FW_FIELD_STRING && values[0].as.string)
        snprintf(c->title, sizeof c->title, "%s", values[0].as.string);
    return FW_OK;
}

#ifdef ESCAPE_FORGE_PROGRESS
static void *forger(void *unused) {
    (void)unused;
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return NULL;
    char line[512];
    unsigned long start = 0;
    while (fgets(line, sizeof line, maps))
        if (strstr(line, "formwork-progress") && sscanf(line, "%lx", &start) == 1) break;
    fclose(maps);
    volatile uint64_t *page = (volatile uint64_t *)start;
    if (!page) return NULL;
    printf("forger: writing the progress page\n");
    fflush(stdout);
    for (uint64_t n = 0;; n++) {
        page[1] = ((n % 4096) << 8) | ((n % 7) + 1);
        page[0] += 1;
        usleep(2000);
    }
    return NULL;
}
#endif

static fw_status render(void *cell, const fw_canvas *canvas, void *ctx) {
    escape_cell *c = cell;
#if defined(ESCAPE_FORGE_PROGRESS)
    pthread_t thread;
    pthread_create(&thread, NULL, forger, NULL);
    for (;;) pause();
#elif defined(ESCAPE_FLOOD_FRAME)
    unsigned char header[5] = {1, 0xF0, 0xFF, 0xFF, 0xFF};
    (void)!write(3, header, sizeof header);
    for (;;) {
        (void)!write(3, "x", 1);
        usleep(20000);
    }
#endif
    canvas->label(ctx, c->title, FW_LABEL_TITLE);
    attack();
    for (int i = 0; i < result_count; i++) canvas->label(ctx, results[i], FW_LABEL_BODY);
    return FW_OK;
}

static const fw_field fields[] = {
    { .struct_size = sizeof(fw_field), .type = FW_FIELD_STRING, .name = "title", .label = "Title" },
};

static const fw_cell_type cells[] = { {
    .struct_size = sizeof(fw_cell_type),
    .id = "com.escape.cell",
    .name = "Escape",
    .fields = fields,
    .field_count = 1,
    .create = create,
    .destroy = destroy,
    .configure = configure,
    .render = render,
    .title_field = "title",
} };

static const fw_pack pack = {
    .abi = { FW_ABI_VERSION_MAJOR, FW_ABI_VERSION_MINOR, 0 },
    .struct_size = sizeof(fw_pack),
    .id = "com.escape",
    .name = "Escape",
    .version = "1.0.0",
    .cell_types = cells,
    .cell_type_count = 1,
};

FW_EXPORT const fw_pack *formwork_pack_v1(void) { return &pack; }
