#define _GNU_SOURCE
#include "CBarkeepSystem.h"

#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/wait.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

const uint32_t BARKEEP_EVENT_READ = EPOLLIN | EPOLLRDHUP;
const uint32_t BARKEEP_EVENT_WRITE = EPOLLOUT;
const uint32_t BARKEEP_EVENT_HANGUP = EPOLLHUP | EPOLLRDHUP;
const uint32_t BARKEEP_EVENT_ERROR = EPOLLERR;
const uint32_t BARKEEP_EVENT_CLOSED = EPOLLHUP | EPOLLERR;

int barkeep_poller_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int control(int poller, int op, int fd, uint32_t events, uint64_t key) {
    struct epoll_event event = {0};
    event.events = events;
    event.data.u64 = key;
    return epoll_ctl(poller, op, fd, &event);
}

int barkeep_poller_add(int poller, int fd, uint32_t events, uint64_t key) {
    return control(poller, EPOLL_CTL_ADD, fd, events, key);
}

int barkeep_poller_modify(int poller, int fd, uint32_t events, uint64_t key) {
    return control(poller, EPOLL_CTL_MOD, fd, events, key);
}

int barkeep_poller_remove(int poller, int fd) { return epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL); }

int barkeep_poller_wait(int poller, barkeep_event *out, int capacity, int timeout_ms) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(poller, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        out[i].events = events[i].events;
        out[i].key = events[i].data.u64;
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

int barkeep_set_no_delay(int fd) {
    int one = 1;
    return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

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

ssize_t barkeep_send(int fd, const void *bytes, size_t count) {
    return syscall(SYS_sendto, fd, bytes, count, MSG_NOSIGNAL, NULL, 0);
}

ssize_t barkeep_read(int fd, void *bytes, size_t count) { return syscall(SYS_read, fd, bytes, count); }

// MARK: - Memory

int barkeep_release_free_memory(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}

int barkeep_configure_malloc(int mmap_threshold, int trim_threshold) {
#ifdef __GLIBC__
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
#else
    (void)mmap_threshold;
    (void)trim_threshold;
    return 0;
#endif
}

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

pid_t barkeep_spawn_as(const char *path, char *const argv[], char *const envp[], const char *directory, int output,
                       int errors, uid_t uid, gid_t gid) {
    // The child reports a failure before exec through this close-on-exec pipe: nothing read means exec succeeded.
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(report[0]);
        close(report[1]);
        errno = saved;
        return -1;
    }
    if (pid == 0) {
        // Only async-signal-safe calls from here on: the parent has other threads.
        struct sigaction standard;
        memset(&standard, 0, sizeof standard);
        standard.sa_handler = SIG_DFL;
        for (int signal = 1; signal < NSIG; signal++) sigaction(signal, &standard, NULL);
        sigset_t empty;
        sigemptyset(&empty);
        sigprocmask(SIG_SETMASK, &empty, NULL);
        int input = open("/dev/null", O_RDONLY);
        int failed = setsid() < 0 || input < 0 || dup2(input, 0) < 0 || dup2(output, 1) < 0 || dup2(errors, 2) < 0;
        if (!failed && report[1] <= 2) failed = 1;
        if (!failed) {
            // Everything above 2 but the report pipe goes (the pipe closes itself at exec).
            if (report[1] > 3) close_range(3, (unsigned)report[1] - 1, 0);
            close_range((unsigned)report[1] + 1, ~0U, 0);
        }
        failed = failed || chdir(directory) != 0 || setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0;
        if (!failed) execve(path, argv, envp);
        int code = errno;
        ssize_t ignored = write(report[1], &code, sizeof code);
        (void)ignored;
        _exit(127);
    }
    close(report[1]);
    int code = 0;
    ssize_t count;
    do {
        count = read(report[0], &code, sizeof code);
    } while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == (ssize_t)sizeof code) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        errno = code;
        return -1;
    }
    return pid;
}

// MARK: - Files

int barkeep_rename_noreplace(int fromDirectory, const char *from, int toDirectory, const char *to) {
    return renameat2(fromDirectory, from, toDirectory, to, RENAME_NOREPLACE);
}
