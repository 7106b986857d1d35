#define _GNU_SOURCE
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

#include <fcntl.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

int fwsys_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

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
