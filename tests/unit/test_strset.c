/* test_strset.c - the string set (common/util/strset.h): each string kept
 * once, the same pointer for it ever after, across the table's growths,
 * against a plain list of 20,000 names asked for twice in a shuffled order. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "util/strset.h"
#include "unit.h"

#define N 20000

int main(void)
{
	static const char *first[N];
	struct strset set = { 0 };
	char name[32];
	int same = 1, distinct = 1, equal = 1;

	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "bpf_prog_%d", i);
		first[i] = strset_add(&set, name);
		equal &= first[i] && !strcmp(first[i], name) && first[i] != name;
	}
	T(equal, "every name added: a copy of it");
	T(set.nr == N, "20,000 names kept (%zu)", set.nr);
	for (int k = 0; k < N; k++) {
		int i = (int)((k * 7919ULL) % N);       /* 7919 is prime: every i once */

		snprintf(name, sizeof(name), "bpf_prog_%d", i);
		same &= strset_add(&set, name) == first[i];
	}
	T(same, "each name asked for again: its first copy");
	T(set.nr == N, "none added twice (%zu)", set.nr);
	for (int i = 1; i < N; i++)
		distinct &= first[i] != first[i - 1];
	T(distinct, "different names: different copies");
	T(strset_add(&set, "") && strset_add(&set, "") == strset_add(&set, ""),
	  "the empty name is one name too");
	strset_free(&set);
	T(set.nr == 0 && !set.items && !set.slots, "freed: empty");
	return done();
}
