// SPDX-License-Identifier: GPL-2.0
/* One hook around what ppbench times (instrument.h). */
#include <stdbool.h>
#include <stddef.h>
#include "instr/instrument.h"

static struct instrument *instruments;

void instr_add(struct instrument *in)
{
	struct instrument **p = &instruments;

	while (*p && *p != in)
		p = &(*p)->next;
	if (*p)
		return;
	in->next = NULL;
	*p = in;
}

void instr_remove(struct instrument *in)
{
	for (struct instrument **p = &instruments; *p; p = &(*p)->next)
		if (*p == in) {
			*p = in->next;
			return;
		}
}

static bool takes(const struct instrument *in, enum instr_span span)
{
	return in->spans & (1u << span);
}

/* The first N instruments from IN that take W's span, ended last to first. */
static int end_from(struct instrument *in, int n, const struct instr_window *w, uint64_t elems,
		    int err)
{
	int later, own;

	while (in && !takes(in, w->span))
		in = in->next;
	if (!in || !n)
		return err;
	later = end_from(in->next, n - 1, w, elems, err);
	own = in->end ? in->end(in, w->span, elems, err) : 0;
	return later ?: own;
}

int instr_begin(struct instr_window *w)
{
	int err = 0;

	w->begun = 0;
	for (struct instrument *in = instruments; in && !err; in = in->next) {
		if (!takes(in, w->span))
			continue;
		err = in->begin ? in->begin(in, w->span) : 0;
		w->begun += !err;
	}
	if (err) {
		end_from(instruments, w->begun, w, 0, err);
		w->begun = 0;
	}
	return err;
}

int instr_end(struct instr_window *w, uint64_t elems, int err)
{
	return end_from(instruments, w->begun, w, err ? 0 : elems, err);
}
