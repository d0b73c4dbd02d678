/* export_ch.h - what the ClickHouse exporter's two files share: the run, its tables and requests. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EXPORT_CH_H
#define EXPORT_CH_H

#include <pthread.h>
#include "export/export_core.h"
#include "util/http.h"

struct ch_server {
	struct http_conn http;
	char *name;                 /* "host:port", for messages */
};

/* One column of the batch being built, in ClickHouse's Native form: its
 * values (an array's elements) and, for an array, each row's end. */
struct ch_col {
	struct bytebuf data;
	struct bytebuf ends;        /* Array: UInt64 element counts so far, per row */
	uint64_t nr_elems;
	struct bytebuf head;        /* its name and type, as a Native block gives them */
};

struct ch_table {
	struct ch_col *cols;        /* the columns, in the table's order */
	int nr_cols;
	size_t nr_rows, nr_bytes;   /* in the batch */
	uint64_t last_time;         /* the batch's last row's common_time */
	struct bytebuf rows;        /* the batch as one Native block, at flush */
	char *insert;               /* the INSERT's request target */
};

/* The batch in flight: a thread sends it while the next one is built. */
struct sender {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int started, busy, quit;
	struct bytebuf job;         /* the Native block being sent */
	const char *insert, *table;
	int rc;                     /* the last batch's result, with err */
	struct tb_err err;
};

struct engine_run {
	struct ex_run x;
	struct sender snd;
	struct ch_server *srv;
	int nr_srv;
	char *db;                   /* where queries go: the Distributed tables when sharded */
	char *local;                /* where the data lies on each server (== db for one server) */
	char *cluster;              /* remote_servers name (sharded) */
	int opened;
	int broken;                 /* a server failed: no recording row, nothing more sent */
	struct bytebuf sql, url;
	struct ex_table samples;    /* the samples table: not a format's, target samples_rows */
	struct ch_table samples_rows;
	struct http_resp resp;
	struct ex_have have;       /* the columns of the table being set up */
};

/* ClickHouse's LEB128 length (RowBinary strings, Native arrays) */
static inline void put_len(struct bytebuf *b, uint64_t n)
{
	unsigned char v[10];
	size_t k = 0;

	do {
		v[k] = (unsigned char)(n & 0x7f);
		n >>= 7;
		if (n)
			v[k] |= 0x80;
		k++;
	} while (n);
	bb_put(b, v, k);
}

/* requests (export_ch_request.c) */
/** ch_shard - the server the recording id picks */
int ch_shard(const struct engine_run *r);
/** ch_post - POST @body to server @s with @sql in the URL, an answer of at
 * most HTTP_BODY_ANSWER bytes; on failure one line in @err: server, @table,
 * ClickHouse's own text */
int ch_post(struct engine_run *r, int s, const char *sql, const void *body, size_t len,
	    const char *table, struct tb_err *err);
/** ch_query - run @sql (in the body) on server @s, after the batch in
 * flight; its answer at most HTTP_BODY_LIST bytes for a SELECT, else
 * HTTP_BODY_ANSWER */
int ch_query(struct engine_run *r, int s, const char *sql, const char *table,
	     struct tb_err *err);
void ch_sql_cat(struct engine_run *r, const char *s);
const char *ch_sql_done(struct engine_run *r);
/** ch_send - hand @rows (INSERT @insert into @table) to the sender thread,
 * swapping buffers (@rows comes back empty); ch_sender_wait - the batch in
 * flight is in, its error if it failed; ch_sender_stop - the thread ends */
int ch_send(struct engine_run *r, struct bytebuf *rows, const char *insert, const char *table,
	    struct tb_err *err);
int ch_sender_wait(struct engine_run *r, struct tb_err *err);
void ch_sender_stop(struct engine_run *r);

/* the schema (export_ch_schema.c) */
int ch_open_target(struct engine_run *r, struct tb_err *err);
int ch_table_ready(struct engine_run *r, struct ex_table *t, struct tb_err *err);
void ch_cols_free(struct ch_table *xt);

#endif
