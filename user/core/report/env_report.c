// SPDX-License-Identifier: GPL-2.0
/* The text of `ppbench env` when it waits for Ctrl-C. */
#include <stdio.h>
#include "report/env_report.h"

void env_report_up(const char *const ifname[2], const char *const ip[2], const char *const ns[2])
{
	printf("private environment up (Ctrl-C to remove it):\n");
	for (int i = 0; i < 2; i++)
		printf("  %s  %s  nsenter --net=%s\n", ifname[i], ip[i], ns[i]);
	/* a script reads these lines while we wait */
	fflush(stdout);
}
