// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel config reader (sys/kconfig.c) fed a config text instead of
 * /proc/config.gz: every option a result records (report/hostinfo.c) is looked
 * up in it. A value is one line's text after "CONFIG_NAME=".
 *   fuzz-dict: tests/fuzz/kconfig.dict
 */
#include "fuzz.h"
#include "report/report.h"
#include "sys/kconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	char *text = fuzz_piece(&in, '\0'), val[128];

	fuzz_quiet();
	if (!text)
		return 0;
	for (int i = 0; host_config_options[i]; i++) {
		const char *v = kconfig_find(text, host_config_options[i], val, sizeof(val));

		FUZZ_ASSERT(v && !strchr(v, '\n'), "a value is within one line");
		FUZZ_ASSERT(v == val || !strcmp(v, "n"), "a value, or n when not set");
	}
	free(text);
	return 0;
}
