// SPDX-License-Identifier: GPL-2.0
/* ppbench report: the mail, head to table (the profile rows: mail_profile.c; reproduce:
 * mail_reproduce.c).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare_report.h"
#include "export/export_formats.h"
#include "report/mail.h"
#include "report/report.h"
#include "sys/cpufeat.h"
#include "sys/log.h"

static const enum xfig_kind xkind[] = {
	[FIG_CYCLES] = XFIG_CYCLES, [FIG_NS] = XFIG_NS,		[FIG_PATH] = XFIG_PATH,
	[FIG_PPATH] = XFIG_PPATH,   [FIG_PURITY] = XFIG_PURITY, [FIG_CPU] = XFIG_CYCLES,
};

const char *mail_stat(const struct row *r, const char *unit, char *buf, size_t len)
{
	char scn[64], cpu[80] = "", role[48], fig[96];

	xfig_key_part(r->scenario, scn, sizeof(scn));
	if (r->cpu)
		snprintf(cpu, sizeof(cpu), "cpu%u%s%s.", r->cpu->cpu, *r->cpu->role ? "_" : "",
			 xfig_key_part(r->cpu->role, role, sizeof(role)));
	xfig_name(xkind[r->kind], unit, r->method, '_', fig, sizeof(fig));
	snprintf(buf, len, "ppbench.%s.%s%s", scn, cpu, fig);
	return buf;
}

const char *mail_word(const struct row *r)
{
	if (!r->real)
		return "change";
	return r->regression ? "regression" : "improvement";
}

void mail_subject(char *buf, size_t len, const char *id, const char *subject, const char *stat,
		  double change, const char *word)
{
	char area[40] = "";

	if (subject)
		mail_area(subject, area, sizeof(area));
	snprintf(buf, len, "[ppbench]%s%s%s %s: %s %+.1f%% %s", *area ? " [" : "", area,
		 *area ? "]" : "", id, stat, change, word);
}

/* The first column's figure of METRIC that changed most, a real change before any other. */
static const struct row *headline(const struct comparison *c, enum fig metric)
{
	const struct row *best = NULL;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];

		if (r->kind != metric || r->repeats || r->other_method || !isfinite(r->change))
			continue;
		if (!best || r->real > best->real ||
		    (r->real == best->real && fabs(r->change) > fabs(best->change)))
			best = r;
	}
	return best;
}

int mail_build(struct mail *m)
{
	struct cmp_set *set = &m->cf->set;
	const char *unit = result_clock_of(m->cf->files)->unit;

	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->cmps[i].nrows; k++)
			mail_stat(&set->cmps[i].rows[k], unit, set->cmps[i].rows[k].label,
				  sizeof(set->cmps[i].rows[k].label));
	m->head = headline(&set->cmps[0], m->metric);
	if (!m->head) {
		pr_err("%s and %s have no %s figure of one scenario: nothing to report\n",
		       m->cf->files[0].path, m->cf->files[1].path, fig_name(m->metric));
		return -EINVAL;
	}
	if (col_table_build(set, &m->t))
		return -ENOMEM;
	for (size_t i = 0; i < m->in->n && m->in->kind == MAIL_BISECT; i++)
		snprintf(m->t.names[i], COL_NAME_LEN, "%.*s", MAIL_HASH_SHORT,
			 !i && m->in->base_baseline ? "baseline" : m->in->commit[i].hash);
	return 0;
}

/* Prose: wrapped at MAIL_WIDTH, then an empty line. */
static void para(FILE *f, const char *text)
{
	fprint_wrapped_at(f, "", text, MAIL_WIDTH);
	fprintf(f, "\n");
}

/* "ppbench noticed a +2.0% regression of ppbench.slow.instructions_per_elem on:" */
static void opening(FILE *f, const struct mail *m, const char *stat)
{
	const struct mail_commit *c = &m->in->commit[1];
	const struct result *col = &m->cf->files[1];
	char line[400];

	snprintf(line, sizeof(line), "ppbench noticed a %+.1f%% %s of %s on:", m->head->change,
		 mail_word(m->head), stat);
	para(f, "Hello,");
	para(f, line);
	if (*c->hash)
		fprintf(f, "commit: %s (\"%s\")\n", c->hash, c->subject);
	else
		fprintf(f, "kernel: %s\n", col->host.kernel);
	fprintf(f, "\n");
	if (!m->head->real)
		para(f, "No figure of the first column changed for real (compare's * mark): this "
			"is the largest change, within what the files' noise allows.");
}

static void subject(FILE *f, const struct mail *m, const char *stat)
{
	const struct mail_commit *c = &m->in->commit[1];
	char id[COL_NAME_LEN], line[512];

	snprintf(id, sizeof(id), "%.*s", *c->hash ? MAIL_HASH_SHORT : COL_NAME_LEN,
		 *c->hash ? c->hash : m->t.names[1]);
	mail_subject(line, sizeof(line), id, *c->hash ? c->subject : NULL, stat, m->head->change,
		     mail_word(m->head));
	fprintf(f, m->md ? "**Subject:** %s\n\n" : "Subject: %s\n\n", line);
}

static const char *const param_names[] = { "batch",  "clock", "config", "cpu",	  "cpus",
					   "kernel", "loops", "qemu",	"repeat", "scenario" };
enum { P_BATCH, P_CLOCK, P_CONFIG, P_CPU, P_CPUS, P_KERNEL, P_LOOPS, P_QEMU, P_REPEAT, P_SCN };

/* Each ok scenario's value of WHICH, joined by ','; one value when all agree. */
static void per_scenario(const struct result *r, int which, char *buf, size_t len)
{
	size_t n = 0;
	bool same = true;
	char first[64] = "";

	buf[0] = 0;
	for (size_t i = 0; i < r->nr_sc && n < len; i++) {
		const struct result_scenario *sc = &r->sc[i];
		char v[64];

		if (!sc->ok)
			continue;
		if (which == P_SCN)
			snprintf(v, sizeof(v), "%s", sc->name);
		else
			snprintf(v, sizeof(v), "%llu",
				 (unsigned long long)(which == P_LOOPS	 ? sc->loops
						      : which == P_BATCH ? sc->batch
									 : sc->repeat));
		same &= !*first || !strcmp(first, v);
		if (!*first)
			snprintf(first, sizeof(first), "%s", v);
		n += snprintf(buf + n, len - n, "%s%s", n ? "," : "", v);
	}
	if (same && which != P_SCN)
		snprintf(buf, len, "%s", first);
}

/* A parameter's value in R, in BUF ("" where R has none), '/' and spaces as '_'. */
static void param(const struct result *r, int which, char *buf, size_t len)
{
	const struct result_clock *c = result_clock_of(r);
	char *cfg;

	buf[0] = 0;
	switch (which) {
	case P_CLOCK:
		snprintf(buf, len, "%s", c->kind);
		break;
	case P_CONFIG: /* a digest of the options bench records: the same digest, the same */
		cfg = r->host.config ? json_dumps(r->host.config, JSON_SORT_KEYS | JSON_COMPACT)
				     : NULL;
		if (cfg)
			cpu_feat_digest(cfg, buf, len);
		buf[len > 8 ? 8 : 0] = 0;
		free(cfg);
		break;
	case P_CPU: /* what TSC cycles count depends on; the instruction clock's, not */
		if (!strcmp(c->unit, "cycles"))
			snprintf(buf, len, "%s", r->host.cpu_model);
		break;
	case P_CPUS:
		snprintf(buf, len, "%llu", (unsigned long long)r->host.nr_cpus);
		break;
	case P_KERNEL:
		snprintf(buf, len, "%s", r->host.kernel);
		break;
	case P_QEMU:
		snprintf(buf, len, "%s", c->qemu_version ? c->qemu_version : "");
		break;
	default:
		per_scenario(r, which, buf, len);
	}
	for (char *p = buf; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
}

/* LKP's parameter line: the names, '/' between, a colon, then the values: those all files share. */
static void params(FILE *f, const struct mail *m)
{
	char names[256] = "", values[1024] = "", v[256], w[256];
	size_t nn = 0, nv = 0;

	for (int p = 0; p <= P_SCN; p++) {
		bool same = true;

		param(&m->cf->files[0], p, v, sizeof(v));
		for (size_t i = 1; i < m->cf->n && same; i++) {
			param(&m->cf->files[i], p, w, sizeof(w));
			same = !strcmp(v, w);
		}
		if (!same || !*v)
			continue;
		nn += snprintf(names + nn, sizeof(names) - nn, "%s%s", nn ? "/" : "",
			       param_names[p]);
		nv += snprintf(values + nv, sizeof(values) - nv, "%s%s", nv ? "/" : "", v);
	}
	fprintf(f, "%s: %s\n\n", names, values);
}

/* The commits (or kernels) compared, the base first, and what else differs from the base. */
static void compared(FILE *f, const struct mail *m)
{
	const struct mail_in *in = m->in;

	fprintf(f, "%s:\n", *in->commit[1].hash ? "commit" : "kernel");
	for (size_t i = 0; i < in->n; i++) {
		const struct mail_commit *c = &in->commit[i];
		const struct result *r = &m->cf->files[i];

		if (!i && in->base_baseline)
			fprintf(f, "  baseline (%s, kernel %s): the parent %.*s has no step\n",
				r->path, r->host.kernel, MAIL_HASH_SHORT, c->hash);
		else if (*c->hash)
			fprintf(f, "  %.*s (\"%s\")\n", MAIL_HASH_SHORT, c->hash, c->subject);
		else if (!strcmp(m->t.names[i], r->host.kernel))
			fprintf(f, "  %s (%s)\n", r->host.kernel, r->path);
		else
			fprintf(f, "  %s (%s, kernel %s)\n", m->t.names[i], r->path,
				r->host.kernel);
	}
	for (size_t i = 0, n = 0; i < m->cf->set.n; i++)
		for (size_t k = 0; k < m->cf->set.cmps[i].ndiffs; k++) {
			const struct diff *d = &m->cf->set.cmps[i].diffs[k];

			if (strcmp(d->what, "kernel"))
				fprintf(f, "%s  %s: %s: %s -> %s\n",
					n++ ? "" : "\nwhat else differs from the base:\n",
					m->t.names[i + 1], d->what, d->old, d->new);
		}
}

void mail_write(FILE *f, const struct mail *m)
{
	const char *unit = result_clock_of(m->cf->files)->unit;
	char stat[96];

	mail_stat(m->head, unit, stat, sizeof(stat));
	subject(f, m, stat);
	opening(f, m, stat);
	para(f, "Details are as below:");
	fprintf(f, "%s%.*s\n", m->md ? "```text\n" : "", MAIL_WIDTH,
		"===================================================================="
		"====================");
	params(f, m);
	compared(f, m);
	fprintf(f, "%s", m->md ? "```\n" : "");
	compare_print_table(f, &m->t, m->md);
	fprintf(f, "\n");
	para(f, m->md ? "The changes are marked as compare marks them (ppbench-compare(8)): bold "
			"a real change, significant and at least the floor; *(floor)* "
			"significant, below the floor; *(unstable)* a file's setups on two "
			"levels."
		      : "The marks are compare's (ppbench-compare(8)): * a real change, "
			"significant and at least the floor; ~ significant, below the floor; ? "
			"not tested (one value a side); u a file's setups on two levels.");
	mail_profile(f, m);
	mail_reproduce(f, m);
	if (!m->natt)
		return;
	fprintf(f, m->md ? "#### Attachments (in `%s`)\n\n" : "Attachments (in %s):\n\n",
		m->outdir);
	for (size_t i = 0; i < m->natt; i++)
		fprintf(f, m->md ? "- `%s`\n" : "  %s\n", m->att[i]);
}
