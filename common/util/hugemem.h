/* hugemem.h - memory in huge pages where the kernel gives them (hugemem.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HUGEMEM_H
#define HUGEMEM_H

#include <stddef.h>

#define HUGEMEM_PAGE (2u << 20)

/**
 * huge_alloc - @bytes (a multiple of HUGEMEM_PAGE) aligned to HUGEMEM_PAGE,
 * asked to be backed by huge pages (madvise; transparent huge pages set to
 * "madvise" give them, "never" does not), not zeroed; NULL without memory.
 * For tables met at random, where each small page would be a TLB miss.
 * free() frees it.
 */
void *huge_alloc(size_t bytes);

#endif
