/* test_json.c - the JSON text of trace-report --export json
 * (engines/export/export_core.c): strings escaped as RFC 8259 section 7
 * asks (quote, backslash, control characters; everything else as it is),
 * numbers beyond 2^53 as strings, bytes that are not UTF-8 as U+FFFD. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "unit.h"
#include "util/bytebuf.h"
#include "export/export_core.h"

/* @len bytes of @s as a JSON string, NUL-terminated in a static buffer */
static const char *quoted(const char *s, size_t len)
{
	static char out[256];
	struct bytebuf b = { 0 };

	ex_json_string(&b, s, len);
	snprintf(out, sizeof(out), "%.*s", b.oom ? 3 : (int)b.len, b.oom ? "OOM" : (char *)b.p);
	bb_free(&b);
	return out;
}
#define Q(s) quoted(s, sizeof(s) - 1)

static void test_strings(void)
{
	T_STR(Q("plain"), "\"plain\"", "plain text as it is");
	T_STR(Q(""), "\"\"", "the empty string");
	T_STR(Q("a\\b"), "\"a\\\\b\"", "a backslash doubled");
	T_STR(Q("\\"), "\"\\\\\"", "a lone backslash");
	T_STR(Q("C:\\dir\\x"), "\"C:\\\\dir\\\\x\"", "every backslash");
	T_STR(Q("say \"hi\""), "\"say \\\"hi\\\"\"", "quotes escaped");
	T_STR(Q("\\\""), "\"\\\\\\\"\"", "a backslash then a quote");
	T_STR(Q("tab\there"), "\"tab\\u0009here\"", "a tab as \\u0009");
	T_STR(Q("nl\n"), "\"nl\\u000a\"", "a newline as \\u000a");
	T_STR(Q("\x01\x1f"), "\"\\u0001\\u001f\"", "control characters as \\u00XX");
	T_STR(quoted("a\0b", 3), "\"a\\u0000b\"", "a NUL inside the length as \\u0000");
	T_STR(Q("/ \x7f \xc3\xa9"), "\"/ \x7f \xc3\xa9\"", "slash, DEL and UTF-8 as they are");
}

static void test_numbers(void)
{
	char buf[32];

	buf[ex_json_int(buf, 42, 0)] = 0;
	T_STR(buf, "42", "a small number");
	buf[ex_json_int(buf, (uint64_t)-5, 1)] = 0;
	T_STR(buf, "-5", "a signed negative number");
	buf[ex_json_int(buf, 1ULL << 53, 0)] = 0;
	T_STR(buf, "9007199254740992", "2^53: still a number");
	buf[ex_json_int(buf, (1ULL << 53) + 1, 0)] = 0;
	T_STR(buf, "\"9007199254740993\"", "2^53 + 1: a string of its digits");
	buf[ex_json_int(buf, UINT64_MAX, 0)] = 0;
	T_STR(buf, "\"18446744073709551615\"", "u64 max: a string");
	buf[ex_json_int(buf, (uint64_t)INT64_MIN, 1)] = 0;
	T_STR(buf, "\"-9223372036854775808\"", "s64 min: a string");
}

static void test_utf8(void)
{
	struct ex_run x;
	const char in[] = "w\xffx\xc3\xa9";
	const char *u;
	size_t n;

	memset(&x, 0, sizeof(x));
	u = ex_utf8(&x, (const unsigned char *)"ascii", 5, &n);
	T(u && n == 5 && !memcmp(u, "ascii", 5), "ASCII as it is");
	u = ex_utf8(&x, (const unsigned char *)in, sizeof(in) - 1, &n);
	T(u && n == 7 && !memcmp(u, "w\xef\xbf\xbdx\xc3\xa9", 7),
	  "a byte that is not UTF-8 becomes U+FFFD, valid UTF-8 stays");
	u = ex_utf8(&x, (const unsigned char *)"ab\0cd", 5, &n);
	T(u && n == 2, "up to the first NUL");
	free(x.utf8);
}

int main(void)
{
	test_strings();
	test_numbers();
	test_utf8();
	return done();
}
