/* export_ch_url.h - the clickhouse:// target's URL: its parts, checked, and its form for messages. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EXPORT_CH_URL_H
#define EXPORT_CH_URL_H

#include "util/tb_err.h"

/* clickhouse://[USER[:PASSWORD]@]HOST[:PORT][,HOST[:PORT]...]/DB[?cluster=NAME] */
struct ch_url {
	char *user, *pass;          /* percent-decoded; NULL: not in the URL */
	char **host, **port;        /* nr_hosts of each; port "8123" when not given */
	int nr_hosts;
	char *db;                   /* a plain name (letters, digits, _), not ClickHouse's own */
	char *cluster;              /* the same ("tracebox" when not given) */
};

/**
 * ch_url_parse - split @url as RFC 3986 splits a URL: the authority ends at
 * the first '/', '?' or '#' after "//"; the userinfo is what comes before
 * its last '@', USER before its first ':', both percent-decoded. The
 * database and every parameter's value must be plain names; an unknown
 * parameter, one given twice, ClickHouse's own databases (system,
 * information_schema in any case) are refused.
 * Returns 0, or TB_ERR_UNSUPPORTED / TB_ERR_NOMEM with @err saying why in
 * words that never hold the password. @u is filled as far as it got:
 * ch_url_free it either way.
 */
int ch_url_parse(const char *url, struct ch_url *u, struct tb_err *err);

/** ch_url_free - free @u's strings (the password's bytes zeroed first) */
void ch_url_free(struct ch_url *u);

/**
 * ch_url_shown - @target as a message may show it: whatever could be a
 * password left out. After the scheme's ':', the text from the first ':'
 * up to the last '@' goes (a superset of what ch_url_parse takes as the
 * password, whatever the URL holds): "clickhouse://u:p%40ss@h/db" gives
 * "clickhouse://u@h/db". malloc'd; NULL: out of memory.
 */
char *ch_url_shown(const char *target);

#endif
