// SPDX-License-Identifier: GPL-2.0
/* The host environment facts bench records next to its figures. */
#include <ctype.h>
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sys/hostenv.h"
#include "sys/util.h"

#define VIRTIO_BALLOON_F_REPORTING 5

static void balloon(struct hostenv *h)
{
	char feat[256];
	glob_t g;

	if (glob("/sys/bus/virtio/drivers/virtio_balloon/virtio*/features", 0, NULL, &g))
		return;
	/* one character per feature bit, bit 0 first */
	if (read_file_str(g.gl_pathv[0], feat, sizeof(feat)) >= 0 &&
	    strlen(feat) > VIRTIO_BALLOON_F_REPORTING) {
		h->has_balloon = true;
		h->free_page_reporting = feat[VIRTIO_BALLOON_F_REPORTING] == '1';
	}
	globfree(&g);
}

static void reporting_order(struct hostenv *h)
{
	char v[32];

	if (read_file_str("/sys/module/page_reporting/parameters/page_reporting_order", v,
			  sizeof(v)) < 0)
		return;
	h->reporting_order = strtoull(v, NULL, 10);
	h->has_reporting_order = true;
}

/* "cpu  user nice system idle iowait irq softirq steal ...": the 8th number. */
static void steal(struct hostenv *h)
{
	unsigned long long v[8];
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) == 8) {
		h->has_steal = true;
		h->steal_ticks = v[7];
	}
	fclose(f);
}

static void damon(struct hostenv *h)
{
	char path[300], comm[32];
	DIR *d = opendir("/proc");
	struct dirent *e;

	while (d && !h->damon_kdamond && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if (read_file_str(path, comm, sizeof(comm)) >= 0 && !strncmp(comm, "kdamond", 7))
			h->damon_kdamond = true;
	}
	if (d)
		closedir(d);
}

void hostenv_read(struct hostenv *h)
{
	memset(h, 0, sizeof(*h));
	balloon(h);
	reporting_order(h);
	steal(h);
	damon(h);
}
