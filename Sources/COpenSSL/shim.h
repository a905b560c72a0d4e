#ifndef BARKEEP_COPENSSL_SHIM_H
#define BARKEEP_COPENSSL_SHIM_H
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#endif
