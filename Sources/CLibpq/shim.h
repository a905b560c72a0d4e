#ifndef BARKEEP_CLIBPQ_SHIM_H
#define BARKEEP_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
