// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "loader/ksyms.h"

uint64_t ksym_addr(const char *name)
{
	char line[512], sym[256];
	unsigned long long addr;
	uint64_t found = 0;
	char type;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3)
			continue;
		if (!strcmp(sym, name) && (type == 't' || type == 'T')) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}
