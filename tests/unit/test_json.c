// SPDX-License-Identifier: GPL-2.0
/* The JSON writer (report/json.c). */
#include <stdlib.h>
#include "report/json.h"
#include "unit.h"

/* V as json_double() writes it, into BUF. */
static const char *write_double(double v, char *buf, size_t len)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	struct json *j = json_new(f, false);

	json_double(j, NULL, v);
	json_close(j);
	fclose(f);
	snprintf(buf, len, "%s", out);
	free(out);
	return buf;
}

/*
 * Found by fuzzing: a number beyond long long (1e300 in a result file that
 * compare --json writes back) was cast to long long to see whether it is
 * whole, which is undefined; UBSan (make test runs this binary built with
 * it) fails the run if that comes back.
 */
void test_json_double_large(void)
{
	char buf[64];

	ASSERT_STREQ(write_double(1e300, buf, sizeof(buf)), "1e+300", "1e300");
	ASSERT_STREQ(write_double(-1.2345678901e29, buf, sizeof(buf)), "-1.23456789e+29",
		     "-1.2e29");
	ASSERT_STREQ(write_double(42, buf, sizeof(buf)), "42.0", "a whole number");
	ASSERT_STREQ(write_double(1e15, buf, sizeof(buf)), "1e+15", "1e15 in exponent form");
	ASSERT_STREQ(write_double(0.5, buf, sizeof(buf)), "0.5", "a fraction");
}

/* Found by fuzzing: the largest double written with ten digits rounds up to
 * 1.797693135e+308, beyond any double, so the reader refused the writer's
 * own output. */
void test_json_double_largest(void)
{
	char buf[64];

	ASSERT_STREQ(write_double(1.7976931348623157e308, buf, sizeof(buf)),
		     "1.7976931348623157e+308", "DBL_MAX");
	ASSERT_STREQ(write_double(-1.7976931348623157e308, buf, sizeof(buf)),
		     "-1.7976931348623157e+308", "-DBL_MAX");
	ASSERT_STREQ(write_double(1.5e308, buf, sizeof(buf)), "1.5e+308", "ten digits below it");
}

/* S as json_str() writes it, into BUF. */
static const char *write_string(const char *s, char *buf, size_t len)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	struct json *j = json_new(f, false);

	json_str(j, NULL, s);
	json_close(j);
	fclose(f);
	snprintf(buf, len, "%s", out);
	free(out);
	return buf;
}

/*
 * Found by fuzzing (hostinfo) when jansson became the reader: a byte that is
 * no UTF-8 went into the file as it was, and the reader refuses such a file.
 */
void test_json_string_utf8(void)
{
	char buf[64];

	ASSERT_STREQ(write_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", buf, sizeof(buf)),
		     "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", "UTF-8 stays as it is");
	ASSERT_STREQ(write_string("a\xa3z", buf, sizeof(buf)), "\"a\\ufffdz\"", "a lone byte");
	ASSERT_STREQ(write_string("\xc3", buf, sizeof(buf)), "\"\\ufffd\"", "cut at the end");
	ASSERT_STREQ(write_string("\xc0\xaf", buf, sizeof(buf)), "\"\\ufffd\\ufffd\"", "overlong");
	ASSERT_STREQ(write_string("\xed\xa0\x80", buf, sizeof(buf)), "\"\\ufffd\\ufffd\\ufffd\"",
		     "a surrogate");
	ASSERT_STREQ(write_string("\xf4\x90\x80\x80", buf, sizeof(buf)),
		     "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", "above U+10FFFF");
	ASSERT_STREQ(write_string("\"\\\n\x01", buf, sizeof(buf)), "\"\\\"\\\\\\n\\u0001\"",
		     "escapes");
}
