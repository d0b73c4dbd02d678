/* pic_escape.c - recording text into HTML and JSON-in-HTML, escaped. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "pictures/pic_escape.h"
#include "pictures/utf8.h"

void pic_html_text(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), k;

	for (size_t i = 0; i < n; i += k ? k : 1) {
		k = utf8_seq(u + i, n - i);
		if (!k || u[i] < 0x20 || u[i] == 0x7f) {
			fputs("\xef\xbf\xbd", f);
			k = 1;
			continue;
		}
		switch (u[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fwrite(s + i, 1, k, f);
		}
	}
}

void pic_json_string(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), k;

	putc('"', f);
	for (size_t i = 0; i < n; i += k ? k : 1) {
		k = utf8_seq(u + i, n - i);
		if (!k)
			fputs("\\ufffd", f);
		else if (k == 3 && u[i] == 0xe2 && u[i + 1] == 0x80 && (u[i + 2] == 0xa8 || u[i + 2] == 0xa9))
			fprintf(f, "\\u%04x", 0x2000 | (u[i + 2] & 0x3f));
		else if (u[i] < 0x20 || u[i] == 0x7f || strchr("<>&", u[i]))
			fprintf(f, "\\u%04x", u[i]);
		else if (u[i] == '"' || u[i] == '\\')
			fprintf(f, "\\%c", u[i]);
		else
			fwrite(s + i, 1, k, f);
	}
	putc('"', f);
}
