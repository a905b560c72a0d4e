#ifndef BARKEEP_SYSTEM_H
#define BARKEEP_SYSTEM_H

#include <stdint.h>
#include <sys/types.h>

/// One readiness event, unpacked (the kernel's epoll_event is packed on x86_64, which Swift imports poorly).
typedef struct {
    uint32_t events;
    uint64_t token;
} barkeep_event;

/// Readiness flags, mirrored so Swift code needs no epoll header.
extern const uint32_t BARKEEP_EVENT_READ;
extern const uint32_t BARKEEP_EVENT_WRITE;
extern const uint32_t BARKEEP_EVENT_HANGUP;
extern const uint32_t BARKEEP_EVENT_ERROR;

/// Creates an epoll instance (close-on-exec); -1 and errno on failure.
int barkeep_poller_create(void);
/// Registers `fd` for `events` (level-triggered) with `token` handed back on readiness.
int barkeep_poller_add(int poller, int fd, uint32_t events, uint64_t token);
/// Changes the interest set of a registered `fd`.
int barkeep_poller_modify(int poller, int fd, uint32_t events, uint64_t token);
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

/// Reads the uid and pid of the process at the other end of a Unix socket (SO_PEERCRED).
int barkeep_peer_credentials(int fd, uid_t *uid, pid_t *pid);

/// Writes the TCP peer's address as "host:port" (IPv6 in brackets) into `out`; returns 0, or -1 when `fd` is not a
/// TCP socket.
int barkeep_peer_name(int fd, char *out, int capacity);

/// Raises the soft limit on open files to the hard limit; returns the new soft limit.
long barkeep_raise_file_limit(void);

/// Sends without raising SIGPIPE when the peer has gone.
ssize_t barkeep_send(int fd, const void *bytes, size_t count);

#endif
