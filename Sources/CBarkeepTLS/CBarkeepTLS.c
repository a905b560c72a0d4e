#define _GNU_SOURCE
#include "CBarkeepTLS.h"

#include <arpa/inet.h>
#include <errno.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct barkeep_tls_context {
    SSL_CTX *ssl_context;
};

struct barkeep_tls {
    SSL *ssl;
    /// A fatal error happened: OpenSSL forbids SSL_shutdown afterwards.
    int is_failed;
    /// The failure was the peer's certificate.
    int is_untrusted;
    /// The host a client session expects its server's certificate to name.
    char host[256];
    char error[256];
};

// MARK: - Errors

/// The reason of the oldest error in OpenSSL's queue (the one that started the failure), or `fallback`; the queue
/// is left empty.
static const char *queued_reason(const char *fallback) {
    unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0) return fallback;
    const char *reason = ERR_reason_error_string(code);
    return reason != NULL ? reason : fallback;
}

/// Like `queued_reason`, in words for a file given to load a certificate or key: a file that is not PEM and a key
/// that belongs to another certificate are the usual mistakes.
static const char *queued_file_reason(int *is_mismatch) {
    unsigned long code = ERR_get_error();
    ERR_clear_error();
    *is_mismatch = 0;
    if (code == 0) return "unknown error";
    if (ERR_GET_LIB(code) == ERR_LIB_X509 && ERR_GET_REASON(code) == X509_R_KEY_VALUES_MISMATCH) {
        *is_mismatch = 1;
        return "key values mismatch";
    }
    if (ERR_GET_LIB(code) == ERR_LIB_PEM && ERR_GET_REASON(code) == PEM_R_NO_START_LINE) return "it is not PEM";
    const char *reason = ERR_reason_error_string(code);
    return reason != NULL ? reason : "unknown error";
}

static void write_text(char *out, size_t capacity, const char *text) {
    if (out != NULL && capacity > 0) snprintf(out, capacity, "%s", text);
}

/// Checks that `path` can be opened for reading, so that a missing file is reported as such rather than as
/// OpenSSL's chain of BIO and PEM errors.
static int check_readable(const char *path, const char *what, char *error, size_t capacity) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        if (error != NULL && capacity > 0) snprintf(error, capacity, "cannot read %s %s: %s", what, path, strerror(errno));
        return 0;
    }
    fclose(file);
    return 1;
}

// MARK: - A socket BIO without SIGPIPE

// OpenSSL's socket BIO writes with write(2), which raises SIGPIPE when the peer has gone; this one sends with
// MSG_NOSIGNAL and otherwise behaves like the socket BIO it borrows its other functions from.
static BIO_METHOD *socket_method;
static pthread_once_t socket_method_once = PTHREAD_ONCE_INIT;

static int send_without_signal(BIO *bio, const char *data, int length) {
    int fd = -1;
    BIO_get_fd(bio, &fd);
    errno = 0;
    ssize_t sent = send(fd, data, (size_t)length, MSG_NOSIGNAL);
    BIO_clear_retry_flags(bio);
    if (sent <= 0 && BIO_sock_should_retry((int)sent)) BIO_set_retry_write(bio);
    return (int)sent;
}

static void make_socket_method(void) {
    const BIO_METHOD *base = BIO_s_socket();
    BIO_METHOD *method = BIO_meth_new(BIO_TYPE_SOCKET, "barkeep socket");
    if (method == NULL) return;
    BIO_meth_set_write(method, send_without_signal);
    BIO_meth_set_read(method, BIO_meth_get_read(base));
    BIO_meth_set_puts(method, BIO_meth_get_puts(base));
    BIO_meth_set_ctrl(method, BIO_meth_get_ctrl(base));
    BIO_meth_set_create(method, BIO_meth_get_create(base));
    BIO_meth_set_destroy(method, BIO_meth_get_destroy(base));
    socket_method = method;
}

static int attach_socket(SSL *ssl, int fd) {
    pthread_once(&socket_method_once, make_socket_method);
    if (socket_method == NULL) return SSL_set_fd(ssl, fd);
    BIO *bio = BIO_new(socket_method);
    if (bio == NULL) return 0;
    BIO_set_fd(bio, fd, BIO_NOCLOSE);
    SSL_set_bio(ssl, bio, bio);
    return 1;
}

// MARK: - Contexts

static barkeep_tls_context *make_context(const SSL_METHOD *method, char *error, size_t capacity) {
    SSL_CTX *ssl_context = SSL_CTX_new(method);
    barkeep_tls_context *context = calloc(1, sizeof *context);
    if (ssl_context == NULL || context == NULL) {
        write_text(error, capacity, queued_reason("out of memory"));
        SSL_CTX_free(ssl_context);
        free(context);
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ssl_context, TLS1_2_VERSION);
    // An end of stream without close_notify is an ordinary close here: every reply is framed by its final line.
    SSL_CTX_set_options(ssl_context, SSL_OP_NO_RENEGOTIATION | SSL_OP_IGNORE_UNEXPECTED_EOF);
    context->ssl_context = ssl_context;
    return context;
}

barkeep_tls_context *barkeep_tls_server_context_create(const char *certificate_file, const char *key_file, char *error,
                                                       size_t capacity) {
    ERR_clear_error();
    if (!check_readable(certificate_file, "the certificate", error, capacity)) return NULL;
    if (!check_readable(key_file, "the key", error, capacity)) return NULL;
    barkeep_tls_context *context = make_context(TLS_server_method(), error, capacity);
    if (context == NULL) return NULL;
    SSL_CTX *ssl_context = context->ssl_context;
    // No resumption: clients open few, long connections, and session tickets would be bytes sent after the
    // handshake that a client waiting on its socket cannot tell from a reply.
    SSL_CTX_set_options(ssl_context, SSL_OP_NO_TICKET | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_num_tickets(ssl_context, 0);
    SSL_CTX_set_session_cache_mode(ssl_context, SSL_SESS_CACHE_OFF);
    // The event loop writes from a buffer that grows and moves, and takes what the socket accepts.
    SSL_CTX_set_mode(ssl_context,
                     SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    int is_mismatch = 0;
    const char *reason = NULL;
    if (SSL_CTX_use_certificate_chain_file(ssl_context, certificate_file) != 1) {
        reason = queued_file_reason(&is_mismatch);
        if (error != NULL && capacity > 0)
            snprintf(error, capacity, "cannot use the certificate in %s: %s", certificate_file, reason);
    } else if (SSL_CTX_use_PrivateKey_file(ssl_context, key_file, SSL_FILETYPE_PEM) != 1 ||
               SSL_CTX_check_private_key(ssl_context) != 1) {
        reason = queued_file_reason(&is_mismatch);
        if (error != NULL && capacity > 0) {
            if (is_mismatch) {
                snprintf(error, capacity, "the key in %s does not match the certificate in %s", key_file,
                         certificate_file);
            } else {
                snprintf(error, capacity, "cannot use the key in %s: %s", key_file, reason);
            }
        }
    }
    if (reason != NULL) {
        barkeep_tls_context_free(context);
        return NULL;
    }
    return context;
}

barkeep_tls_context *barkeep_tls_client_context_create(const char *ca_file, char *error, size_t capacity) {
    ERR_clear_error();
    if (ca_file != NULL && !check_readable(ca_file, "the CA file", error, capacity)) return NULL;
    barkeep_tls_context *context = make_context(TLS_client_method(), error, capacity);
    if (context == NULL) return NULL;
    SSL_CTX *ssl_context = context->ssl_context;
    SSL_CTX_set_verify(ssl_context, SSL_VERIFY_PEER, NULL);
    int loaded = ca_file != NULL ? SSL_CTX_load_verify_locations(ssl_context, ca_file, NULL)
                                 : SSL_CTX_set_default_verify_paths(ssl_context);
    if (loaded != 1) {
        int is_mismatch = 0;
        const char *reason = queued_file_reason(&is_mismatch);
        if (error != NULL && capacity > 0) {
            if (ca_file != NULL) {
                snprintf(error, capacity, "cannot use the CAs in %s: %s", ca_file, reason);
            } else {
                snprintf(error, capacity, "cannot load the system's CAs: %s", reason);
            }
        }
        barkeep_tls_context_free(context);
        return NULL;
    }
    return context;
}

int barkeep_tls_context_certificate_expiry(const barkeep_tls_context *context, char *out, size_t capacity) {
    X509 *certificate = SSL_CTX_get0_certificate(context->ssl_context);
    if (certificate == NULL) return -1;
    const ASN1_TIME *not_after = X509_get0_notAfter(certificate);
    BIO *memory = BIO_new(BIO_s_mem());
    if (memory == NULL) return -1;
    ASN1_TIME_print(memory, not_after);
    char *text = NULL;
    long length = BIO_get_mem_data(memory, &text);
    if (out != NULL && capacity > 0) snprintf(out, capacity, "%.*s", (int)length, text != NULL ? text : "");
    BIO_free(memory);
    ERR_clear_error();
    return X509_cmp_current_time(not_after) < 0 ? 1 : 0;
}

void barkeep_tls_context_free(barkeep_tls_context *context) {
    if (context == NULL) return;
    SSL_CTX_free(context->ssl_context);
    free(context);
}

// MARK: - Sessions

static barkeep_tls *make_session(barkeep_tls_context *context, int fd) {
    ERR_clear_error();
    barkeep_tls *session = calloc(1, sizeof *session);
    if (session == NULL) return NULL;
    session->ssl = SSL_new(context->ssl_context);
    if (session->ssl == NULL || attach_socket(session->ssl, fd) != 1) {
        SSL_free(session->ssl);
        free(session);
        ERR_clear_error();
        return NULL;
    }
    return session;
}

barkeep_tls *barkeep_tls_server_create(barkeep_tls_context *context, int fd) {
    barkeep_tls *session = make_session(context, fd);
    if (session != NULL) SSL_set_accept_state(session->ssl);
    return session;
}

barkeep_tls *barkeep_tls_client_create(barkeep_tls_context *context, int fd, const char *host) {
    barkeep_tls *session = make_session(context, fd);
    if (session == NULL) return NULL;
    SSL *ssl = session->ssl;
    SSL_set_connect_state(ssl);
    snprintf(session->host, sizeof session->host, "%s", host);
    unsigned char address[sizeof(struct in6_addr)];
    int ok;
    if (inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1) {
        // An address: it must be one of the certificate's IP subject alternative names (no SNI for addresses).
        ok = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host);
    } else {
        SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        ok = SSL_set1_host(ssl, host) == 1 && SSL_set_tlsext_host_name(ssl, host) == 1;
    }
    if (!ok) {
        barkeep_tls_free(session);
        ERR_clear_error();
        return NULL;
    }
    return session;
}

/// Maps the result of an SSL call to a status, recording why it failed.
static barkeep_tls_status finish(barkeep_tls *session, int result, int saved_errno) {
    int code = SSL_get_error(session->ssl, result);
    switch (code) {
    case SSL_ERROR_NONE:
        return BARKEEP_TLS_OK;
    case SSL_ERROR_WANT_READ:
        ERR_clear_error();
        return BARKEEP_TLS_WANT_READ;
    case SSL_ERROR_WANT_WRITE:
        ERR_clear_error();
        return BARKEEP_TLS_WANT_WRITE;
    case SSL_ERROR_ZERO_RETURN:
        ERR_clear_error();
        snprintf(session->error, sizeof session->error, "the peer closed the connection");
        return BARKEEP_TLS_CLOSED;
    case SSL_ERROR_SYSCALL:
        session->is_failed = 1;
        if (ERR_peek_error() == 0 && saved_errno == 0) {
            snprintf(session->error, sizeof session->error, "the peer closed the connection");
            return BARKEEP_TLS_CLOSED;
        }
        if (saved_errno != 0) {
            ERR_clear_error();
            snprintf(session->error, sizeof session->error, "%s", strerror(saved_errno));
        } else {
            snprintf(session->error, sizeof session->error, "%s", queued_reason("socket error"));
        }
        return BARKEEP_TLS_FAILED;
    case SSL_ERROR_SSL: {
        session->is_failed = 1;
        long verification = SSL_get_verify_result(session->ssl);
        unsigned long first = ERR_peek_error();
        if (verification != X509_V_OK ||
            (ERR_GET_LIB(first) == ERR_LIB_SSL && ERR_GET_REASON(first) == SSL_R_CERTIFICATE_VERIFY_FAILED)) {
            session->is_untrusted = 1;
            ERR_clear_error();
            const char *reason = X509_verify_cert_error_string(verification);
            if (verification == X509_V_ERR_HOSTNAME_MISMATCH || verification == X509_V_ERR_IP_ADDRESS_MISMATCH) {
                snprintf(session->error, sizeof session->error, "%s: it is not issued for %s", reason, session->host);
            } else {
                snprintf(session->error, sizeof session->error, "%s", reason);
            }
            return BARKEEP_TLS_FAILED;
        }
        snprintf(session->error, sizeof session->error, "%s", queued_reason("TLS protocol error"));
        return BARKEEP_TLS_FAILED;
    }
    default:
        session->is_failed = 1;
        ERR_clear_error();
        snprintf(session->error, sizeof session->error, "unexpected OpenSSL error %d", code);
        return BARKEEP_TLS_FAILED;
    }
}

/// Whether a WANT_* status came from a signal interrupting a blocking socket (which OpenSSL treats as "retry"),
/// rather than from a non-blocking socket or a timeout: the call is then simply repeated.
static int is_interrupted(barkeep_tls_status status, int saved_errno) {
    return (status == BARKEEP_TLS_WANT_READ || status == BARKEEP_TLS_WANT_WRITE) && saved_errno == EINTR;
}

barkeep_tls_status barkeep_tls_handshake(barkeep_tls *session) {
    barkeep_tls_status status;
    int saved_errno;
    do {
        ERR_clear_error();
        errno = 0;
        int result = SSL_do_handshake(session->ssl);
        saved_errno = errno;
        status = result == 1 ? BARKEEP_TLS_OK : finish(session, result, saved_errno);
    } while (is_interrupted(status, saved_errno));
    return status;
}

barkeep_tls_status barkeep_tls_read(barkeep_tls *session, void *buffer, size_t capacity, size_t *count) {
    barkeep_tls_status status;
    int saved_errno;
    do {
        *count = 0;
        ERR_clear_error();
        errno = 0;
        int result = SSL_read_ex(session->ssl, buffer, capacity, count);
        saved_errno = errno;
        status = result == 1 ? BARKEEP_TLS_OK : finish(session, result, saved_errno);
    } while (is_interrupted(status, saved_errno));
    return status;
}

barkeep_tls_status barkeep_tls_write(barkeep_tls *session, const void *bytes, size_t count, size_t *written) {
    *written = 0;
    if (count == 0) return BARKEEP_TLS_OK;
    barkeep_tls_status status;
    int saved_errno;
    do {
        ERR_clear_error();
        errno = 0;
        int result = SSL_write_ex(session->ssl, bytes, count, written);
        saved_errno = errno;
        status = result == 1 ? BARKEEP_TLS_OK : finish(session, result, saved_errno);
    } while (is_interrupted(status, saved_errno));
    return status;
}

int barkeep_tls_pending(const barkeep_tls *session) {
    return SSL_pending(session->ssl) > 0 || SSL_has_pending(session->ssl) ? 1 : 0;
}

barkeep_tls_status barkeep_tls_shutdown(barkeep_tls *session) {
    if (session->is_failed || !SSL_is_init_finished(session->ssl)) return BARKEEP_TLS_OK;
    ERR_clear_error();
    errno = 0;
    int result = SSL_shutdown(session->ssl);
    int saved_errno = errno;
    return result >= 0 ? BARKEEP_TLS_OK : finish(session, result, saved_errno);
}

void barkeep_tls_free(barkeep_tls *session) {
    if (session == NULL) return;
    SSL_free(session->ssl);
    free(session);
}

const char *barkeep_tls_error(const barkeep_tls *session) {
    return session->error[0] != 0 ? session->error : "no error";
}

int barkeep_tls_is_untrusted(const barkeep_tls *session) { return session->is_untrusted; }

const char *barkeep_tls_version(const barkeep_tls *session) { return SSL_get_version(session->ssl); }

// MARK: - Message authentication

int barkeep_hmac_sha256(const void *key, size_t key_length, const void *message, size_t count, unsigned char *out) {
    unsigned int length = 0;
    // HMAC() accepts a NULL key only with a zero length; an empty key must still sign.
    static const unsigned char empty = 0;
    if (HMAC(EVP_sha256(), key_length == 0 ? &empty : key, (int)key_length, message, count, out, &length) == NULL) {
        ERR_clear_error();
        return -1;
    }
    return length == 32 ? 0 : -1;
}

// MARK: - Digests

// SHA-256 fetched from the default provider once: `EVP_sha256()` makes every EVP_Digest look the algorithm up again
// under the provider store's lock, which is half the cost of hashing an identity (a few hundred bytes) and more.
static EVP_MD *barkeep_fetched_sha256;
static pthread_once_t barkeep_sha256_once = PTHREAD_ONCE_INIT;

static void barkeep_fetch_sha256(void) {
    barkeep_fetched_sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    ERR_clear_error();
}

int barkeep_sha256(const unsigned char *bytes, size_t count, unsigned char *digest) {
    unsigned int length = 0;
    pthread_once(&barkeep_sha256_once, barkeep_fetch_sha256);
    const EVP_MD *md = barkeep_fetched_sha256 != NULL ? barkeep_fetched_sha256 : EVP_sha256();
    return EVP_Digest(bytes, count, digest, &length, md, NULL) == 1 && length == 32 ? 0 : -1;
}
