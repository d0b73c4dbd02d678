/* test_dsopre.c - the DSOs' symbols read ahead (common/symbols/sym_dsopre.h):
 * what a take hands over is what sym_dso_load reads, taken in any order;
 * a DSO the thread has not come to, one loaded meanwhile and one whose
 * build-id changed are left to the caller. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <unistd.h>
#include "symbols/sym_dsopre.h"
#include "unit.h"

static char self[4096];
static const char *const files[] = { self, "/bin/sh", "/bin/ls" };
#define NR (sizeof(files) / sizeof(files[0]))

/* a FILE dso of @path with the file's own build-id */
static struct sym_dso *dso_of(const char *path)
{
	struct sym_dso *d = calloc(1, sizeof(*d));
	struct sym_elf e;
	char why[256];

	d->name = strdup(path);
	d->short_name = strrchr(d->name, '/') + 1;
	d->kind = SYM_DSO_FILE;
	sym_table_init(&d->tab);
	if (sym_elf_open_file(&e, path, why, sizeof(why)) == 0) {
		d->bid_len = sym_elf_build_id(&e, d->bid);
		d->has_bid = d->bid_len > 0;
		sym_elf_close(&e);
	}
	return d;
}

static void dso_free(struct sym_dso *d)
{
	sym_table_free(&d->tab);
	free(d->symsrc);
	free(d->name);
	free(d);
}

/* @a and @b hold the same symbols, names as shown */
static int same_table(struct sym_table *a, struct sym_table *b)
{
	if (a->nr != b->nr || !a->nr)
		return 0;
	for (size_t i = 0; i < a->nr; i++) {
		const char *x = sym_table_shown(a, &a->syms[i]), *y = sym_table_shown(b, &b->syms[i]);

		if (a->syms[i].start != b->syms[i].start || !x || !y || strcmp(x, y))
			return 0;
	}
	return 1;
}

int main(void)
{
	struct sym_load_ctx c = { .symfs = "", .demangle = SYM_DEMANGLE_SHORT };
	struct sym_dso *d[NR], *want[NR];
	struct sym_dsopre *p;
	char warning[320] = "";
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	T(n > 0, "this test's own file");
	self[n > 0 ? n : 0] = 0;
	for (size_t i = 0; i < NR; i++) {
		d[i] = dso_of(files[i]);
		want[i] = dso_of(files[i]);
		T_EQ(sym_dso_load(want[i], &c), 0, "%s: sym_dso_load", files[i]);
	}
	p = sym_dsopre_start(d, NR, &c);
	T(p != NULL, "the thread starts");
	for (size_t i = 0; i < NR; i++)
		T_EQ(d[i]->pre, i + 1, "%s: its place in the read-ahead", files[i]);
	/* the last first, once the thread has read them all */
	for (int i = 0; i < 6000 && !sym_dsopre_done(p); i++)
		usleep(10000);
	T(sym_dsopre_done(p), "the thread reads the list within a minute");
	T(sym_dsopre_take(p, d[2], warning, sizeof(warning)) == 1, "%s: taken", files[2]);
	T(d[2]->loaded && !d[2]->pre, "%s: loaded, no longer marked", files[2]);
	T(same_table(&d[2]->tab, &want[2]->tab), "%s: the symbols sym_dso_load reads", files[2]);
	/* a build-id that changed since (an MMAP2 gave another): not taken */
	d[1]->bid[0] ^= 0xff;
	T(sym_dsopre_take(p, d[1], warning, sizeof(warning)) == 0, "a changed build-id: not taken");
	T(!d[1]->loaded && !d[1]->pre, "a changed build-id: left to the caller, unmarked");
	/* one loaded meanwhile by the caller: kept as it is */
	d[0]->loaded = 1;
	T(sym_dsopre_take(p, d[0], warning, sizeof(warning)) == 0, "loaded meanwhile: not taken");
	T(d[0]->tab.nr == 0, "loaded meanwhile: its table untouched");
	T(sym_dsopre_take(p, d[0], warning, sizeof(warning)) == 0, "a second take: nothing");
	sym_dsopre_stop(p);
	T(warning[0] == 0, "no warning for good files");

	/* a load's warning (a build-id other than the file's) comes with the
	 * take, but does not replace one not yet told (sym_dso_load keeps the
	 * first) */
	for (size_t i = 0; i < 2; i++) {
		dso_free(d[i]);
		d[i] = dso_of(files[i]);
		d[i]->bid[0] ^= 0xff;
	}
	p = sym_dsopre_start(d, 2, &c);
	for (int i = 0; p && i < 6000 && !sym_dsopre_done(p); i++)
		usleep(10000);
	snprintf(warning, sizeof(warning), "earlier");
	T(p && sym_dsopre_take(p, d[0], warning, sizeof(warning)) == 1 &&
	  !strcmp(warning, "earlier"), "a warning not yet told stays: %s", warning);
	warning[0] = 0;
	T(p && sym_dsopre_take(p, d[1], warning, sizeof(warning)) == 1 &&
	  strstr(warning, "build-id differs"), "the load's warning comes with the take: %s", warning);
	sym_dsopre_stop(p);
	warning[0] = 0;

	/* takes in order, racing the thread: each is taken (waited for) or
	 * left to the caller (the thread then skips it); what is taken is right */
	for (size_t i = 0; i < NR; i++) {
		dso_free(d[i]);
		d[i] = dso_of(files[i]);
	}
	p = sym_dsopre_start(d, NR, &c);
	T(p != NULL, "the thread starts again");
	for (size_t i = 0; i < NR; i++) {
		int took = sym_dsopre_take(p, d[i], warning, sizeof(warning));

		if (!took)
			T_EQ(sym_dso_load(d[i], &c), 0, "%s: left to the caller, loaded", files[i]);
		T(same_table(&d[i]->tab, &want[i]->tab), "%s: %s, the symbols sym_dso_load reads",
		  files[i], took ? "taken" : "loaded here");
	}
	sym_dsopre_stop(p);
	for (size_t i = 0; i < NR; i++)
		dso_free(d[i]), dso_free(want[i]);
	/* a server to ask: no thread */
	c.di = (struct sym_debuginfod *)&c;
	d[0] = dso_of(files[0]);
	T(sym_dsopre_start(d, 1, &c) == NULL && !d[0]->pre, "with debuginfod: nothing read ahead");
	dso_free(d[0]);
	return done();
}
