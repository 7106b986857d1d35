#define _GNU_SOURCE
#include <malloc.h>
#include "csystem.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

_Thread_local void *fwsys_log_current;
_Thread_local void *fwsys_log_spare;

#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

int fwsys_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

int fwsys_single_threaded(void) {
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[1024];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = 0;
    /* The command name (field 2) is in parentheses and may hold spaces: count from the last ')'. */
    char *p = strrchr(text, ')');
    if (!p) return -1;
    /* Field 3 follows ") "; num_threads is field 20, 17 fields further on. */
    for (int field = 2; field < 20; field++) {
        p = strchr(p + 1, ' ');
        if (!p) return -1;
    }
    return strtol(p + 1, NULL, 10) == 1 ? 1 : 0;
}

int fwsys_under_sanitizer(void) {
    return dlsym(RTLD_DEFAULT, "__asan_init") != NULL || dlsym(RTLD_DEFAULT, "__tsan_init") != NULL;
}

int fwsys_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

uint64_t fwsys_take_next(uint64_t *counter) { return __atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST); }

/* Moves `fd` to a descriptor of at least 10, so that placing the others on 0, 1, 3 and 4 cannot overwrite it. */
static int fwsys_lift(int fd) { return fd >= 10 ? fd : fcntl(fd, F_DUPFD, 10); }

int fwsys_fork_child(int socket, int output, int memory) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    /* The child: only async-signal-safe calls until the descriptors are in place. */
    int null = open("/dev/null", O_RDONLY);
    int s = fwsys_lift(socket), o = fwsys_lift(output), m = fwsys_lift(memory), n = fwsys_lift(null);
    if (s < 0 || o < 0 || m < 0 || n < 0) _exit(71);
    if (dup2(n, 0) < 0 || dup2(o, 1) < 0 || dup2(s, 3) < 0 || dup2(m, 4) < 0) _exit(71);
    if (syscall(SYS_close_range, 5, ~0U, 0) != 0) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = 5; fd < (max > 0 ? max : 4096); fd++) close((int)fd);
    }
    setpgid(0, 0);
    /* As exec would: caught signals back to their default action (ignored ones stay ignored). */
    for (int signal = 1; signal < NSIG; signal++) {
        struct sigaction action;
        if (sigaction(signal, NULL, &action) != 0) continue;
        if (!(action.sa_flags & SA_SIGINFO) && (action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN)) continue;
        struct sigaction initial = {0};
        initial.sa_handler = SIG_DFL;
        sigaction(signal, &initial, NULL);
    }
    setenv("SWIFT_BACKTRACE", "enable=no", 1);
    return 0;
}

int fwsys_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

#if defined(__x86_64__)
#define FWSYS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define FWSYS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

int fwsys_die_with_parent(void) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return -1;
    /* The parent may have died before the call: then nobody would send the signal. */
    if (getppid() == 1) _exit(70);
    return 0;
}

int fwsys_sandbox_apply(void) {
    int applied = 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return applied;
    applied |= FWSYS_SANDBOX_NO_NEW_PRIVS;
#ifdef FWSYS_AUDIT_ARCH
    pid_t self = getpid();
#define DENY BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
    struct sock_filter filter[] = {
        /* A foreign architecture (32-bit calls on x86-64) could bypass the numbers below: refuse it. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FWSYS_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        /* x32 system calls share the architecture token; they have bit 30 set. */
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
        DENY,
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 0, 1),
        DENY,
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 0, 1),
        DENY,
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 0, 1),
        DENY,
        /* kill(pid, sig) and tgkill(tgid, tid, sig): only this process (or its own group, 0). */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_kill, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 0, 5),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)self, 1, 0),
        DENY,
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tkill, 0, 1),
        DENY,
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 3),
        /* socket(domain, ...): only AF_UNIX. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 1, 0),
        DENY,
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
#undef DENY
    struct sock_fprog program = {(unsigned short)(sizeof filter / sizeof filter[0]), filter};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0) applied |= FWSYS_SANDBOX_SECCOMP;
#endif
    return applied;
}

int fwsys_malloc_keep_freed(int mmap_threshold, int trim_threshold, int top_pad) {
    int ok = mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    ok &= mallopt(M_TRIM_THRESHOLD, trim_threshold);
    ok &= mallopt(M_TOP_PAD, top_pad);
    return ok ? 0 : -1;
}

int fwsys_main_heap_huge_pages(unsigned long span, int top_pad, int mmap_threshold) {
#ifdef MADV_HUGEPAGE
    /* Grow the main heap once by `span` (address space only: nothing is touched), then advise huge pages
     * over what was added. The growth stays: the heap is trimmed only above the trim threshold. The block
     * asked for is larger than the heap's free top can be at this point, and below a raised mmap threshold,
     * so that it does grow the heap. */
    const size_t ask = (size_t)16 << 20;
    if (span > (1UL << 30) || !mallopt(M_MMAP_THRESHOLD, (int)ask * 2) || !mallopt(M_TOP_PAD, (int)span)) {
        mallopt(M_TOP_PAD, top_pad);
        mallopt(M_MMAP_THRESHOLD, mmap_threshold);
        return -1;
    }
    uintptr_t before = (uintptr_t)sbrk(0);
    void *volatile block = malloc(ask); /* volatile: a compiler may drop a malloc whose block is only freed */
    free(block);
    mallopt(M_TOP_PAD, top_pad);
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    uintptr_t end = (uintptr_t)sbrk(0);
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    /* Only when the heap did grow by `span` (it may not: a strict overcommit policy, a heap that could not
     * grow where it is, a top that was already larger); otherwise the range could reach below the heap. */
    if (block == NULL || before == (uintptr_t)-1 || end < before + span) return -1;
    /* From where the heap ended: its next allocations come from the bottom of the new top. */
    uintptr_t start = (before + page - 1) & ~(page - 1);
    return madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)span;
    (void)top_pad;
    (void)mmap_threshold;
    return -1;
#endif
}
