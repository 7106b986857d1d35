/*
 * The peak memory of a command, as its own: `peak_rss COMMAND [ARGUMENT...]` runs it with its output
 * and errors to /dev/null and prints "<peak RSS in KiB> <exit status>".
 *
 * Why a helper: Linux carries a process's peak RSS across `exec` from the memory it had before, and
 * a child made by `posix_spawn` (a `vfork`) has its parent's memory until then. Spawned by the
 * performance suite, whose own peak is tens of megabytes, a render reported the suite's peak when
 * that was higher than its own (the "empty run" it is compared with always did). A child forked by
 * this small program starts from this program's memory, the same small amount for every command.
 *
 * Build: cc -O2 peak_rss.c -o peak_rss
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: peak_rss COMMAND [ARGUMENT...]\n");
        return 64;
    }
    pid_t pid = fork();
    if (pid < 0) { perror("peak_rss: fork"); return 71; }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execv(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("peak_rss: wait4"); return 71; }
    printf("%ld %d\n", usage.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}
