#ifndef LIGHTBOX_CEXEMPI_SHIM_H
#define LIGHTBOX_CEXEMPI_SHIM_H
#include <exempi/xmp.h>
#include <exempi/xmpconsts.h>
#endif
