#ifndef BARKEEP_CZLIB_SHIM_H
#define BARKEEP_CZLIB_SHIM_H
#include <zlib.h>
#endif
