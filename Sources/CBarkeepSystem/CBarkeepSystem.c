#define _GNU_SOURCE
#include "CBarkeepSystem.h"

#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

const uint32_t BARKEEP_EVENT_READ = EPOLLIN | EPOLLRDHUP;
const uint32_t BARKEEP_EVENT_WRITE = EPOLLOUT;
const uint32_t BARKEEP_EVENT_HANGUP = EPOLLHUP | EPOLLRDHUP;
const uint32_t BARKEEP_EVENT_ERROR = EPOLLERR;

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

ssize_t barkeep_send(int fd, const void *bytes, size_t count) { return send(fd, bytes, count, MSG_NOSIGNAL); }
