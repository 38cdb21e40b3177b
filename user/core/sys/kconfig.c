// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>
#include "sys/kconfig.h"

static char *config_text;
static const char *config_src;
static int loaded;

static char *slurp_gz(const char *path)
{
	gzFile f = gzopen(path, "rb");
	char chunk[65536], *buf = NULL;
	size_t len = 0;
	FILE *m;
	int n;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while (m && (n = gzread(f, chunk, sizeof(chunk))) > 0)
		fwrite(chunk, 1, n, m);
	gzclose(f);
	if (m && fclose(m)) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

static void load(void)
{
	static char boot_path[300];
	struct utsname u;

	loaded = 1;
	/* gzopen reads plain files too, so one reader serves both sources. */
	config_text = slurp_gz("/proc/config.gz");
	if (config_text) {
		config_src = "/proc/config.gz";
		return;
	}
	if (uname(&u) == 0) {
		snprintf(boot_path, sizeof(boot_path), "/boot/config-%s", u.release);
		config_text = slurp_gz(boot_path);
		if (config_text)
			config_src = boot_path;
	}
}

const char *kconfig_find(const char *text, const char *name, char *val, size_t len)
{
	char key[128];
	const char *p;

	snprintf(key, sizeof(key), "\nCONFIG_%s=", name);
	p = strstr(text, key);
	if (p) {
		size_t n;

		p += strlen(key);
		n = strcspn(p, "\n");
		if (n >= 2 && p[0] == '"' && p[n - 1] == '"') /* a string option: its text */
			p++, n -= 2;
		snprintf(val, len, "%.*s", (int)n, p);
		return val;
	}
	return "n";
}

const char *kconfig_get(const char *name)
{
	static char val[128];

	if (!loaded)
		load();
	if (!config_text)
		return NULL;
	return kconfig_find(config_text, name, val, sizeof(val));
}

const char *kconfig_source(void)
{
	if (!loaded)
		load();
	return config_src;
}
