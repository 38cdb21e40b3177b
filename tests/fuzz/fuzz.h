/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the libFuzzer targets. A target is one file, fuzz_NAME.c, that
 * defines LLVMFuzzerTestOneInput(); the Makefile builds every such file
 * against the sanitized objects (build/asan) and scripts/fuzz.sh runs it.
 * Lines in the file's first comment tell the runner more:
 *   fuzz-seeds: DIR...    seed directories besides tests/fuzz/corpus/NAME
 *   fuzz-dict: FILE       a libFuzzer dictionary
 *   fuzz-options: -OPT=V  further libFuzzer options (e.g. -max_len=)
 * A property a target checks goes through FUZZ_ASSERT: its failure aborts,
 * and the fuzzer keeps the input as a reproducer like any crash.
 */
#ifndef PPBENCH_FUZZ_H
#define PPBENCH_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sanitizer/common_interface_defs.h>
#include "judge/model/jsonparse.h"
#include "report/json.h"
#include "sys/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Written where sanitizer reports go: it reaches the log with the target's stderr closed. */
#define FUZZ_ASSERT(cond, what)                                                                    \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			char __m[256];                                                             \
                                                                                                   \
			snprintf(__m, sizeof(__m), "fuzz: property violated: %s (%s:%d: %s)",      \
				 what, __FILE__, __LINE__, #cond);                                 \
			__sanitizer_report_error_summary(__m);                                     \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/*
 * No one-line errors and no --help text: millions of inputs would spend
 * their time printing. Call at the start of every input (--verbose raises
 * the level).
 */
static inline void fuzz_quiet(void)
{
	static bool done;

	log_level = -1;
	if (!done && freopen("/dev/null", "w", stdout))
		done = true;
}

/* What is left of an input, taken from the front. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fuzz_byte(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

/* The bytes up to SEP (or the end) as a malloc'ed C string; NULL when nothing is left. */
static inline char *fuzz_piece(struct fuzz_in *in, char sep)
{
	const uint8_t *end = in->n ? memchr(in->p, sep, in->n) : NULL;
	size_t len = end ? (size_t)(end - in->p) : in->n;
	char *s;

	if (!in->n)
		return NULL;
	s = malloc(len + 1);
	if (!s)
		abort();
	memcpy(s, in->p, len);
	s[len] = '\0';
	in->p += len + (end != NULL);
	in->n -= len + (end != NULL);
	return s;
}

/* DATA as a file whose path readers can open: a memfd of exactly those bytes. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("fuzz-input", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

/* A JSON writer into memory, for what a target writes and reads back. */
struct fuzz_mem {
	char *buf;
	size_t len;
	FILE *f;
};

static inline struct json *fuzz_json_begin(struct fuzz_mem *m)
{
	struct json *j;

	m->buf = NULL;
	m->f = open_memstream(&m->buf, &m->len);
	j = m->f ? json_new(m->f, false) : NULL;
	if (!j)
		abort();
	return j;
}

/* Closes the writer and reads its text back: the document, or NULL. */
static inline json_t *fuzz_json_end(struct fuzz_mem *m, struct json *j)
{
	char err[200];
	json_t *doc;

	json_close(j);
	fclose(m->f);
	doc = jparse_buf(m->buf, m->len, err, sizeof(err));
	free(m->buf);
	return doc;
}

#endif
