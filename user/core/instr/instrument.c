// SPDX-License-Identifier: GPL-2.0
/* One hook around what ppbench times (instrument.h). */
#include <errno.h>
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

int instr_begin(struct instr_window *w)
{
	int err = 0;

	w->n = 0;
	for (struct instrument *in = instruments; in && !err; in = in->next) {
		if (!(in->spans & (1u << w->span)))
			continue;
		err = w->n == INSTR_MAX ? -E2BIG : in->begin ? in->begin(in, w->span) : 0;
		if (!err)
			w->begun[w->n++] = in;
	}
	if (err)
		instr_end(w, 0, err);
	return err;
}

int instr_end(struct instr_window *w, uint64_t elems, int err)
{
	int first = 0;

	while (w->n > 0) {
		struct instrument *in = w->begun[--w->n];
		int ret = in->end ? in->end(in, w->span, err ? 0 : elems, err) : 0;

		first = first ?: ret;
	}
	return err ?: first;
}
