/* test_ch_url.c - the clickhouse:// URL (engines/export/export_ch_url.c):
 * userinfo split at the authority's last '@' and percent-decoded (RFC 3986
 * section 3.2), every part that reaches SQL checked, and the form messages
 * show, which never holds a piece of the password. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "unit.h"
#include "export/export_ch_url.h"

static struct ch_url u;
static struct tb_err err;

static int parse(const char *url)
{
	ch_url_free(&u);
	memset(&err, 0, sizeof(err));
	return ch_url_parse(url, &u, &err);
}

static const char *shown(const char *url)
{
	static char out[512];
	char *s = ch_url_shown(url);

	snprintf(out, sizeof(out), "%s", s ? s : "OOM");
	free(s);
	return out;
}

static void test_userinfo(void)
{
	T_EQ(parse("clickhouse://u:p%40ss@h1:9000,h2/db?cluster=c_1"), 0, "a full URL parses");
	T_STR(u.user, "u", "the user");
	T_STR(u.pass, "p@ss", "%%40 is '@' in the password");
	T_EQ(u.nr_hosts, 2, "two servers");
	T_STR(u.host[0], "h1", "the first host");
	T_STR(u.port[0], "9000", "its port");
	T_STR(u.host[1], "h2", "the second host");
	T_STR(u.port[1], "8123", "8123 when no port is given");
	T_STR(u.db, "db", "the database");
	T_STR(u.cluster, "c_1", "the cluster");
	T_EQ(parse("clickhouse://tb:Qz7q@Kx9k:Vw@127.0.0.1/db"), 0, "raw '@' in the password");
	T_STR(u.user, "tb", "the user ends at the first ':'");
	T_STR(u.pass, "Qz7q@Kx9k:Vw", "the password ends at the last '@'");
	T_STR(u.host[0], "127.0.0.1", "the host after the last '@' (not the password's tail)");
	T_EQ(parse("clickhouse://%74b:a%2Fb%3Ac@h/db"), 0, "every part percent-encoded");
	T_STR(u.user, "tb", "the user decoded");
	T_STR(u.pass, "a/b:c", "%%2F and %%3A decoded");
	T_EQ(parse("clickhouse://tb@h/db"), 0, "a user without a password");
	T(u.pass == NULL, "no password: NULL");
	T_EQ(parse("clickhouse://tb:@h/db"), 0, "an empty password");
	T_STR(u.pass, "", "... is empty, not NULL");
	T_EQ(parse("clickhouse://h/db"), 0, "no userinfo");
	T(!u.user && !u.pass, "no user, no password");
	T_STR(u.cluster, "tracebox", "the cluster by default");
	T_EQ(parse("clickhouse://h/default"), 0, "default is allowed");
}

/* @url is refused, @err saying @why and no piece of @secret */
static void refused(const char *url, const char *why, const char *secret)
{
	int rc = parse(url);

	T(rc != 0 && strstr(err.msg, why), "%s refused: %s", url, err.msg);
	if (secret)
		T(!strstr(err.msg, secret), "... the message holds no '%s'", secret);
}

static void test_refused(void)
{
	refused("clickhouse://h1,h2/inj?cluster=tracebox, system, one, rand()) --",
		"URL parameter cluster: 'tracebox, system, one, rand()) --' is no name", NULL);
	refused("clickhouse://h/db?cluster=a`b", "is no name", NULL);
	refused("clickhouse://h/db?cluster=", "is no name", NULL);
	refused("clickhouse://h/db?cluster", "is no name", NULL);
	refused("clickhouse://h/db?cluster=a&cluster=b", "cluster given twice", NULL);
	refused("clickhouse://h/db?foo=", "unknown URL parameter 'foo'", NULL);
	refused("clickhouse://h/db?cluster=a&foo", "unknown URL parameter 'foo'", NULL);
	refused("clickhouse://h/system", "database 'system' is ClickHouse's own", NULL);
	refused("clickhouse://h/SyStEm", "database 'SyStEm' is ClickHouse's own", NULL);
	refused("clickhouse://h/information_schema", "ClickHouse's own", NULL);
	refused("clickhouse://h/INFORMATION_SCHEMA", "ClickHouse's own", NULL);
	refused("clickhouse://h/_temporary_and_external_tables", "ClickHouse's own", NULL);
	refused("clickhouse://h/1db", "database name '1db' is no name", NULL);
	refused("clickhouse://h/d-b", "database name 'd-b'", NULL);
	refused("clickhouse://h/d.b", "database name 'd.b'", NULL);
	refused("clickhouse://h/db#x", "database name 'db#x'", NULL);
	refused("clickhouse://h", "names no database", NULL);
	refused("clickhouse://h/", "names no database", NULL);
	refused("clickhouse://h/?cluster=c", "names no database", NULL);
	refused("clickhouse://h:0/db", "port '0'", NULL);
	refused("clickhouse://h:65536/db", "port '65536'", NULL);
	refused("clickhouse://h:/db", "port ''", NULL);
	refused("clickhouse://h:80a/db", "port '80a'", NULL);
	T_EQ(parse("clickhouse://h:65535/db"), 0, "port 65535");
	refused("clickhouse://u@/db", "a server with no host", NULL);
	refused("clickhouse://h1,/db", "a server with no host", NULL);
	/* the password's pieces never in the message */
	refused("clickhouse://tb:Qz7q@Kx9k/Vw3v:Jr5j@h/db", "'@' after the host", "Vw3v");
	refused("clickhouse://tb:Qz7q@Kx9k/Vw3v:Jr5j@h/db", "'@' after the host", "Qz7q");
	refused("clickhouse://tb:Qz7q?Kx9k@h/db", "'@' after the host", "Kx9k");
	refused("clickhouse://tb:Qz7q#Kx9k@h/db", "'@' after the host", "Kx9k");
	refused("clickhouse://tb:Qz7q%4Kx9k@h/db", "'%' not followed by two hex digits", "Qz7q");
	refused("clickhouse://tb:Qz7q%@h/db", "'%' not followed by two hex digits", "Qz7q");
	refused("clickhouse://tb:Qz7q%4@h/db", "'%' not followed by two hex digits", "Qz7q");
	refused("clickhouse://tb:Qz7q%zzx@h/db", "'%' not followed by two hex digits", "Qz7q");
	refused("clickhouse://tb:Qz7q%00x@h/db", "'%' not followed by two hex digits", "Qz7q");
	refused("clickhouse://tb:Qz7q%40@h:99999/db", "port '99999' of server h", "Qz7q");
}

static void test_shown(void)
{
	T_STR(shown("clickhouse://u:p%40ss@h/db"), "clickhouse://u@h/db", "the password left out");
	T_STR(shown("clickhouse://tb:Qz7q@Kx9k:Vw@127.0.0.1:8123/db"),
	      "clickhouse://tb@127.0.0.1:8123/db", "up to the last '@'");
	T_STR(shown("clickhouse://tb:Qz7q@Kx9k/Vw3v:Jr5j@h/db"), "clickhouse://tb@h/db",
	      "a raw '/' in the password: all of it left out still");
	T_STR(shown("clickhouse://tb@h:8123/db"), "clickhouse://tb@h:8123/db", "no password: as it is");
	T_STR(shown("clickhouse://h:8123/db"), "clickhouse://h:8123/db", "no userinfo: as it is");
	T_STR(shown("clickhouse:/tb:secret@h/db"), "clickhouse:/tb@h/db", "a typo's password too");
	T_STR(shown("clickhouse://tb:@h/db"), "clickhouse://tb@h/db", "an empty password");
	T_STR(shown(""), "", "the empty string");
	T_STR(shown("@"), "@", "a lone '@'");
}

int main(void)
{
	test_userinfo();
	test_refused();
	test_shown();
	ch_url_free(&u);
	return done();
}
