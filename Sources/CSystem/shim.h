#ifndef LIGHTBOX_CSYSTEM_SHIM_H
#define LIGHTBOX_CSYSTEM_SHIM_H
// Linux calls the C library does not wrap, or wraps variadically (which Swift cannot call).
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The calling thread's id (what setpriority and ioprio_set take for one thread).
static inline int lb_gettid(void) { return (int)syscall(SYS_gettid); }

/// Puts thread (or process) `id` (0: the calling thread) at the lowest CPU priority (nice 19) and
/// in the idle I/O class, so it uses only what nothing else wants. 0 when both took.
static inline int lb_set_idle_priority(int id) {
    if (id == 0) id = lb_gettid();
    int cpu = setpriority(PRIO_PROCESS, (id_t)id, 19);
    // IOPRIO_WHO_PROCESS = 1; IOPRIO_CLASS_IDLE = 3, shifted by IOPRIO_CLASS_SHIFT = 13.
    int io = (int)syscall(SYS_ioprio_set, 1, id, 3 << 13);
    return cpu == 0 && io == 0 ? 0 : -1;
}

/// Thread or process `id`'s I/O priority class (3: idle), or -1.
static inline int lb_io_class(int id) {
    int value = (int)syscall(SYS_ioprio_get, 1, id);
    return value < 0 ? -1 : value >> 13;
}

#include <sys/prctl.h>
#include <sys/vfs.h>

/// The type of the file system holding `fd` (statfs's f_type, a magic number), or 0.
static inline unsigned long lb_file_system_type(int fd) {
    struct statfs info;
    return fstatfs(fd, &info) == 0 ? (unsigned long)(unsigned int)info.f_type : 0;
}

/// Names the calling process (thread) as `ps` and `top` show it: at most 15 bytes.
static inline void lb_set_process_name(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

#include <sys/auxv.h>

/// Where the program's interpreter (the dynamic loader) was loaded; 0 when there is none: a
/// static program, or the loader run by hand as the program (`ld.so lightbox ...`).
static inline unsigned long lb_interpreter_base(void) { return getauxval(AT_BASE); }

/// Asks the kernel to kill this process when its parent ends.
static inline void lb_die_with_parent(void) { prctl(PR_SET_PDEATHSIG, 9 /* SIGKILL */, 0, 0, 0); }
/// Asks the kernel to send `signal` to this process when its parent ends.
static inline void lb_signal_when_parent_ends(int signal) { prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0); }

#include <fcntl.h>

/// Renames `from` to `to` unless `to` exists: renameat2 with RENAME_NOREPLACE (1). -1 with errno
/// EEXIST when it exists; EINVAL (or ENOSYS) where the file system does not take the flag.
static inline int lb_rename_noreplace(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1);
}

/// Swaps `from` and `to` at once: renameat2 with RENAME_EXCHANGE (2). EINVAL (or ENOSYS) where
/// the file system does not take the flag.
static inline int lb_rename_exchange(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 2);
}

#include <poll.h>
#include <signal.h>

/// Waits for `fd` to be readable with no time limit, the signal mask `mask` while waiting (ppoll,
/// which the C library declares only for _GNU_SOURCE): 1 when readable, -1 with EINTR at a signal.
static inline int lb_wait_readable(int fd, const sigset_t *mask) {
    struct pollfd poller = {fd, POLLIN, 0};
    return (int)syscall(SYS_ppoll, &poller, 1, (void *)0, mask, (size_t)(_NSIG / 8));
}
#endif
