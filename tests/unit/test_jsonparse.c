// SPDX-License-Identifier: GPL-2.0
/*
 * What core/model/jsonparse.c adds to jansson: the flags every read uses, the
 * one-line errors with their position, the file reader, jpath() and the
 * type names. jansson's grammar is jansson's (and fuzzed upstream), and so
 * are the words of its errors: the tests check what ppbench makes of an
 * error (the position, "truncated", one line), never jansson's wording.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/jsonparse.h"
#include "unit.h"

static json_t *parse(const char *text, char *err, size_t errlen)
{
	return jparse_buf(text, strlen(text), err, errlen);
}

void test_jsonparse_values(void)
{
	const char *text =
		"{\"schema\": \"ppbench/1\",\n"
		" \"host\": {\"tsc_hz\": 2.596e9, \"n\": -5, \"ok\": true, \"none\": null},\n"
		" \"a\": [1, [2, 3], {\"x\": \"y\"}], \"big\": 18446744073709551615}";
	char err[128];
	json_t *v = parse(text, err, sizeof(err));

	if (!ASSERT_TRUE(v, err))
		return;
	ASSERT_STREQ(json_string_value(jpath(v, "schema")), "ppbench/1", "jpath member");
	ASSERT_NEAR(json_number_value(jpath(v, "host.tsc_hz")), 2.596e9, 0, "jpath nested");
	ASSERT_NEAR(json_number_value(jpath(v, "a[1][1]")), 3, 0, "jpath indexes");
	ASSERT_STREQ(json_string_value(jpath(v, "a[2].x")), "y", "jpath index then key");
	ASSERT_TRUE(!jpath(v, "a[3]") && !jpath(v, "host.missing") && !jpath(v, "schema.x") &&
			    !jpath(v, "a[x]") && !jpath(v, "host[0]") && !jpath(NULL, "a"),
		    "missing paths are NULL");
	/* integers read as doubles, also beyond jansson's json_int_t */
	ASSERT_TRUE(json_is_real(jpath(v, "host.n")), "an integer is a double");
	ASSERT_NEAR(json_number_value(jpath(v, "big")), 18446744073709551615.0, 0, "2^64 - 1");
	ASSERT_EQ(jtype_of(jpath(v, "host.n")), J_NUM, "kind of a number");
	ASSERT_EQ(jtype_of(jpath(v, "host.ok")), J_BOOL, "kind of true");
	ASSERT_EQ(jtype_of(jpath(v, "host.none")), J_NULL, "kind of null");
	ASSERT_STREQ(jtype_name(v), "an object", "type name");
	ASSERT_STREQ(jtype_name(jpath(v, "a")), "an array", "type name of an array");
	ASSERT_STREQ(jtype_name(jpath(v, "host.ok")), "a boolean", "type name of true");
	ASSERT_STREQ(jtype_name(NULL), "nothing", "type name of NULL");
	ASSERT_STREQ(jtype_str(J_STR), "a string", "name of a kind");
	json_decref(v);
}

/*
 * ERR is one line of printable text that starts with WANT, ppbench's part of
 * the message ("[truncated: ]line L, column C: "), and has jansson's after it.
 */
static void check_error(const char *err, const char *want, const char *name)
{
	size_t n = strlen(want);
	bool printable = true;
	char head[128];

	snprintf(head, sizeof(head), "%.*s", (int)n, err);
	ASSERT_STREQ(head, want, name);
	ASSERT_TRUE(strlen(err) > n, "jansson's text follows");
	for (const unsigned char *c = (const unsigned char *)err; *c; c++)
		printable &= *c >= 0x20 && *c != 0x7f;
	ASSERT_TRUE(printable, "one line, no control character");
}

static void expect_error(const char *text, size_t len, const char *want, const char *name)
{
	char err[256] = "";
	json_t *v = jparse_buf(text, len, err, sizeof(err));

	ASSERT_TRUE(!v, name);
	check_error(err, want, name);
	json_decref(v);
}

#define EXPECT_ERROR(text, want, name) expect_error(text, sizeof(text) - 1, want, name)

void test_jsonparse_errors(void)
{
	EXPECT_ERROR("{\"a\": 1,\n \"b\": 2\n \"c\": 3}", "line 3, column 4: ", "line and column");
	/* jansson's column 0 is the start of a line: shown as column 1 */
	EXPECT_ERROR("[1,\n", "truncated: line 2, column 1: ", "column 0");
	EXPECT_ERROR("{\"k\": 1, \"k\": 2}", "line 1, column 12: ", "a repeated member name");
	EXPECT_ERROR("[\"a\\u0000b\"]", "line 1, column 11: ", "NUL escape");
	EXPECT_ERROR("[1e999]", "line 1, column 6: ", "overflow");
	EXPECT_ERROR("\"\xc3\xa9\" x", "line 1, column 5: ", "columns count characters");
}

/* A text cut short says so: between members, in a string, a literal, a number, an escape. */
void test_jsonparse_truncated(void)
{
	EXPECT_ERROR("{\"a\": 1", "truncated: line 1, column 7: ", "between members");
	EXPECT_ERROR("[\"abc", "truncated: line 1, column 5: ", "in a string");
	EXPECT_ERROR("[tr", "truncated: line 1, column 3: ", "in a literal");
	EXPECT_ERROR("[1.", "truncated: line 1, column 3: ", "in a number");
	EXPECT_ERROR("[\"a\\u00", "truncated: line 1, column 7: ", "in an escape");
	/* whole texts that are wrong are not cut short */
	EXPECT_ERROR("[tru]", "line 1, column 4: ", "a bad literal");
	EXPECT_ERROR("[1, 2 x", "line 1, column 7: ", "a bad token at the end");
	EXPECT_ERROR("{} x", "line 1, column 4: ", "text after it");
}

/*
 * jansson quotes the input near the error: a newline or an escape sequence
 * there must not reach the terminal (found by fuzzing the old reader).
 */
void test_jsonparse_error_one_line(void)
{
	EXPECT_ERROR("\"\\\n\"", "line 2, column 1: ", "backslash newline");
	EXPECT_ERROR("{} \x1b[2J", "line 1, column 4: ", "escape sequence");
	EXPECT_ERROR("{}\n\0", "line 2, column 1: ", "NUL byte after the value");
}

static json_t *parse_file(const char *content, size_t len, char *err, size_t errlen)
{
	char path[] = "/tmp/ppbench-unit-XXXXXX";
	int fd = mkstemp(path);
	json_t *v;

	if (!ASSERT_TRUE(fd >= 0, "mkstemp"))
		return NULL;
	ASSERT_EQ(write(fd, content, len), (ssize_t)len, "write");
	close(fd);
	v = jparse_file(path, err, errlen);
	unlink(path);
	return v;
}

void test_jsonparse_file(void)
{
	char err[128], want[128];
	json_t *v;

	v = parse_file("", 0, err, sizeof(err));
	ASSERT_TRUE(!v, "empty file");
	ASSERT_STREQ(err, "file is empty", "empty file message");
	v = parse_file(" \n\t\r\n", 5, err, sizeof(err));
	ASSERT_STREQ(err, "file is empty (only white space)", "blank file message");
	v = parse_file("{\"a\": [1, 2]}\n", 14, err, sizeof(err));
	ASSERT_TRUE(json_array_size(jpath(v, "a")) == 2, "file parsed");
	json_decref(v);
	v = parse_file("{\"a\":\n 1,}", 10, err, sizeof(err));
	ASSERT_TRUE(!v, "bad file");
	check_error(err, "line 2, column 4: ", "file error");
	v = parse_file("\n\0", 2, err, sizeof(err));
	ASSERT_TRUE(!v, "a NUL byte");
	ASSERT_HAS_SUBSTR(err, "line 2, column 1: ", "NUL byte position");
	v = jparse_file("/nonexistent/ppbench.json", err, sizeof(err));
	ASSERT_TRUE(!v, "missing file");
	snprintf(want, sizeof(want), "cannot open: %s", strerror(ENOENT));
	ASSERT_STREQ(err, want, "missing file message");
	v = jparse_file("/", err, sizeof(err));
	ASSERT_TRUE(!v, "a directory");
	snprintf(want, sizeof(want), "cannot read: %s", strerror(EISDIR));
	ASSERT_STREQ(err, want, "read error message");
}

void test_jmsg_one_line(void)
{
	char msg[] = "a\nb\tc\x1b[2Jd\x7f\xc3\xa9";

	jmsg_one_line(msg);
	ASSERT_STREQ(msg, "a?b?c?[2Jd?\xc3\xa9", "control characters become '?', UTF-8 stays");
}
