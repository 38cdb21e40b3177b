// SPDX-License-Identifier: GPL-2.0
/* The running kernel's page size (see pagesz.h). */
#include <unistd.h>
#include "sys/pagesz.h"

long sys_page_size(void)
{
	return sysconf(_SC_PAGESIZE); /* never fails on Linux */
}

unsigned int sys_page_shift(void)
{
	return (unsigned int)__builtin_ctzl((unsigned long)sys_page_size());
}
