/* sym_dsopre.c - the symbols of a recording's DSOs (those its build-id list
 * names: the DSOs with hits) read ahead on a thread of their own, as the
 * kernel's are (sym_kernel.c): a profile's report spends a fifth of its
 * time reading symbol tables, and the reader's core has time to spare.
 * The thread loads copies; the machine takes each when it first needs it,
 * or loads it itself when the thread has not come to it yet. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/sym_dsopre.h"

enum { PRE_WAITING, PRE_LOADING, PRE_DONE, PRE_GONE };

struct pre_ent {
	struct sym_dso copy;      /* what the thread loads (a build-id it had stays) */
	int state, rc;
	char warning[sizeof(((struct sym_load_ctx *)0)->warning)];
};

struct sym_dsopre {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t done;
	int stop, finished;
	struct sym_load_ctx ctx;
	size_t n;
	struct pre_ent ents[];
};

static void *pre_main(void *arg)
{
	struct sym_dsopre *p = arg;

	for (size_t i = 0; i < p->n; i++) {
		struct pre_ent *e = &p->ents[i];
		struct sym_load_ctx c = p->ctx;
		int rc;

		pthread_mutex_lock(&p->lock);
		if (p->stop) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		if (e->state != PRE_WAITING) {
			pthread_mutex_unlock(&p->lock);
			continue;
		}
		e->state = PRE_LOADING;
		pthread_mutex_unlock(&p->lock);
		c.warning[0] = 0;
		rc = sym_dso_load(&e->copy, &c);
		pthread_mutex_lock(&p->lock);
		e->rc = rc;
		memcpy(e->warning, c.warning, sizeof(e->warning));
		e->state = PRE_DONE;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->lock);
	}
	pthread_mutex_lock(&p->lock);
	p->finished = 1;
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void copy_free(struct sym_dso *d)
{
	sym_table_free(&d->tab);
	free(d->symsrc);
	free(d->name);
	d->name = d->symsrc = NULL;
}

struct sym_dsopre *sym_dsopre_start(struct sym_dso *const *dsos, size_t n,
				    const struct sym_load_ctx *c)
{
	struct sym_dsopre *p = calloc(1, sizeof(*p) + n * sizeof(p->ents[0]));
	sigset_t all, old;
	int started;
	size_t i;

	if (!p || c->di)
		goto fail;
	p->ctx = *c;
	p->n = n;
	for (i = 0; i < n; i++) {
		struct pre_ent *e = &p->ents[i];
		const struct sym_dso *d = dsos[i];

		e->copy.kind = d->kind;
		memcpy(e->copy.bid, d->bid, sizeof(d->bid));
		e->copy.bid_len = d->bid_len;
		e->copy.has_bid = d->has_bid;
		sym_table_init(&e->copy.tab);
		if (!(e->copy.name = strdup(d->name)))
			goto fail;
	}
	if (pthread_mutex_init(&p->lock, NULL))
		goto fail;
	if (pthread_cond_init(&p->done, NULL)) {
		pthread_mutex_destroy(&p->lock);
		goto fail;
	}
	/* signals go to the thread that prints, as they went before */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	started = pthread_create(&p->thread, NULL, pre_main, p) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!started) {
		pthread_cond_destroy(&p->done);
		pthread_mutex_destroy(&p->lock);
		goto fail;
	}
	for (i = 0; i < n; i++)
		dsos[i]->pre = (unsigned)i + 1;
	return p;
fail:
	for (i = 0; p && i < p->n; i++)
		copy_free(&p->ents[i].copy);
	free(p);
	return NULL;
}

/* @d has the build-id its copy was loaded for (a load gives one only to a
 * DSO without: then they differ, and @d is loaded again) */
static int same_bid(const struct sym_dso *copy, const struct sym_dso *d)
{
	return copy->has_bid == d->has_bid && copy->bid_len == d->bid_len &&
	       !memcmp(copy->bid, d->bid, sizeof(d->bid));
}

int sym_dsopre_take(struct sym_dsopre *p, struct sym_dso *d, char *warning, size_t n)
{
	struct pre_ent *e;

	if (!p || !d->pre || d->pre > p->n)
		return 0;
	e = &p->ents[d->pre - 1];
	d->pre = 0;
	pthread_mutex_lock(&p->lock);
	while (e->state == PRE_LOADING)
		pthread_cond_wait(&p->done, &p->lock);
	if (e->state == PRE_WAITING)
		e->state = PRE_GONE;          /* the thread skips it */
	pthread_mutex_unlock(&p->lock);
	/* out of memory on the thread: this thread may yet have room */
	if (e->state != PRE_DONE || e->rc || !same_bid(&e->copy, d) || d->loaded)
		return 0;
	e->state = PRE_GONE;
	sym_table_free(&d->tab);
	d->tab = e->copy.tab;
	sym_table_init(&e->copy.tab);
	free(d->symsrc);
	d->symsrc = e->copy.symsrc;
	e->copy.symsrc = NULL;
	d->loaded = 1;
	if (e->warning[0] && !warning[0])     /* one not yet told stays, as sym_dso_load keeps it */
		snprintf(warning, n, "%s", e->warning);
	return 1;
}

int sym_dsopre_done(struct sym_dsopre *p)
{
	int done;

	pthread_mutex_lock(&p->lock);
	done = p->finished;
	pthread_mutex_unlock(&p->lock);
	return done;
}

void sym_dsopre_stop(struct sym_dsopre *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	for (size_t i = 0; i < p->n; i++)
		copy_free(&p->ents[i].copy);
	free(p);
}
