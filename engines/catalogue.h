/* catalogue.h - the canned scripts (scripts/LANG/bin/NAME-record|-report and
 * scripts/LANG/NAME.EXT) and LANG:NAME, resolved in one place for every applet. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CATALOGUE_H
#define CATALOGUE_H

#include <stddef.h>
#include "engine.h"

enum cat_half { CAT_RECORD, CAT_REPORT };

/* One canned script's half, found. */
struct cat_script {
	const struct engine_ops *lang;
	char *descriptor;          /* DIR/LANG/bin/NAME-record or NAME-report */
	char *script;              /* DIR/LANG/NAME.EXT (the report half's script) */
};

/* One line of the list. */
struct cat_entry {
	char *name;                /* NAME, or LANG:NAME when an earlier language has NAME */
	char *args, *desc;         /* the descriptor's "# args:" and "# description:" */
	const struct engine_ops *lang;
};

/**
 * cat_lang - the language a "LANG:REST" spec names: LANG is an engine's name
 * or alias in any case (Python, python, py, Perl, pl). Returns the engine
 * with *@rest after the colon, or NULL with *@rest = @spec when the spec
 * names none.
 */
const struct engine_ops *cat_lang(const char *spec, const char **rest);

/**
 * cat_find - canned script @spec ("NAME" or "LANG:NAME") in the script
 * tree @dir (NULL: none on disk), else in the binary's payload (paths
 * "<tracebox>/scripts/...", payload.h): its @half, from the first language
 * (registry order) that has it, or from LANG only.
 * Returns 0 with @out filled (cat_script_free), -1 when there is no such
 * script, or TB_ERR_NOMEM.
 */
int cat_find(const char *dir, const char *spec, enum cat_half half, struct cat_script *out);
void cat_script_free(struct cat_script *s);

/**
 * cat_record_words - the words of a record half that is only
 * `exec trace-record WORD... "$@"` (comments and blank lines aside; each
 * WORD plain: letters, digits and _:.,=/+-@%), which an applet may run
 * without a shell (a board may have none, or no trace-record link).
 * Returns the number of WORDs with *@words (free it; they point into @text,
 * which it edits), -1 when the text is anything else, TB_ERR_NOMEM.
 */
int cat_record_words(char *text, char ***words);

/**
 * cat_list - every canned script of @dir (NULL: none) and of the payload
 * with a report half, sorted by name, as 'perf script -l' lists them; a
 * script in both is listed once, described by @dir's descriptor.
 * Returns 0 with *@out, *@nr (cat_list_free), or TB_ERR_NOMEM.
 */
int cat_list(const char *dir, struct cat_entry **out, size_t *nr);
void cat_list_free(struct cat_entry *e, size_t nr);

#endif
