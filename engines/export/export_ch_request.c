/* export_ch_request.c - requests to the ClickHouse servers: one POST with the
 * server's own error text kept, the shard the recording id picks, and the
 * thread that sends the batches while the next one fills. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/export_ch.h"

int ch_shard(const struct engine_run *r)
{
	return (int)(r->x.rec.id % (uint64_t)r->nr_srv);
}

/* Run @sql on server @s, its answer at most @max_body bytes (http.h's
 * caps); on failure one line: server, table, ClickHouse's own text. */
static int post(struct engine_run *r, int s, const char *sql, const void *body, size_t len,
		size_t max_body, const char *table, struct tb_err *err)
{
	struct ch_server *sv = &r->srv[s];
	int rc;

	r->broken = 1;      /* until it succeeded */
	r->url.len = 0;
	bb_put(&r->url, "/?query=", 8);
	http_urlencode(&r->url, sql);
	bb_put(&r->url, "", 1);
	if (r->url.oom)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	rc = http_post(&sv->http, (const char *)r->url.p, body, len, max_body, &r->resp, err);
	if (rc) {
		char what[256];

		snprintf(what, sizeof(what), "%s", err->msg);
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "server %s%s%s: %s", sv->name,
				  table ? ": table " : "", table ? table : "", what);
	}
	if (r->resp.status != 200) {
		const unsigned char *b = r->resp.body.p;
		char text[181];
		size_t n = 0;

		/* the first line of ClickHouse's text, its control bytes (a
		 * terminal's escapes) shown as '?' */
		for (; b && n < r->resp.body.len && n < sizeof(text) - 1 && b[n] != '\n'; n++)
			text[n] = b[n] < ' ' || b[n] == 0x7f ? '?' : (char)b[n];
		text[n] = 0;
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "server %s%s%s: HTTP %d: %s",
				  sv->name, table ? ": table " : "", table ? table : "",
				  r->resp.status, text);
	}
	r->broken = 0;
	return 0;
}

int ch_post(struct engine_run *r, int s, const char *sql, const void *body, size_t len,
	    const char *table, struct tb_err *err)
{
	return post(r, s, sql, body, len, HTTP_BODY_ANSWER, table, err);
}

int ch_query(struct engine_run *r, int s, const char *sql, const char *table,
	     struct tb_err *err)
{
	int rc = ch_sender_wait(r, err);     /* one request at a time on a connection */

	if (rc)
		return rc;
	/* DDL goes in the body: the URL stays short; a SELECT answers names */
	return post(r, s, "", sql, strlen(sql),
		    strncmp(sql, "SELECT ", 7) ? HTTP_BODY_ANSWER : HTTP_BODY_LIST, table, err) ?
	       err->code : 0;
}

void ch_sql_cat(struct engine_run *r, const char *s)
{
	bb_put(&r->sql, s, strlen(s));
}

const char *ch_sql_done(struct engine_run *r)
{
	bb_put(&r->sql, "", 1);
	return (const char *)r->sql.p;
}

/* ---- the sender thread ---- */

static void *sender_main(void *arg)
{
	struct engine_run *r = arg;
	struct sender *sd = &r->snd;

	pthread_mutex_lock(&sd->mu);
	for (;;) {
		while (!sd->busy && !sd->quit)
			pthread_cond_wait(&sd->cv, &sd->mu);
		if (!sd->busy)
			break;
		pthread_mutex_unlock(&sd->mu);
		/* the main thread leaves the connection, url and resp alone while busy */
		sd->rc = ch_post(r, ch_shard(r), sd->insert, sd->job.p, sd->job.len, sd->table,
				    &sd->err);
		pthread_mutex_lock(&sd->mu);
		sd->busy = 0;
		pthread_cond_broadcast(&sd->cv);
	}
	pthread_mutex_unlock(&sd->mu);
	return NULL;
}

/* Wait for the batch in flight; its error, if it failed. */
int ch_sender_wait(struct engine_run *r, struct tb_err *err)
{
	struct sender *sd = &r->snd;
	int rc;

	if (!sd->started)
		return 0;
	pthread_mutex_lock(&sd->mu);
	while (sd->busy)
		pthread_cond_wait(&sd->cv, &sd->mu);
	rc = sd->rc;
	sd->rc = 0;
	pthread_mutex_unlock(&sd->mu);
	if (rc)
		*err = sd->err;
	return rc;
}

void ch_sender_stop(struct engine_run *r)
{
	struct sender *sd = &r->snd;

	if (!sd->started)
		return;
	pthread_mutex_lock(&sd->mu);
	while (sd->busy)
		pthread_cond_wait(&sd->cv, &sd->mu);
	sd->quit = 1;
	pthread_cond_broadcast(&sd->cv);
	pthread_mutex_unlock(&sd->mu);
	pthread_join(sd->th, NULL);
	pthread_mutex_destroy(&sd->mu);
	pthread_cond_destroy(&sd->cv);
	bb_free(&sd->job);
	sd->started = 0;
}

/* Hand @rows to the sender thread (after the batch before it went through),
 * swapping buffers: @rows comes back empty; sent here when no thread starts. */
int ch_send(struct engine_run *r, struct bytebuf *rows, const char *insert, const char *table,
	    struct tb_err *err)
{
	struct sender *sd = &r->snd;
	struct bytebuf swap;
	int rc;

	if (!sd->started) {
		pthread_mutex_init(&sd->mu, NULL);
		pthread_cond_init(&sd->cv, NULL);
		if (pthread_create(&sd->th, NULL, sender_main, r)) {
			/* no thread: send it here */
			rc = ch_post(r, ch_shard(r), insert, rows->p, rows->len, table, err);
			rows->len = 0;
			return rc;
		}
		sd->started = 1;
	}
	if ((rc = ch_sender_wait(r, err)))
		return rc;
	swap = sd->job;
	sd->job = *rows;
	*rows = swap;
	rows->len = 0;
	pthread_mutex_lock(&sd->mu);
	sd->insert = insert;
	sd->table = table;
	sd->busy = 1;
	pthread_cond_signal(&sd->cv);
	pthread_mutex_unlock(&sd->mu);
	return 0;
}
