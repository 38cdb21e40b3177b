// SPDX-License-Identifier: GPL-2.0
/* vm's printer: what vm_run() reports through its sink reaches the terminal here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vm/vm_report.h"
#include "vm/prof_report.h"
#include "sys/tsc_clock.h"
#include "sys/log.h"
#include "sys/util.h"

static const struct {
	const char *phase, *words;
} phases[] = {
	{ "fetch", "fetching" }, { "build", "building" }, { "pack", "packing" },
	{ "boot", "booting" },	 { "run", "running" },	  { "files", "copying back" },
};

void vm_progress_init(struct vm_progress *p, bool quiet)
{
	memset(p, 0, sizeof(*p));
	p->on = progress_wanted(quiet);
	p->t0 = now_ns();
	p->at_bol[1] = p->at_bol[2] = true;
}

void vm_progress_pair(struct vm_progress *a, struct vm_progress *b, bool quiet, const char *taga,
		      const char *tagb)
{
	vm_progress_init(a, quiet);
	vm_progress_init(b, quiet);
	b->t0 = a->t0;
	a->tag = taga;
	b->tag = tagb;
	a->peer = b;
	b->peer = a;
}

static const char *words_of(const char *phase)
{
	for (size_t i = 0; i < ARRAY_SIZE(phases); i++)
		if (!strcmp(phases[i].phase, phase))
			return phases[i].words;
	return phase;
}

/* "a: booting 7.3.4+deb13-amd64, 1 CPU(s) (3 s)", "a: done" */
static void pair_part(const struct vm_progress *p, char *buf, size_t len)
{
	if (!p->phase[0])
		snprintf(buf, len, "%s: starting", p->tag);
	else if (!strcmp(p->phase, "done"))
		snprintf(buf, len, "%s: done", p->tag);
	else
		snprintf(buf, len, "%s: %s %.28s (%.0f s)", p->tag, words_of(p->phase), p->text,
			 (now_ns() - p->phase_t) / 1e9);
}

static void vm_report_tick(void *ctx)
{
	struct vm_progress *p = ctx;
	char a[96], b[96];

	if (!p->on || !p->phase[0] || !p->at_bol[1] || !p->at_bol[2])
		return;
	if (!p->peer) {
		progress_show(p->t0, "vm: %s %s (%.0f s)", words_of(p->phase), p->text,
			      (now_ns() - p->phase_t) / 1e9);
		p->shown = true;
		return;
	}
	pair_part(p->tag[0] < p->peer->tag[0] ? p : p->peer, a, sizeof(a));
	pair_part(p->tag[0] < p->peer->tag[0] ? p->peer : p, b, sizeof(b));
	progress_show(p->t0, "vm: %s | %s", a, b);
	p->shown = p->peer->shown = true;
}

static void vm_report_phase(void *ctx, const char *phase, const char *text)
{
	struct vm_progress *p = ctx;
	snprintf(p->phase, sizeof(p->phase), "%s", phase);
	snprintf(p->text, sizeof(p->text), "%s", text);
	p->phase_t = now_ns();
	if (!p->on)
		pr_debug("vm: %s %s\n", words_of(phase), text);
	vm_report_tick(p);
}

static void clear(struct vm_progress *p)
{
	if (p->shown)
		progress_clear();
	p->shown = false;
	if (p->peer)
		p->peer->shown = false;
}

/* A guest of two: whole lines only, each after its guest's name. */
static void tagged_output(struct vm_progress *p, int fd, const char *buf, size_t len)
{
	FILE *f = fd == 2 ? stderr : stdout;
	char *part = p->part[fd];
	size_t *n = &p->npart[fd];

	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n' && *n < sizeof(p->part[fd]) - 1) {
			part[(*n)++] = buf[i];
			continue;
		}
		fprintf(f, "[%s] %.*s\n", p->tag, (int)*n, part);
		*n = 0;
		if (buf[i] != '\n')
			part[(*n)++] = buf[i];
	}
	fflush(f);
}

static void vm_report_output(void *ctx, int fd, const char *buf, size_t len)
{
	struct vm_progress *p = ctx;
	FILE *f = fd == 2 ? stderr : stdout;

	if (!len)
		return;
	clear(p);
	if (p->tag) {
		tagged_output(p, fd == 2 ? 2 : 1, buf, len);
		return;
	}
	fwrite(buf, 1, len, f);
	fflush(f);
	p->at_bol[fd == 2 ? 2 : 1] = buf[len - 1] == '\n';
}

static void vm_report_info(void *p, const char *text)
{
	if (log_level < LOG_DEBUG)
		return;
	clear(p);
	pr_debug("vm: %s\n", text);
}

static void vm_report_error(void *ctx, const char *text)
{
	struct vm_progress *p = ctx;
	clear(p);
	if (p->tag)
		pr_err("%s: %s\n", p->tag, text);
	else
		pr_err("%s\n", text);
}

static void vm_report_done(void *ctx)
{
	struct vm_progress *p = ctx;
	clear(p);
	for (int fd = 1; p->tag && fd <= 2; fd++)
		if (p->npart[fd])
			tagged_output(p, fd, "\n", 1);
	snprintf(p->phase, sizeof(p->phase), "done");
}

/* The profiles into the result file (whole, or left as it was), then shown. */
static int show_profile(void *p, const struct vm_profiles *v)
{
	const char *tag;
	char pfx[32];
	int merged = 0;

	if (v->stream && v->json && prof_stream_append(v->json, v->p, v->n, v->c))
		return EXIT_FAIL;
	if (v->doc) {
		merged = prof_result_merge(v->json, v->text, v->len, v->doc, v->p, v->n, v->c);
		if (merged < 0)
			return EXIT_FAIL;
		if (!merged)
			pr_warn("--profile: %s has no scenario or recipe the profiles name: it "
				"stays as it was\n",
				v->json);
	}
	if (v->json && prof_folded_write(v->json, v->p, v->n))
		return EXIT_FAIL;
	/*
	 * Two guests side by side: compare's profile diff says it for both; each
	 * side's upstream module against its scenarios is its own.
	 */
	tag = ((struct vm_progress *)p)->tag;
	if (!tag) {
		prof_report_all(stdout, v->p, v->n, v->doc);
	} else {
		snprintf(pfx, sizeof(pfx), "[%s] ", tag);
		prof_report_gaps(stdout, v->p, v->n, pfx);
	}
	return EXIT_OK;
}

struct vm_sink vm_report_sink(struct vm_progress *p)
{
	return (struct vm_sink){ .ctx = p,
				 .phase = vm_report_phase,
				 .tick = vm_report_tick,
				 .output = vm_report_output,
				 .info = vm_report_info,
				 .error = vm_report_error,
				 .done = vm_report_done,
				 .profile = show_profile };
}
