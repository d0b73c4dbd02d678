/* pic_page.c - what every picture file shares: written through a
 * temporary file renamed into place, and the HTML page around its data,
 * whose Content-Security-Policy lets only the picture's own script run. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pictures/pic_escape.h"
#include "pictures/pictures.h"

FILE *pic_open(const char *path, char **tmp, struct tb_err *err)
{
	FILE *f;
	int fd;

	*tmp = NULL;
	if (!strcmp(path, "-"))
		return stdout;
	if (!(*tmp = malloc(strlen(path) + 16))) {
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		return NULL;
	}
	sprintf(*tmp, "%s.XXXXXX", path);
	if ((fd = mkstemp(*tmp)) < 0 || !(f = fdopen(fd, "w"))) {
		tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	fchmod(fd, 0644);
	return f;
}

int pic_close(FILE *f, const char *path, char *tmp, int failed, struct tb_err *err)
{
	int e = errno, bad = failed || ferror(f);

	if (f == stdout) {
		errno = 0;
		if (!fflush(f) && !bad)
			return 0;
		e = errno ? errno : e ? e : EIO;
		return failed ? 0 : tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s", strerror(e));
	}
	errno = 0;
	if (fclose(f) || bad || rename(tmp, path)) {
		e = errno ? errno : e ? e : EIO;
		unlink(tmp);
		free(tmp);
		return failed ? 0 : tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s", strerror(e));
	}
	free(tmp);
	return 0;
}

void pic_page_begin(FILE *f, const char *title, const char *js_sha, const char *css,
		    const char *css_sha)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n", f);
	fprintf(f, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		"script-src 'sha256-%s'; style-src 'sha256-%s'\">\n<title>", js_sha, css_sha);
	pic_html_text(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head><body>\n"
		"<script type=\"application/json\" id=\"tb-data\">", css);
}

void pic_page_end(FILE *f, const char *js)
{
	fprintf(f, "</script>\n<script>%s</script>\n</body></html>\n", js);
}
