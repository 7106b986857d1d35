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
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <spawn.h>

int fwsys_spawn_close_from(void *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
}

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
    if (dup2(n, 0) < 0 || dup2(o, 1) < 0 || dup2(o, 2) < 0 || dup2(s, 3) < 0 || dup2(m, 4) < 0) _exit(71);
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

int fwsys_die_with_parent(void) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return -1;
    /* The parent may have died before the call: then nobody would send the signal. */
    if (getppid() == 1) _exit(70);
    return 0;
}

/* ---- The sandbox of a child that runs pack code (docs/isolation.md, "The sandbox") ---- */

static int fwsys_write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t n = strlen(text);
    ssize_t w = write(fd, text, n);
    close(fd);
    return w == (ssize_t)n ? 0 : -1;
}

static volatile pid_t fwsys_jailed_child = 0;

static void fwsys_forward_signal(int signal) {
    if (fwsys_jailed_child > 0) kill(fwsys_jailed_child, signal);
}

/* Two calls where close_range (Linux 5.9) is there; without it, a close for every descriptor number, nearly all
 * failing, in each of the relay and init of every child a scan or a render starts. */
static void fwsys_close_all_but(int keep) {
    if ((keep == 0 || syscall(SYS_close_range, 0, (unsigned)keep - 1, 0) == 0) &&
        syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0) == 0)
        return;
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 0; fd < (max > 0 && max < 65536 ? max : 4096); fd++)
        if (fd != keep) close((int)fd);
}

static void fwsys_forward_termination(void) {
    struct sigaction forward = {0};
    forward.sa_handler = fwsys_forward_signal;
    int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) sigaction(forwarded[i], &forward, NULL);
}

/* New user, PID, network, mount, IPC and UTS namespaces, and three processes:
 *   - the relay (the process the host started, outside the namespaces): holds nothing (every descriptor
 *     closed but a status pipe), forwards the host's termination signals, and ends as the worker ended —
 *     with its exit status, or killed by its signal (the host reports crashes by signal);
 *   - init, PID 1 of the new PID namespace: reaps, forwards signals to the worker, and when the worker ends
 *     writes its wait status to the relay and exits, and the kernel kills whatever is left in the namespace
 *     (a daemon a pack started); it dies with the relay (PR_SET_PDEATHSIG), and so with the host;
 *   - the worker (PID 2), which returns from here and runs the child's mode. It is not PID 1 because PID 1
 *     ignores the signals it sends itself (a pack's abort() would not end it).
 * Returns the FWSYS_SANDBOX_* namespace bits in the worker; never returns in the relay or init. */
static int fwsys_enter_namespaces(void) {
    uid_t uid = getuid();
    gid_t gid = getgid();
    int flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS;
    if (unshare(flags) != 0) return 0;
    char map[64];
    /* The same ids inside as outside: files keep their owners, and nothing is gained over the host's files
     * (the other layers refuse writes). setgroups is denied first, as an unprivileged map requires. */
    fwsys_write_file("/proc/self/setgroups", "deny");
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    fwsys_write_file("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    fwsys_write_file("/proc/self/gid_map", map);
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0) _exit(71);
    pid_t init = fork();
    if (init < 0) _exit(71);
    if (init > 0) {
        /* The relay. */
        fwsys_jailed_child = init;
        fwsys_close_all_but(status_pipe[0]);
        fwsys_forward_termination();
        int status = -1;
        ssize_t got;
        do { got = read(status_pipe[0], &status, sizeof status); } while (got < 0 && errno == EINTR);
        int ignored;
        while (waitpid(init, &ignored, 0) < 0 && errno == EINTR) {}
        if (got != (ssize_t)sizeof status) _exit(70); /* init was killed: the worker's status is unknown */
        if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
        int signal = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        struct sigaction initial = {0};
        initial.sa_handler = SIG_DFL;
        sigaction(signal, &initial, NULL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, signal);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(signal);
        _exit(128 + signal);
    }
    /* Init, PID 1: dies with the relay. */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    close(status_pipe[0]);
    int applied = FWSYS_SANDBOX_USER_NS | FWSYS_SANDBOX_PID_NS | FWSYS_SANDBOX_NET_NS;
    /* Mounts made here stay here; /proc shows this namespace's processes only, so no host process can be named. */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0) {
        applied |= FWSYS_SANDBOX_MOUNT_NS;
        if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0) applied |= FWSYS_SANDBOX_PROC;
    }
    pid_t worker = fork();
    if (worker < 0) _exit(71);
    if (worker > 0) {
        fwsys_jailed_child = worker;
        fwsys_close_all_but(status_pipe[1]);
        fwsys_forward_termination();
        for (;;) {
            int status;
            pid_t ended = waitpid(-1, &status, 0);
            if (ended < 0 && errno == EINTR) continue;
            if (ended < 0) _exit(70);
            if (ended == worker) {
                ssize_t put;
                do { put = write(status_pipe[1], &status, sizeof status); } while (put < 0 && errno == EINTR);
                _exit(0);
            }
        }
    }
    /* The worker: dies with init. */
    close(status_pipe[1]);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != 1) _exit(70);
    return applied;
}

#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif

struct fwsys_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

/* Landlock: files are read (and libraries mapped) only beneath `readable`; nothing is written, made or removed
 * anywhere; no TCP bind or connect; no signal to a process outside the sandbox, no abstract UNIX socket outside
 * it. Whatever the kernel's Landlock version offers of that. */
static int fwsys_landlock(const char *const *readable) {
#if defined(SYS_landlock_create_ruleset) && defined(SYS_landlock_add_rule) && defined(SYS_landlock_restrict_self)
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1U /* LANDLOCK_CREATE_RULESET_VERSION */);
    if (abi < 1) return 0;
    uint64_t fs = (1ULL << 13) - 1; /* execute .. make_sym: every right of ABI 1 */
    if (abi >= 2) fs |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5) fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    struct fwsys_landlock_ruleset_attr attr = {0};
    attr.handled_access_fs = fs;
    size_t size = sizeof(uint64_t);
    if (abi >= 4) {
        attr.handled_access_net = 3; /* bind_tcp | connect_tcp */
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = 3; /* abstract_unix_socket | signal */
        size = 3 * sizeof(uint64_t);
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) return 0;
    /* execute, read_file, read_dir */
    const uint64_t read_only = (1ULL << 0) | (1ULL << 2) | (1ULL << 3);
    for (const char *const *path = readable; path && *path; path++) {
        int fd = open(*path, O_PATH | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat info;
        uint64_t allowed = read_only;
        if (fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) allowed &= ~(1ULL << 3);
        /* A character device (/dev/null, /dev/urandom) is also written to. */
        if (fstat(fd, &info) == 0 && S_ISCHR(info.st_mode)) allowed |= (1ULL << 1); /* write_file */
        struct __attribute__((packed)) {
            uint64_t allowed_access;
            int32_t parent_fd;
        } rule = {allowed & fs, fd};
        syscall(SYS_landlock_add_rule, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &rule, 0);
        close(fd);
    }
    int applied = 0;
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) == 0) {
        applied |= FWSYS_SANDBOX_LANDLOCK;
        if (abi >= 6) applied |= FWSYS_SANDBOX_LANDLOCK_SCOPE;
    }
    close(ruleset);
    return applied;
#else
    (void)readable;
    return 0;
#endif
}

static void fwsys_limit(int resource, rlim_t value) {
    struct rlimit current;
    if (getrlimit(resource, &current) != 0) return;
    struct rlimit limit = {value, value};
    if (current.rlim_max != RLIM_INFINITY && current.rlim_max < value) limit.rlim_cur = limit.rlim_max = current.rlim_max;
    setrlimit(resource, &limit);
}

#if defined(__x86_64__)
#define FWSYS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define FWSYS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* The system calls a child needs: the C library's and the Swift runtime's (memory, threads, files it may read,
 * its channel, time, signals to itself), and what a pack reasonably does. Anything else fails with ENOSYS (so
 * that the C library's fallbacks, such as clone3 → clone, still work), and a few are refused outright with EPERM
 * below: new processes, exec, tracing, other processes' memory, io_uring, new sockets (a pair of connected stream
 * sockets excepted), signals to other processes, and undoing what the sandbox set. */
static const int fwsys_allowed_calls[] = {
    __NR_read, __NR_write, __NR_readv, __NR_writev, __NR_pread64, __NR_pwrite64, __NR_preadv, __NR_pwritev,
    __NR_close, __NR_close_range, __NR_fstat, __NR_newfstatat, __NR_statx, __NR_lseek, __NR_openat, __NR_faccessat,
    __NR_faccessat2, __NR_readlinkat, __NR_getdents64, __NR_fcntl, __NR_dup, __NR_dup3, __NR_ioctl, __NR_flock,
    __NR_fsync, __NR_fdatasync, __NR_ftruncate, __NR_getcwd, __NR_fchdir, __NR_chdir, __NR_statfs, __NR_fstatfs,
    __NR_mmap, __NR_munmap, __NR_mprotect, __NR_mremap, __NR_madvise, __NR_brk, __NR_mlock, __NR_munlock,
    __NR_msync, __NR_mincore, __NR_membarrier, __NR_memfd_create,
    __NR_futex, __NR_set_robust_list, __NR_get_robust_list, __NR_rseq, __NR_set_tid_address, __NR_sched_yield,
    __NR_sched_getaffinity, __NR_sched_setaffinity, __NR_sched_getparam, __NR_sched_getscheduler,
    __NR_sched_get_priority_max, __NR_sched_get_priority_min,
    __NR_gettid, __NR_getpid, __NR_getppid, __NR_getuid, __NR_geteuid, __NR_getgid, __NR_getegid, __NR_getresuid,
    __NR_getresgid, __NR_getgroups, __NR_getpgid, __NR_getsid, __NR_getrusage, __NR_sysinfo, __NR_uname,
    __NR_getrandom, __NR_clock_gettime, __NR_clock_getres, __NR_clock_nanosleep, __NR_nanosleep, __NR_gettimeofday,
    __NR_times, __NR_getcpu, __NR_getpriority,
    __NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn, __NR_rt_sigpending, __NR_rt_sigtimedwait,
    __NR_rt_sigsuspend, __NR_sigaltstack, __NR_restart_syscall,
    __NR_ppoll, __NR_pselect6, __NR_epoll_create1, __NR_epoll_ctl, __NR_epoll_pwait, __NR_eventfd2, __NR_pipe2,
    __NR_sendmsg, __NR_recvmsg, __NR_sendto, __NR_recvfrom, __NR_shutdown, __NR_getsockopt,
    __NR_setsockopt, __NR_getsockname, __NR_getpeername,
    __NR_exit, __NR_exit_group, __NR_wait4, __NR_waitid,
#ifdef __NR_arch_prctl
    __NR_arch_prctl,
#endif
#ifdef __NR_poll
    __NR_poll, __NR_select, __NR_epoll_wait, __NR_access, __NR_open, __NR_stat, __NR_lstat, __NR_readlink,
    __NR_getdents, __NR_dup2, __NR_pipe, __NR_time, __NR_alarm, __NR_pause, __NR_getpgrp, __NR_epoll_create,
    __NR_eventfd,
#endif
};

int fwsys_sandbox_enter(const char *const *readable, int layers) {
    int applied = 0;
    /* Limits first: they hold whatever else the kernel refuses. No core files; no file written (a regular file
     * written past 0 bytes would raise SIGXFSZ: nothing writes files here); a bounded number of descriptors;
     * CPU time bounded; address space bounded (not under a sanitizer, whose shadow memory is reserved up front). */
    if (layers & FWSYS_SANDBOX_LIMITS) {
        fwsys_limit(RLIMIT_CORE, 0);
        fwsys_limit(RLIMIT_FSIZE, 0);
        fwsys_limit(RLIMIT_NOFILE, 256);
        fwsys_limit(RLIMIT_CPU, 600);
        if (!fwsys_under_sanitizer()) fwsys_limit(RLIMIT_AS, (rlim_t)4 << 30);
        applied |= FWSYS_SANDBOX_LIMITS;
    }
    if (layers & FWSYS_SANDBOX_USER_NS) applied |= fwsys_enter_namespaces();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return applied;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return applied;
    applied |= FWSYS_SANDBOX_NO_NEW_PRIVS;
    if (layers & FWSYS_SANDBOX_LANDLOCK) applied |= fwsys_landlock(readable);
#ifdef FWSYS_AUDIT_ARCH
    if (!(layers & FWSYS_SANDBOX_SECCOMP)) return applied;
    uint32_t self = (uint32_t)getpid();
    size_t allowed = sizeof fwsys_allowed_calls / sizeof fwsys_allowed_calls[0];
    struct sock_filter filter[512];
    size_t n = 0;
#define ADD(stmt) filter[n++] = (struct sock_filter)stmt
#define LOAD_NR ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)))
#define LOAD_ARG(i) ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[i])))
#define RET(value) ADD(BPF_STMT(BPF_RET | BPF_K, (value)))
#define ALLOW RET(SECCOMP_RET_ALLOW)
#define EPERM_ RET(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
    ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FWSYS_AUDIT_ARCH, 1, 0));
    RET(SECCOMP_RET_KILL_PROCESS);
    LOAD_NR;
#if defined(__x86_64__)
    /* x32 system calls share the architecture token; they have bit 30 set. */
    ADD(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    EPERM_;
#endif
    for (size_t i = 0; i < allowed; i++) {
        ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)fwsys_allowed_calls[i], 0, 1));
        ALLOW;
    }
    /* clone: threads only (CLONE_THREAD); a new process is refused. */
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4));
    LOAD_ARG(0);
    ADD(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1));
    ALLOW;
    EPERM_;
    LOAD_NR;
    /* clone3's flags are behind a pointer the filter cannot read: ENOSYS, and the C library falls back to clone. */
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1));
    RET(SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
    /* No socket(): Landlock does not cover UNIX sockets reached by their path, and a datagram needs no connect —
     * sendto and sendmsg take the address along, behind a pointer the filter cannot read. A socket pair is connected
     * to itself; of its types only a stream or sequenced-packet pair ignores an address (a datagram pair would send
     * to any path). The channel is an inherited stream socket. */
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socketpair, 0, 6));
    LOAD_ARG(1);
    ADD(BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xF)); /* the type without SOCK_CLOEXEC and SOCK_NONBLOCK */
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_STREAM, 1, 0));
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_SEQPACKET, 0, 1));
    ALLOW;
    EPERM_;
    LOAD_NR;
    /* kill, tgkill: this process only (its pid, or 0: its own group, which is its own). */
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_kill, 1, 0));
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 0, 5));
    LOAD_ARG(0);
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0));
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 1, 0));
    EPERM_;
    ALLOW;
    LOAD_NR;
    /* prctl: anything but undoing the death signal, and no ptracer. */
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_prctl, 0, 5));
    LOAD_ARG(0);
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_PDEATHSIG, 1, 0));
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_PTRACER, 0, 1));
    EPERM_;
    ALLOW;
    LOAD_NR;
    /* prlimit64(0, resource, NULL, old): reading this process's own limits; no limit is changed. */
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_prlimit64, 0, 6));
    LOAD_ARG(0);
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3));
    LOAD_ARG(2);
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1));
    ALLOW;
    EPERM_;
    /* Everything else: refused. EPERM for what is refused on purpose (process creation, exec, tracing, another
     * process's memory or signals, io_uring, mounts, namespaces, keys, BPF, personality); ENOSYS for the rest. */
    LOAD_NR;
    {
        static const int refused[] = {
#ifdef __NR_fork
            __NR_fork, __NR_vfork,
#endif
            __NR_execve, __NR_execveat, __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev,
            __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register, __NR_pidfd_open, __NR_pidfd_send_signal,
            __NR_pidfd_getfd, __NR_tkill, __NR_rt_sigqueueinfo, __NR_rt_tgsigqueueinfo, __NR_setpgid, __NR_setsid,
            __NR_setrlimit, __NR_mount, __NR_umount2, __NR_unshare, __NR_setns, __NR_bpf, __NR_personality,
            __NR_add_key, __NR_keyctl, __NR_request_key, __NR_kcmp, __NR_socket, __NR_connect, __NR_bind, __NR_listen, __NR_accept4,
            __NR_perf_event_open, __NR_userfaultfd, __NR_seccomp,
        };
        for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
            ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)refused[i], 0, 1));
            EPERM_;
        }
    }
    RET(SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
#undef ADD
#undef LOAD_NR
#undef LOAD_ARG
#undef RET
#undef ALLOW
#undef EPERM_
    struct sock_fprog program = {(unsigned short)n, filter};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0) applied |= FWSYS_SANDBOX_SECCOMP;
#endif
    return applied;
}

int fwsys_sandbox_apply(void) { return fwsys_sandbox_enter(NULL, FWSYS_SANDBOX_SECCOMP | FWSYS_SANDBOX_LIMITS); }

int fwsys_malloc_keep_freed(int mmap_threshold, int trim_threshold, int top_pad) {
    int ok = mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    ok &= mallopt(M_TRIM_THRESHOLD, trim_threshold);
    ok &= mallopt(M_TOP_PAD, top_pad);
    return ok ? 0 : -1;
}

int fwsys_malloc_arenas(int count) { return count >= 1 && mallopt(M_ARENA_MAX, count) ? 0 : -1; }

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
