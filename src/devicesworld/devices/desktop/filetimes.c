/* dwfiletimes: the dates of files, as a desktop's programs read them, on the task's clock.
 *
 * Preloaded before libfaketime (which moves "now" to the task's time but leaves the kernel
 * dating every write by the host's clock). A file written moments ago carries the host's date
 * until the harness re-dates it after the step (devicesworld/devices/desktop/filetimes.py);
 * this library shows such a date already moved by the task clock's offset, so an app that
 * read a file's date before the re-dating reads the same date after it (an editor or
 * LibreOffice compares the two before it saves). The rule, the same as the harness's: a
 * modification or access time the host's clock gave is shown plus the offset; every other date
 * (a seeded file's own, a re-dated one, any file the sandbox's user does not own: the
 * system's) is shown as it is. With the task's clock behind the
 * host's, the host's dates are those after the task's now (and not after the host's); with it
 * ahead, those within the last W = min(1 day, offset / 2) of the host's clock (up to a minute
 * ahead of either clock counts as now). Status-change and
 * birth times are always the kernel's, so always shifted. With an offset under two
 * minutes nothing changes.
 *
 * The offset is read as libfaketime applies it (its clock_gettime minus the kernel's),
 * in whole seconds. Interposed: stat, lstat, fstat, fstatat (and their 64 and __x forms)
 * and statx; everything else passes through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MIN_OFFSET 120LL
#define MAX_WINDOW 86400LL
#define AHEAD 60LL

static __thread int busy;

/* The task clock's offset from the host's in whole seconds; 0 when it is too small to matter. */
static long long offset_s(long long *host_now) {
    struct timespec real, fake;
    if (syscall(SYS_clock_gettime, CLOCK_REALTIME, &real) != 0) return 0;
    *host_now = (long long)real.tv_sec;
    if (busy) return 0;
    busy = 1;
    int bad = clock_gettime(CLOCK_REALTIME, &fake);
    busy = 0;
    if (bad) return 0;
    long long diff = (long long)fake.tv_sec - (long long)real.tv_sec;
    if (fake.tv_nsec - real.tv_nsec > 500000000L) diff += 1;
    if (real.tv_nsec - fake.tv_nsec > 500000000L) diff -= 1;
    return (diff > -MIN_OFFSET && diff < MIN_OFFSET) ? 0 : diff;
}

static int host_written(long long sec, long long now, long long off) {
    if (off < 0) return sec > now + off + AHEAD && sec <= now + AHEAD; /* after the task's now */
    long long w = off / 2;
    if (w > MAX_WINDOW) w = MAX_WINDOW;
    return sec >= now - w && sec <= now + AHEAD;
}

/* The sandbox user's files only: the system's (root's, under /usr) keep their dates, which
 * caches compare (fontconfig checks a font folder's date against the one it recorded). */
static int owned(uid_t uid) {
    static uid_t me = (uid_t)-1;
    if (me == (uid_t)-1) me = getuid();
    return uid == me;
}

static void shift_stat(struct stat *st) {
    if (!owned(st->st_uid)) return;
    long long now, off = offset_s(&now);
    if (off == 0) return;
    if (host_written(st->st_mtim.tv_sec, now, off)) st->st_mtim.tv_sec += off;
    if (host_written(st->st_atim.tv_sec, now, off)) st->st_atim.tv_sec += off;
    st->st_ctim.tv_sec += off;
}

static void shift_statx(struct statx *sx) {
    if (!(sx->stx_mask & STATX_UID) || !owned(sx->stx_uid)) return;
    long long now, off = offset_s(&now);
    if (off == 0) return;
    if (host_written(sx->stx_mtime.tv_sec, now, off)) sx->stx_mtime.tv_sec += off;
    if (host_written(sx->stx_atime.tv_sec, now, off)) sx->stx_atime.tv_sec += off;
    sx->stx_ctime.tv_sec += off;
    sx->stx_btime.tv_sec += off;
}

#define NEXT(name) static void *next_##name; if (!next_##name) next_##name = dlsym(RTLD_NEXT, #name)

#define PATH_STAT(name)                                                     \
    int dw_##name(const char *path, struct stat *st) __asm__(#name);       \
    int dw_##name(const char *path, struct stat *st) {                      \
        NEXT(name);                                                         \
        int r = ((int (*)(const char *, struct stat *))next_##name)(path, st); \
        if (r == 0) shift_stat(st);                                         \
        return r;                                                           \
    }
PATH_STAT(stat)
PATH_STAT(stat64)
PATH_STAT(lstat)
PATH_STAT(lstat64)

#define FD_STAT(name)                                                       \
    int dw_##name(int fd, struct stat *st) __asm__(#name);                 \
    int dw_##name(int fd, struct stat *st) {                                \
        NEXT(name);                                                         \
        int r = ((int (*)(int, struct stat *))next_##name)(fd, st);         \
        if (r == 0) shift_stat(st);                                         \
        return r;                                                           \
    }
FD_STAT(fstat)
FD_STAT(fstat64)

#define AT_STAT(name)                                                                    \
    int dw_##name(int dir, const char *path, struct stat *st, int flags) __asm__(#name); \
    int dw_##name(int dir, const char *path, struct stat *st, int flags) {               \
        NEXT(name);                                                                      \
        int r = ((int (*)(int, const char *, struct stat *, int))next_##name)(dir, path, st, flags); \
        if (r == 0) shift_stat(st);                                                      \
        return r;                                                                        \
    }
AT_STAT(fstatat)
AT_STAT(fstatat64)

#define X_PATH_STAT(name)                                                             \
    int dw_##name(int ver, const char *path, struct stat *st) __asm__(#name);        \
    int dw_##name(int ver, const char *path, struct stat *st) {                       \
        NEXT(name);                                                                   \
        int r = ((int (*)(int, const char *, struct stat *))next_##name)(ver, path, st); \
        if (r == 0) shift_stat(st);                                                   \
        return r;                                                                     \
    }
X_PATH_STAT(__xstat)
X_PATH_STAT(__xstat64)
X_PATH_STAT(__lxstat)
X_PATH_STAT(__lxstat64)

#define X_FD_STAT(name)                                                       \
    int dw_##name(int ver, int fd, struct stat *st) __asm__(#name);          \
    int dw_##name(int ver, int fd, struct stat *st) {                         \
        NEXT(name);                                                           \
        int r = ((int (*)(int, int, struct stat *))next_##name)(ver, fd, st); \
        if (r == 0) shift_stat(st);                                           \
        return r;                                                             \
    }
X_FD_STAT(__fxstat)
X_FD_STAT(__fxstat64)

#define X_AT_STAT(name)                                                                          \
    int dw_##name(int ver, int dir, const char *path, struct stat *st, int flags) __asm__(#name); \
    int dw_##name(int ver, int dir, const char *path, struct stat *st, int flags) {              \
        NEXT(name);                                                                              \
        int r = ((int (*)(int, int, const char *, struct stat *, int))next_##name)(ver, dir, path, st, flags); \
        if (r == 0) shift_stat(st);                                                              \
        return r;                                                                                \
    }
X_AT_STAT(__fxstatat)
X_AT_STAT(__fxstatat64)

int dw_statx(int dir, const char *path, int flags, unsigned int mask, struct statx *sx) __asm__("statx");
int dw_statx(int dir, const char *path, int flags, unsigned int mask, struct statx *sx) {
    NEXT(statx);
    int r = ((int (*)(int, const char *, int, unsigned int, struct statx *))next_statx)(dir, path, flags, mask, sx);
    if (r == 0) shift_statx(sx);
    return r;
}
