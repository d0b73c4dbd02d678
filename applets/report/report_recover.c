/* report_recover.c - trace-report --recover F -o G: a killed recording rewritten as a finished one. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "record/pd_recover.h"
#include "report/report_recover.h"
#include "xfuncs.h"

/* Writing over the input would destroy what is being recovered. */
static int same_file(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int report_recover(const char *in, const char *out)
{
	struct pd_recover_stats st;
	struct tb_err err = { 0 };
	struct stat so;
	int ifd, ofd, r, created;

	if (!out || !strcmp(out, "-") || !strcmp(in, "-")) {
		error_msg("--recover reads a file and writes one: %s --recover FILE -o NEW",
			  applet_name);
		return 1;
	}
	if ((ifd = open(in, O_RDONLY | O_CLOEXEC)) < 0) {
		perror_msg("%s", in);
		return 1;
	}
	/* a file this run made goes again on failure; a device never */
	ofd = open(out, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	created = ofd >= 0;
	if (ofd < 0 && errno == EEXIST)
		ofd = open(out, O_RDWR | O_CLOEXEC);
	if (ofd < 0 || same_file(ifd, ofd)) {
		if (ofd < 0)
			perror_msg("%s", out);
		else
			error_msg("%s: is the input: write the recovered file elsewhere", out);
		close(ifd);
		if (ofd >= 0)
			close(ofd);
		return 1;
	}
	if (!fstat(ofd, &so) && S_ISREG(so.st_mode) && ftruncate(ofd, 0)) {
		perror_msg("%s", out);
		r = 1;
	} else if ((r = pd_recover(ifd, ofd, &st, &err))) {
		error_msg_at(st.write_failed || st.readback_failed ? out : in, r, &err);
		if (created)
			unlink(out);
	}
	close(ifd);
	if (close(ofd) && !r) {
		perror_msg("%s", out);
		if (created)
			unlink(out);
		r = 1;
	}
	if (r)
		return 1;
	warn_msg("wrote %s: %llu records (%llu %s) up to offset 0x%llx of %s%s", out,
		 (unsigned long long)st.records,
		 (unsigned long long)(st.compressed ? st.compressed : st.samples),
		 st.compressed ? "compressed" : "samples", (unsigned long long)st.end, in,
		 st.unfinished ? "" : " (it had no unfinished mark)");
	if (st.damage.code)
		warn_msg("stopped at offset 0x%llx of %s: %s; "
			 "left out the %llu bytes from offset 0x%llx on",
			 (unsigned long long)(st.damage.has_offset ? st.damage.offset : st.end), in,
			 st.damage.msg, (unsigned long long)st.cut_bytes,
			 (unsigned long long)st.end);
	else if (st.cut_bytes)
		warn_msg("left out the %llu bytes of a cut record after it",
			 (unsigned long long)st.cut_bytes);
	if (st.dropped)
		warn_msg("left out %llu records of a type perf 6.1 refuses",
			 (unsigned long long)st.dropped);
	if (st.damaged_features)
		warn_msg("left out %llu damaged feature sections (the reader cannot parse them)",
			 (unsigned long long)st.damaged_features);
	if (st.dropped_features)
		warn_msg("left out %llu feature sections of bits perf 6.1 does not know",
			 (unsigned long long)st.dropped_features);
	return 0;
}
