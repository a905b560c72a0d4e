#ifndef BARKEEP_TLS_H
#define BARKEEP_TLS_H

#include <stddef.h>

/// TLS for barkeepd's TCP listeners and the barkeep CLI: a small layer over OpenSSL's SSL_CTX and SSL, so that Swift
/// code needs no OpenSSL header. TLS 1.2 is the oldest version either side accepts.
///
/// Thread-safety: a context may be shared by threads once created (it is never changed afterwards); a session
/// belongs to one thread at a time. OpenSSL's error queue is per thread, and every call leaves it empty.

/// A configured SSL_CTX: a server's certificate and key, or a client's trusted CAs.
typedef struct barkeep_tls_context barkeep_tls_context;
/// One connection's TLS session over a socket the caller owns (freeing the session never closes the socket).
typedef struct barkeep_tls barkeep_tls;

/// What a TLS operation did, or what it waits for.
typedef enum __attribute__((enum_extensibility(closed))) barkeep_tls_status {
    /// Done: the handshake completed, or bytes were read or written.
    BARKEEP_TLS_OK = 0,
    /// Call again once the socket is readable (a non-blocking socket; a blocking one timed out).
    BARKEEP_TLS_WANT_READ = 1,
    /// Call again once the socket is writable (a non-blocking socket; a blocking one timed out).
    BARKEEP_TLS_WANT_WRITE = 2,
    /// The peer closed the connection (with or without close_notify).
    BARKEEP_TLS_CLOSED = 3,
    /// A protocol or socket error; `barkeep_tls_error` says which. The session can only be freed.
    BARKEEP_TLS_FAILED = 4,
} barkeep_tls_status;

// MARK: - Contexts

/// A server context presenting the certificate chain of `certificate_file` (PEM, the server's certificate first)
/// with the private key of `key_file` (PEM). NULL on failure, with the reason (a missing file, a key that does not
/// match the certificate) written to `error`.
barkeep_tls_context *barkeep_tls_server_context_create(const char *certificate_file, const char *key_file, char *error,
                                                       size_t capacity);

/// A client context that verifies servers against the CAs of `ca_file` (PEM), or the system's default CAs when
/// `ca_file` is NULL. NULL on failure, with the reason written to `error`.
barkeep_tls_context *barkeep_tls_client_context_create(const char *ca_file, char *error, size_t capacity);

/// Writes when the context's own certificate stops being valid ("Nov 29 16:54:00 2027 GMT") into `out`; returns 1 if
/// that moment has passed, 0 if not, -1 when the context has no certificate.
int barkeep_tls_context_certificate_expiry(const barkeep_tls_context *context, char *out, size_t capacity);

/// Frees a context; sessions made from it keep what they need.
void barkeep_tls_context_free(barkeep_tls_context *context);

// MARK: - Sessions

/// A server-side session on the connected socket `fd`. NULL when out of memory.
barkeep_tls *barkeep_tls_server_create(barkeep_tls_context *context, int fd);

/// A client-side session on the connected socket `fd` that accepts only a certificate naming `host`: an IP
/// address is checked against the certificate's IP addresses, a name against its DNS names (and sent as SNI).
/// NULL when out of memory or `host` is unusable.
barkeep_tls *barkeep_tls_client_create(barkeep_tls_context *context, int fd, const char *host);

/// Runs the handshake as far as the socket allows.
barkeep_tls_status barkeep_tls_handshake(barkeep_tls *session);

/// Reads up to `capacity` decrypted bytes; `*count` is how many when the status is OK.
barkeep_tls_status barkeep_tls_read(barkeep_tls *session, void *buffer, size_t capacity, size_t *count);

/// Writes up to `count` bytes (partial writes are allowed, and the buffer may move between a WANT_* and the retry,
/// which must then offer at least the same bytes); `*written` is how many when the status is OK.
barkeep_tls_status barkeep_tls_write(barkeep_tls *session, const void *bytes, size_t count, size_t *written);

/// 1 when the session holds bytes already taken from the socket (decrypted or not) that a read would return
/// without the socket becoming readable again; 0 otherwise.
int barkeep_tls_pending(const barkeep_tls *session);

/// Sends close_notify once, as far as the socket allows without blocking further; does nothing after a failure or
/// before the handshake completed.
barkeep_tls_status barkeep_tls_shutdown(barkeep_tls *session);

/// Frees the session; the socket stays open.
void barkeep_tls_free(barkeep_tls *session);

/// Why the last operation returned FAILED (or CLOSED): a short text without any bytes of the peer's.
const char *barkeep_tls_error(const barkeep_tls *session);

/// 1 when the handshake failed because the peer's certificate was not trusted (chain, validity or name); 0
/// otherwise.
int barkeep_tls_is_untrusted(const barkeep_tls *session);

/// The negotiated protocol version ("TLSv1.3") after the handshake.
const char *barkeep_tls_version(const barkeep_tls *session);

// MARK: - Message authentication

/// HMAC-SHA256 of `count` bytes at `message` under the `key_length`-byte key at `key` (OpenSSL's HMAC), written to
/// `out` (32 bytes). Returns 0, or -1 when libcrypto fails (the convention of every call here that computes
/// something; the 1/0 answers are predicates).
int barkeep_hmac_sha256(const void *key, size_t key_length, const void *message, size_t count, unsigned char *out);

// MARK: - Digests

/// SHA-256 of `count` bytes at `bytes` into `digest` (32 bytes), with libcrypto (which uses the CPU's SHA
/// instructions where there are some). Returns 0, or -1 when libcrypto fails.
int barkeep_sha256(const unsigned char *bytes, size_t count, unsigned char *digest);

#endif
