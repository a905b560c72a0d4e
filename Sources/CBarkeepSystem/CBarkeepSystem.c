#define _GNU_SOURCE
#include "CBarkeepSystem.h"

#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <unistd.h>
#include <fcntl.h>

const uint32_t BARKEEP_EVENT_READ = EPOLLIN | EPOLLRDHUP;
const uint32_t BARKEEP_EVENT_WRITE = EPOLLOUT;
const uint32_t BARKEEP_EVENT_HANGUP = EPOLLHUP | EPOLLRDHUP;
const uint32_t BARKEEP_EVENT_ERROR = EPOLLERR;
const uint32_t BARKEEP_EVENT_CLOSED = EPOLLHUP | EPOLLERR;

int barkeep_poller_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int control(int poller, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = {0};
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(poller, op, fd, &event);
}

int barkeep_poller_add(int poller, int fd, uint32_t events, uint64_t token) {
    return control(poller, EPOLL_CTL_ADD, fd, events, token);
}

int barkeep_poller_modify(int poller, int fd, uint32_t events, uint64_t token) {
    return control(poller, EPOLL_CTL_MOD, fd, events, token);
}

int barkeep_poller_remove(int poller, int fd) { return epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL); }

int barkeep_poller_wait(int poller, barkeep_event *out, int capacity, int timeout_ms) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(poller, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        out[i].events = events[i].events;
        out[i].token = events[i].data.u64;
    }
    return count;
}

int barkeep_wakeup_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int barkeep_wakeup_signal(int fd) {
    uint64_t one = 1;
    return write(fd, &one, sizeof one) == sizeof one ? 0 : -1;
}

void barkeep_wakeup_drain(int fd) {
    uint64_t value;
    while (read(fd, &value, sizeof value) == sizeof value) {
    }
}

int barkeep_accept(int listener) { return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int barkeep_peer_credentials(int fd, uid_t *uid, pid_t *pid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    *pid = credentials.pid;
    return 0;
}

int barkeep_peer_name(int fd, char *out, int capacity) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getpeername(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    char host[INET6_ADDRSTRLEN];
    if (address.ss_family == AF_INET) {
        struct sockaddr_in *ipv4 = (struct sockaddr_in *)&address;
        inet_ntop(AF_INET, &ipv4->sin_addr, host, sizeof host);
        snprintf(out, capacity, "%s:%u", host, ntohs(ipv4->sin_port));
        return 0;
    }
    if (address.ss_family == AF_INET6) {
        struct sockaddr_in6 *ipv6 = (struct sockaddr_in6 *)&address;
        inet_ntop(AF_INET6, &ipv6->sin6_addr, host, sizeof host);
        snprintf(out, capacity, "[%s]:%u", host, ntohs(ipv6->sin6_port));
        return 0;
    }
    return -1;
}

long barkeep_raise_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
        getrlimit(RLIMIT_NOFILE, &limit);
    }
    return (long)limit.rlim_cur;
}

int barkeep_replace_descriptor(int source, int target) { return dup3(source, target, O_CLOEXEC); }

ssize_t barkeep_send(int fd, const void *bytes, size_t count) { return send(fd, bytes, count, MSG_NOSIGNAL); }

// MARK: - inotify

const uint32_t BARKEEP_FILE_RENAMED_IN = 1;
const uint32_t BARKEEP_FILE_WRITTEN = 2;
const uint32_t BARKEEP_FILE_CHANGED = 3;
const uint32_t BARKEEP_DIRECTORY_GONE = 4;
const uint32_t BARKEEP_WATCH_OVERFLOW = 5;

int barkeep_inotify_create(void) { return inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

int barkeep_inotify_watch(int fd, const char *path) {
    uint32_t mask = IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_MODIFY | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;
    return inotify_add_watch(fd, path, mask);
}

int barkeep_inotify_unwatch(int fd, int wd) { return inotify_rm_watch(fd, wd); }

static uint32_t inotify_kind(uint32_t mask) {
    // An overflow or a lost directory matters more than whatever else the record says.
    if (mask & IN_Q_OVERFLOW) return BARKEEP_WATCH_OVERFLOW;
    if (mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED)) return BARKEEP_DIRECTORY_GONE;
    if (mask & IN_MOVED_TO) return BARKEEP_FILE_RENAMED_IN;
    if (mask & IN_CLOSE_WRITE) return BARKEEP_FILE_WRITTEN;
    if (mask & (IN_CREATE | IN_MODIFY)) return BARKEEP_FILE_CHANGED;
    return 0;
}

int barkeep_inotify_next(const char *buffer, int length, int offset, int *wd, uint32_t *kind, const char **name) {
    struct inotify_event header;
    if (offset < 0 || length - offset < (int)sizeof header) return -1;
    // memcpy: a Swift buffer gives no alignment guarantee for the struct.
    memcpy(&header, buffer + offset, sizeof header);
    int end = offset + (int)sizeof header + (int)header.len;
    if (header.len > (uint32_t)length || end > length) return -1;
    *wd = header.wd;
    *kind = inotify_kind(header.mask);
    // The kernel pads the name with NULs to an aligned length; an empty name means the directory itself.
    const char *text = buffer + offset + sizeof header;
    *name = header.len > 0 && text[0] != '\0' && memchr(text, '\0', header.len) != NULL ? text : NULL;
    return end;
}

// MARK: - Spawning

int barkeep_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int barkeep_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

// MARK: - Files

int barkeep_rename_noreplace(int fromDirectory, const char *from, int toDirectory, const char *to) {
    return renameat2(fromDirectory, from, toDirectory, to, RENAME_NOREPLACE);
}
