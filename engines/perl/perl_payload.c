/* perl_payload.c - Perl modules and scripts from tracebox's payload
 * (common/util/payload.h): an @INC hook, fed by an XSUB that hands Perl each
 * file as a memfd (the static libperl has no PerlIO::scalar to read a
 * string as a file, and a bare chroot may have no /dev/null for require's
 * line-generator form), and the run of a carried script. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/io.h"
#include "util/payload.h"
#include "perl/perl_int.h"

/* Where a relative require looks, after every folder of @INC on disk. */
static const char *const roots[] = {
	PAYLOAD_ROOT "/scripts/perl/Perf-Trace-Util/lib/",
	PAYLOAD_ROOT "/lib/perl5/",
};

/* A memfd holding @n bytes of @data, at offset 0; -1 on failure. */
static int memfd_of(const unsigned char *data, size_t n)
{
	int fd = memfd_create("tracebox-payload", MFD_CLOEXEC);

	if (fd >= 0 && writen(fd, data, n)) {
		close(fd);
		return -1;
	}
	if (fd >= 0 && lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Tracebox::payload_fd(NAME): a memfd of the payload's NAME ("<tracebox>/..."
 * or a require name such as "strict.pm"), or undef. */
XS(XS_Tracebox_payload_fd);
XS(XS_Tracebox_payload_fd)
{
	dXSARGS;
	const char *name;
	unsigned char *data = NULL;
	size_t len = 0;
	int fd = -1;

	if (items != 1)
		Perl_croak(aTHX_ "Usage: Tracebox::payload_fd(name)");
	name = SvPV_nolen(ST(0));
	if (payload_is(name)) {
		if (payload_read(name, &data, &len))
			data = NULL;
	} else if (name[0] != '/' && strncmp(name, "./", 2) && strncmp(name, "../", 3)) {
		for (size_t i = 0; !data && i < sizeof(roots) / sizeof(roots[0]); i++) {
			char *p;

			if (asprintf(&p, "%s%s", roots[i], name) < 0)
				break;
			if (payload_read(p, &data, &len))
				data = NULL;
			free(p);
		}
	}
	if (data)
		fd = memfd_of(data, len);
	free(data);
	if (fd < 0)
		XSRETURN_UNDEF;
	XSRETURN_IV(fd);
}

void perl_payload_xs(pTHX)
{
	newXS("Tracebox::payload_fd", XS_Tracebox_payload_fd, __FILE__);
}

static const char hook[] =
	"push @INC, sub {\n"
	"    my $fd = Tracebox::payload_fd($_[1]);\n"
	"    return unless defined $fd;\n"
	"    open(my $fh, '<&=', $fd) or return;\n"
	"    return $fh;\n"
	"};\n"
	"1;\n";

int perl_payload_boot(void)
{
	return memfd_of((const unsigned char *)hook, sizeof(hook) - 1);
}

int perl_payload_hook(pTHX)
{
	eval_pv(hook, G_DISCARD);
	return SvTRUE(ERRSV) ? -1 : 0;
}

int perl_payload_run(pTHX_ const char *path)
{
	unsigned char *text;
	size_t len;
	SV *code;

	if (payload_read(path, &text, &len))
		return -1;
	/* as do FILE: package main, no enclosing lexicals, the file's name */
	code = newSVpvf("package main;\n#line 1 \"%s\"\n", path);
	sv_catpvn(code, (const char *)text, len);
	free(text);
	eval_sv(code, G_DISCARD | G_EVAL);
	SvREFCNT_dec(code);
	return 0;
}
