/*
 * CFormworkSystem: the few Linux calls the host needs that Swift cannot call directly
 * (variadic `prctl`/`syscall`, and `memfd_create`, hidden behind _GNU_SOURCE).
 * Names are prefixed `fwsys_`; each returns 0 or a descriptor on success and
 * -1 with errno set on failure, like the system call it wraps.
 */
#ifndef FORMWORK_CSYSTEM_H
#define FORMWORK_CSYSTEM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The calling thread's pack-log capture (`PackLog` in FormworkHost) and its reusable spare,
 * as C thread-local variables: read and written in place (linked into an executable: no call),
 * where `pthread_getspecific`/`pthread_setspecific` were four library calls around every call
 * into a pack. Swift cannot import a thread-local variable, hence the accessors.
 */
extern _Thread_local void *fwsys_log_current;
extern _Thread_local void *fwsys_log_spare;
static inline void *fwsys_log_current_get(void) { return fwsys_log_current; }
static inline void fwsys_log_current_set(void *capture) { fwsys_log_current = capture; }
static inline void *fwsys_log_spare_get(void) { return fwsys_log_spare; }
static inline void fwsys_log_spare_set(void *capture) { fwsys_log_spare = capture; }

/* An anonymous shared-memory file. The corresponding C function is `memfd_create`. */
int fwsys_memfd_create(const char *name);

/*
 * The allocator keeps what is freed for the next allocation: blocks below `mmap_threshold`
 * bytes come from the heap (not a fresh mmap each), and the heap's top is returned to the
 * kernel only beyond `trim_threshold` bytes; the main heap grows `top_pad` bytes more than an
 * allocation needs (fewer `brk` calls). For a short-lived command; returns 0, or -1 when the C
 * library refused a value. The corresponding C function is `mallopt` (<malloc.h>, which Swift's
 * Glibc module does not include).
 */
int fwsys_malloc_keep_freed(int mmap_threshold, int trim_threshold, int top_pad);

/*
 * At most `count` heaps (arenas) for the process's threads; threads beyond share them. Call it before the
 * threads that should share are started (an arena is made when a thread first allocates). Returns 0, or -1
 * when the C library refused. The corresponding C function is `mallopt(M_ARENA_MAX, count)`.
 */
int fwsys_malloc_arenas(int count);

/*
 * Transparent huge pages for the main heap: grows it once by `span` bytes of address space (nothing is
 * touched) and advises huge pages over them (MADV_HUGEPAGE); then sets the heap's top pad to `top_pad`
 * and the mmap threshold to `mmap_threshold` (what `fwsys_malloc_keep_freed` set). Call it on the main
 * thread (the main heap is its arena's; from another thread the heap does not grow and nothing is advised).
 * Returns 0, or -1 when the C library or the kernel refused, or the heap did not grow by `span` (checked with
 * `sbrk` before anything is advised: an allocator that does not grow the heap as asked leaves nothing advised,
 * and the settings as they were). Only public interfaces: `mallopt`, `sbrk` and `madvise`.
 */
int fwsys_main_heap_huge_pages(unsigned long span, int top_pad, int mmap_threshold);

/* A pipe whose two ends are close-on-exec from the start (no window in which a child
 * started by another thread inherits them). The corresponding C function is `pipe2`. */
int fwsys_pipe_cloexec(int fds[2]);

/*
 * The child dies with its parent (PR_SET_PDEATHSIG, SIGKILL): a pack that hangs cannot
 * outlive a host that was killed. Exits at once if the parent is already gone.
 */
int fwsys_die_with_parent(void);

/* The layers of a child's sandbox: asked for (`layers`) and found in place (the result). */
enum {
    FWSYS_SANDBOX_NO_NEW_PRIVS = 1,      /* prctl(PR_SET_NO_NEW_PRIVS) */
    FWSYS_SANDBOX_SECCOMP = 2,           /* the seccomp allow-list */
    FWSYS_SANDBOX_LIMITS = 4,            /* resource limits: core, file size, descriptors, CPU, address space */
    FWSYS_SANDBOX_USER_NS = 8,           /* new user namespace (asking for it asks for all the namespaces) */
    FWSYS_SANDBOX_PID_NS = 16,           /* new PID namespace: the child is its PID 1, nothing outlives it */
    FWSYS_SANDBOX_NET_NS = 32,           /* new network namespace: no interface but a loopback that is down */
    FWSYS_SANDBOX_MOUNT_NS = 64,         /* new mount namespace (and IPC, UTS) */
    FWSYS_SANDBOX_PROC = 128,            /* /proc shows the new PID namespace only */
    FWSYS_SANDBOX_LANDLOCK = 256,        /* files read only beneath the readable paths; nothing written */
    FWSYS_SANDBOX_LANDLOCK_SCOPE = 512,  /* no signal or abstract UNIX socket outside the sandbox */
    FWSYS_SANDBOX_ALL = 2 | 4 | 8 | 256
};

/*
 * Encloses the calling process, which is about to run pack code, in the `layers` asked for
 * (FWSYS_SANDBOX_*; docs/isolation.md, "The sandbox"): resource limits; new namespaces, after which
 * the process forks: the caller's process stays behind as a relay that closes every descriptor,
 * forwards termination signals and ends with its child's status or signal, and the function returns
 * in the child, PID 1 of the new PID namespace, with a fresh /proc; PR_SET_PDEATHSIG and
 * PR_SET_NO_NEW_PRIVS; Landlock, files readable (and libraries mappable) only beneath the NULL-terminated
 * `readable` paths (character devices among them may be written too), nothing written anywhere, no TCP,
 * no signal or abstract socket outside; and a seccomp allow-list (new processes, exec, ptrace,
 * process_vm_*, io_uring, pidfd, sockets but AF_UNIX, connect/bind, signals to other processes, mounts,
 * namespaces and limits refused with EPERM; anything unknown ENOSYS).
 * Returns the FWSYS_SANDBOX_* bits in place. Call once, from one thread, before any pack is loaded:
 * each layer is irreversible. A layer the kernel refuses is left out (the result says so).
 */
int fwsys_sandbox_enter(const char *const *readable, int layers);

/* The seccomp filter and limits alone (what `fwsys_sandbox_enter` does with no namespaces or Landlock). */
int fwsys_sandbox_apply(void);

/*
 * Whether this process runs exactly one thread (field 20 of /proc/self/stat): 1 yes, 0 no,
 * -1 when it cannot be told. `fwsys_fork_child` is only safe in a process of one thread
 * (a lock held by another thread at the fork would stay held in the child for ever).
 */
int fwsys_single_threaded(void);

/* Whether this process runs under AddressSanitizer or ThreadSanitizer (their runtimes
 * are found by symbol): a child must then be a fresh process with its own options. */
int fwsys_under_sanitizer(void);

/* A descriptor that polls readable once process `pid` (a child) has ended.
 * The corresponding C function is `pidfd_open` (Linux 5.3; -1 with errno before it). */
int fwsys_pidfd_open(int pid);

/* Adds 1 to the word at `counter` (memory shared between processes) and returns its value
 * before: an atomic fetch-and-add, sequentially consistent. */
uint64_t fwsys_take_next(uint64_t *counter);

/*
 * Starts a child that is a copy of this process (fork without exec), wired as a child
 * started by `posix_spawn` would be: standard input from /dev/null, standard output to
 * `output`, descriptor 3 the `socket`, descriptor 4 the `memory` file, every other
 * descriptor above 2 closed, a process group of its own, every caught signal back to its
 * default action and `SWIFT_BACKTRACE=enable=no` in its environment (a crash ends it at
 * once, with its signal).
 * Returns the child's pid in the parent, 0 in the child (which must end with `_exit`),
 * -1 with errno set when the fork failed. Call it only when `fwsys_single_threaded()`.
 * The corresponding C function is `fork`.
 */
int fwsys_fork_child(int socket, int output, int memory);

/**
 * Adds to `actions` (a `posix_spawn_file_actions_t *`) the closing of every descriptor from
 * `lowest` up in the child, after the actions before it: a child must hold no descriptor of the
 * parent's beyond the ones it is given (a pipe another thread made without O_CLOEXEC, inherited
 * by a cell host, kept that pipe open and its reader waiting for an end that never came).
 * Returns 0, or an errno value. The corresponding C function is
 * `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34).
 */
int fwsys_spawn_close_from(void *actions, int lowest);

#ifdef __cplusplus
}
#endif
#endif
