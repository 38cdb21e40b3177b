// SPDX-License-Identifier: GPL-2.0
/* What ppbench vm prints of the guest and of its own progress (vm_report.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "vm/vm_report.h"
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

void vm_report_tick(struct vm_progress *p)
{
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

void vm_report_phase(struct vm_progress *p, const char *phase, const char *text)
{
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

void vm_report_output(struct vm_progress *p, int fd, const char *buf, size_t len)
{
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

void vm_report_info(struct vm_progress *p, const char *text)
{
	if (log_level < LOG_DEBUG)
		return;
	clear(p);
	pr_debug("vm: %s\n", text);
}

void vm_report_error(struct vm_progress *p, const char *text)
{
	clear(p);
	if (p->tag)
		pr_err("%s: %s\n", p->tag, text);
	else
		pr_err("%s\n", text);
}

void vm_report_done(struct vm_progress *p)
{
	clear(p);
	for (int fd = 1; p->tag && fd <= 2; fd++)
		if (p->npart[fd])
			tagged_output(p, fd, "\n", 1);
	snprintf(p->phase, sizeof(p->phase), "done");
}
