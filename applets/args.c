/* args.c - the shared option parser: short (-i F, -iF), long (--input F, --input=F), --help. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "xfuncs.h"

void args_usage(FILE *fp, const struct applet_help *h)
{
	fprintf(fp, "usage: %s %s\n\n%s\n", h->name, h->usage, h->summary);
	if (!h->opts || h->opts[0].kind == OPT_END)
		return;
	fprintf(fp, "\noptions:\n");
	for (const struct opt *o = h->opts; o->kind != OPT_END; o++) {
		char left[64];
		int n = 0;

		if (o->short_name)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "-%c", o->short_name);
		if (o->long_name)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "%s--%s",
				      o->short_name ? ", " : "", o->long_name);
		if (o->argname)
			snprintf(left + n, sizeof(left) - (size_t)n,
				 o->kind == OPT_OPTSTR ? "[=%s]" : " %s", o->argname);
		fprintf(fp, "  %-24s %s\n", left, o->help);
	}
	fprintf(fp, "  %-24s %s\n", "-h, --help", "show this help");
}

static int store(const struct applet_help *h, const struct opt *o, const char *val,
		 const char *shown)
{
	switch (o->kind) {
	case OPT_FLAG:
		(*(int *)o->dest)++;
		return 0;
	case OPT_STR:
	case OPT_OPTSTR:
		*(const char **)o->dest = val ? val : "";
		return 0;
	case OPT_LIST: {
		struct opt_list *l = o->dest;
		const char **n = realloc(l->items, (size_t)(l->nr + 1) * sizeof(*n));

		if (!n) {
			error_msg("out of memory");
			return -1;
		}
		l->items = n;
		l->items[l->nr++] = val;
		return 0;
	}
	case OPT_UINT: {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(val, &end, 0);
		if (errno || !*val || *end || val[0] == '-') {
			error_msg("option %s wants a number, not '%s'", shown, val);
			return -1;
		}
		*(unsigned long *)o->dest = v;
		return 0;
	}
	default:
		return -1;
	}
}

int args_parse(const struct applet_help *h, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt *o = NULL;
		const char *val = NULL;
		char shown[80];

		if (!strcmp(a, "--"))
			return i + 1;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			args_usage(stdout, h);
			return -2;
		}
		if (a[0] != '-' || a[1] == 0)
			return i;          /* an operand ("-" alone is one too) */
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);

			for (const struct opt *p = h->opts; p && p->kind != OPT_END; p++)
				if (p->long_name && strlen(p->long_name) == len &&
				    !strncmp(p->long_name, a + 2, len))
					o = p;
			snprintf(shown, sizeof(shown), "--%.*s", (int)len, a + 2);
			if (o && eq)
				val = eq + 1;
			if (o && eq && o->kind == OPT_FLAG) {
				error_msg("option %s takes no argument", shown);
				return -1;
			}
		} else {
			for (const struct opt *p = h->opts; p && p->kind != OPT_END; p++)
				if (p->short_name == a[1])
					o = p;
			snprintf(shown, sizeof(shown), "-%c", a[1]);
			if (o && o->kind != OPT_FLAG && o->kind != OPT_OPTSTR && a[2])
				val = a + 2;
			if (o && o->kind == OPT_FLAG && a[2]) {
				error_msg("option %s takes no argument (got '%s')", shown, a);
				return -1;
			}
		}
		if (!o) {
			error_msg("unknown option '%s' (try '%s --help')", a, applet_name);
			return -1;
		}
		if (o->kind != OPT_FLAG && o->kind != OPT_OPTSTR && !val) {
			if (i + 1 >= argc) {
				error_msg("option %s needs an argument", shown);
				return -1;
			}
			val = argv[++i];
		}
		if (store(h, o, val, shown))
			return -1;
	}
	return i;
}
