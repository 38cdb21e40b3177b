// SPDX-License-Identifier: GPL-2.0
/* A flame graph's frames from folded stacks (flame.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plot/flame.h"

static size_t add_frame(struct flame *fl, const char *name, size_t len, size_t parent)
{
	struct fframe *f;

	if (fl->n == fl->cap) {
		f = realloc(fl->f, (fl->cap = fl->cap ? 2 * fl->cap : 256) * sizeof(*f));
		if (!f)
			return FLAME_NONE;
		fl->f = f;
	}
	f = &fl->f[fl->n];
	*f = (struct fframe){ .parent = parent, .child = FLAME_NONE, .next = FLAME_NONE };
	f->name = strndup(name, len);
	if (!f->name)
		return FLAME_NONE;
	if (parent != FLAME_NONE) {
		f->depth = fl->f[parent].depth + 1;
		f->next = fl->f[parent].child;
		fl->f[parent].child = fl->n;
		if (f->depth > fl->depth)
			fl->depth = f->depth;
	}
	return fl->n++;
}

int flame_init(struct flame *fl)
{
	*fl = (struct flame){ .scale = { 1, 1 } };
	return add_frame(fl, "all", 3, FLAME_NONE) == FLAME_NONE ? -ENOMEM : 0;
}

void flame_free(struct flame *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->f[i].name);
	free(fl->f);
	*fl = (struct flame){ 0 };
}

/* PARENT's child NAME (LEN bytes), made if new. */
static size_t child_of(struct flame *fl, size_t parent, const char *name, size_t len)
{
	for (size_t c = fl->f[parent].child; c != FLAME_NONE; c = fl->f[c].next)
		if (!strncmp(fl->f[c].name, name, len) && !fl->f[c].name[len])
			return c;
	return add_frame(fl, name, len, parent);
}

int flame_add_line(struct flame *fl, char *line, int side)
{
	char *sp = strrchr(line, ' '), *end;
	size_t at = 0;
	double n;

	if (!line[strspn(line, " \t\r")])
		return 0;
	if (!sp || sp == line)
		return -EINVAL;
	n = strtod(sp + 1, &end);
	if (end == sp + 1 || *end || !isfinite(n) || n < 0)
		return -EINVAL;
	fl->f[0].total[side] += n;
	for (char *p = line; p < sp;) {
		size_t len = strcspn(p, ";");

		if (p + len > sp)
			len = sp - p;
		if (!len)
			return -EINVAL;
		at = child_of(fl, at, p, len);
		if (at == FLAME_NONE)
			return -ENOMEM;
		fl->f[at].total[side] += n;
		p += len + 1;
	}
	fl->f[at].self[side] += n;
	return 0;
}

int flame_add_file(struct flame *fl, const char *path, int side, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, no = 0;
	ssize_t n;
	int ret = 0;

	if (!f) {
		ret = -errno;
		snprintf(err, len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	while (!ret && (n = getline(&line, &cap, f)) >= 0) {
		no++;
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		ret = flame_add_line(fl, line, side);
	}
	if (ret == -EINVAL)
		snprintf(err, len,
			 "%s:%zu: expected 'frame;frame;... count' (a count of 0 or more)", path,
			 no);
	else if (ret)
		snprintf(err, len, "%s: out of memory", path);
	else if (!no)
		snprintf(err, len, "%s: no stacks in it", path);
	free(line);
	fclose(f);
	return ret ?: no ? 0 : -EINVAL;
}

static int by_name(const void *a, const void *b, void *ctx)
{
	const struct fframe *f = ctx;

	return strcmp(f[*(const size_t *)a].name, f[*(const size_t *)b].name);
}

/* Frame I's children relinked in the order of their names, and placed from its x. */
static void place_children(struct flame *fl, size_t i, size_t *ix)
{
	size_t k = 0;
	double x = fl->f[i].x;

	for (size_t c = fl->f[i].child; c != FLAME_NONE; c = fl->f[c].next)
		ix[k++] = c;
	qsort_r(ix, k, sizeof(*ix), by_name, fl->f);
	fl->f[i].child = k ? ix[0] : FLAME_NONE;
	for (size_t j = 0; j < k; j++) {
		fl->f[ix[j]].next = j + 1 < k ? ix[j + 1] : FLAME_NONE;
		fl->f[ix[j]].x = x;
		x += fl->f[ix[j]].total[FLAME_NEW];
	}
}

int flame_layout(struct flame *fl)
{
	size_t *ix = malloc(fl->n * sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	/* (a frame comes after its parent: each is placed before its children) */
	for (size_t i = 0; i < fl->n; i++)
		place_children(fl, i, ix);
	free(ix);
	return 0;
}

double flame_total(const struct flame *fl, size_t i, int side)
{
	return fl->f[i].total[side] * fl->scale[side];
}

double flame_self(const struct flame *fl, size_t i, int side)
{
	return fl->f[i].self[side] * fl->scale[side];
}
