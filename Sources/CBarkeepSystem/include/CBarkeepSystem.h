#ifndef BARKEEP_SYSTEM_H
#define BARKEEP_SYSTEM_H

#include <spawn.h>
#include <stdint.h>
#include <sys/types.h>

/// One readiness event, unpacked (the kernel's epoll_event is packed on x86_64, which Swift imports poorly).
typedef struct {
    uint32_t events;
    uint64_t key;
} barkeep_event;

/// Readiness flags, mirrored so Swift code needs no epoll header.
extern const uint32_t BARKEEP_EVENT_READ;
extern const uint32_t BARKEEP_EVENT_WRITE;
extern const uint32_t BARKEEP_EVENT_HANGUP;
extern const uint32_t BARKEEP_EVENT_ERROR;
/// The peer is gone altogether (EPOLLHUP or EPOLLERR), reported even when no event is asked for; a half-close is not.
extern const uint32_t BARKEEP_EVENT_CLOSED;

/// Creates an epoll instance (close-on-exec); -1 and errno on failure.
int barkeep_poller_create(void);
/// Registers `fd` for `events` (level-triggered) with `key` handed back on readiness.
int barkeep_poller_add(int poller, int fd, uint32_t events, uint64_t key);
/// Changes the interest set of a registered `fd`.
int barkeep_poller_modify(int poller, int fd, uint32_t events, uint64_t key);
/// Removes `fd` from the interest set.
int barkeep_poller_remove(int poller, int fd);
/// Waits up to `timeout_ms` (-1: forever) for events; returns how many were written to `out`.
int barkeep_poller_wait(int poller, barkeep_event *out, int capacity, int timeout_ms);

/// Creates a non-blocking, close-on-exec eventfd used to wake a poller from another thread.
int barkeep_wakeup_create(void);
/// Makes a wakeup fd readable.
int barkeep_wakeup_signal(int fd);
/// Resets a wakeup fd after it was readable.
void barkeep_wakeup_drain(int fd);

/// Accepts a connection as non-blocking and close-on-exec; -1 and errno on failure.
int barkeep_accept(int listener);

/// Turns Nagle's algorithm off on a TCP socket (TCP_NODELAY): a reply written in more than one piece (a streamed
/// page, an HTTP response's head and body) goes out at once, not after the peer's delayed acknowledgement of the
/// piece before it. 0, or -1 and errno.
int barkeep_set_no_delay(int fd);

/// Reads the uid and pid of the process at the other end of a Unix socket (SO_PEERCRED).
int barkeep_peer_credentials(int fd, uid_t *uid, pid_t *pid);

/// Writes the TCP peer's address as "host:port" (IPv6 in brackets) into `out`; returns 0, or -1 when `fd` is not a
/// TCP socket.
int barkeep_peer_name(int fd, char *out, int capacity);

/// Raises the soft limit on open files to the hard limit; returns the new soft limit.
long barkeep_raise_file_limit(void);

/// Makes `target` a close-on-exec duplicate of `source` in one step (dup3): whatever `target` was is closed and its
/// slot never free, so no other thread can take it meanwhile.
int barkeep_replace_descriptor(int source, int target);

/// Sends without raising SIGPIPE when the peer has gone. Like `barkeep_read`, the system call itself: libc's wrappers
/// are thread cancellation points, which costs every call on the event loop's path, and no daemon thread is cancelled.
ssize_t barkeep_send(int fd, const void *bytes, size_t count);

/// read(2), as the system call itself (see `barkeep_send`): -1 and errno on failure.
ssize_t barkeep_read(int fd, void *bytes, size_t count);

// MARK: - Memory

/// Gives the heap pages malloc holds free, in every arena, back to the system (glibc's malloc_trim(0)); returns 1
/// when some were released, 0 when none were (or the C library has no such call).
int barkeep_release_free_memory(void);

/// Fixes malloc's thresholds (glibc's mallopt): blocks of `mmap_threshold` bytes or more get their own mapping, unmapped
/// when freed, and an arena whose free top passes `trim_threshold` bytes gives it back. Setting them turns glibc's
/// dynamic thresholds off. Returns 1 when both were set, 0 otherwise.
int barkeep_configure_malloc(int mmap_threshold, int trim_threshold);

// MARK: - inotify

// What happened in a watched directory, mirrored from the inotify masks so Swift code needs no inotify header.
// Each record maps to exactly one kind: the most consequential wins when the kernel sets several bits.

/// A file was renamed into the directory (IN_MOVED_TO): the usual way a complete file arrives in a drop folder.
extern const uint32_t BARKEEP_FILE_RENAMED_IN;
/// A file opened for writing was closed (IN_CLOSE_WRITE).
extern const uint32_t BARKEEP_FILE_WRITTEN;
/// A file was created or modified (IN_CREATE, IN_MODIFY) and may still be incomplete.
extern const uint32_t BARKEEP_FILE_CHANGED;
/// The watched directory itself was deleted, moved or unmounted, or its watch was dropped (IN_DELETE_SELF,
/// IN_MOVE_SELF, IN_UNMOUNT, IN_IGNORED).
extern const uint32_t BARKEEP_DIRECTORY_GONE;
/// The kernel's event queue overflowed and events were lost (IN_Q_OVERFLOW); the watch descriptor is -1.
extern const uint32_t BARKEEP_WATCH_OVERFLOW;

/// Creates a non-blocking, close-on-exec inotify instance; -1 and errno on failure.
int barkeep_inotify_create(void);
/// Watches the directory `path` for arrivals, writes and its own disappearance; returns the watch descriptor (the
/// same one when `path` is already watched), or -1 and errno (ENOTDIR when `path` is not a directory).
int barkeep_inotify_watch(int fd, const char *path);
/// Stops watching; the kernel then queues one IN_IGNORED record for `wd`.
int barkeep_inotify_unwatch(int fd, int wd);
/// Unpacks the record at `offset` of a buffer filled by read(2) on an inotify descriptor: its watch descriptor, its
/// kind (one of the BARKEEP_ constants above, or 0 for a record of no interest) and the file name inside the watched
/// directory (NULL when the record is about the directory itself; it points into `buffer`). Returns the offset of
/// the next record, or -1 when no complete record starts at `offset`.
int barkeep_inotify_next(const char *buffer, int length, int offset, int *wd, uint32_t *kind, const char **name);

// MARK: - Spawning

/// Makes a spawned child change to `path` before it runs its program (glibc's
/// posix_spawn_file_actions_addchdir_np, 2.29+); 0 or an errno value.
int barkeep_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// Makes a spawned child close every descriptor from `lowest` up before it runs its program (glibc's
/// posix_spawn_file_actions_addclosefrom_np, 2.34+), so nothing the daemon has open leaks into it; 0 or an errno
/// value.
int barkeep_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// Starts `path` with `argv` and `envp` as the user `uid` and group `gid` (no supplementary groups), for a root
/// daemon that runs a command with less privilege, which posix_spawn cannot do. The child gets a session of its own,
/// standard input from /dev/null, `output` and `errors` as standard output and error, every other descriptor
/// closed, every signal's default action, an empty signal mask and `directory` as working directory. Returns the
/// child's pid, or -1 with the errno of the step that failed (in the child: chdir, setgid, setuid, exec…).
pid_t barkeep_spawn_as(const char *path, char *const argv[], char *const envp[], const char *directory, int output,
                       int errors, uid_t uid, gid_t gid);

// MARK: - Files

/// Renames `from` (relative to `fromDirectory`) to `to` (relative to `toDirectory`) unless `to` exists
/// (renameat2 with RENAME_NOREPLACE); 0, or -1 with errno set (EEXIST when `to` exists).
int barkeep_rename_noreplace(int fromDirectory, const char *from, int toDirectory, const char *to);

#endif
