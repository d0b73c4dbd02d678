/* hugemem.c - memory in huge pages where the kernel gives them: aligned
 * to one, and madvise(MADV_HUGEPAGE) before its first touch. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <sys/mman.h>
#include "util/hugemem.h"

void *huge_alloc(size_t bytes)
{
	void *p = aligned_alloc(HUGEMEM_PAGE, bytes);

	if (p)
		madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}
