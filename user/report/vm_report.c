// SPDX-License-Identifier: GPL-2.0
/* What ppbench vm prints of the guest and of its own progress (vm_report.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "report/vm_report.h"
#include "sys/log.h"
#include "sys/progress.h"
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

static const char *words_of(const char *phase)
{
	for (size_t i = 0; i < ARRAY_SIZE(phases); i++)
		if (!strcmp(phases[i].phase, phase))
			return phases[i].words;
	return phase;
}

void vm_report_tick(struct vm_progress *p)
{
	if (!p->on || !p->phase[0] || !p->at_bol[1] || !p->at_bol[2])
		return;
	progress_show(p->t0, "vm: %s %s (%.0f s)", words_of(p->phase), p->text,
		      (now_ns() - p->phase_t) / 1e9);
	p->shown = true;
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
}

void vm_report_output(struct vm_progress *p, int fd, const char *buf, size_t len)
{
	FILE *f = fd == 2 ? stderr : stdout;

	if (!len)
		return;
	clear(p);
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
	pr_err("%s\n", text);
}

void vm_report_done(struct vm_progress *p)
{
	clear(p);
}
