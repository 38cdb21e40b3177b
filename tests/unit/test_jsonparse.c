// SPDX-License-Identifier: GPL-2.0
/* The JSON reader: values, escapes, accessors, and one-line errors with positions. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "model/jsonparse.h"
#include "unit.h"

void test_jsonparse_values(void)
{
	const char *text = "{\"schema\": \"ppbench/1\",\n"
			   " \"host\": {\"tsc_hz\": 2.596e9, \"n\": -0.5,\n"
			   "  \"ok\": true, \"no\": false, \"none\": null},\n"
			   " \"a\": [1, [2, 3], {\"x\": \"y\"}], \"empty\": {}, \"ea\": []}";
	char err[128];
	struct jval *v = jparse(text, err, sizeof(err));
	double d = 0;
	bool b = false;

	if (!ASSERT_TRUE(v, err))
		return;
	ASSERT_STREQ(jstr(jget(v, "schema")), "ppbench/1", "string member");
	ASSERT_OK(jnum(jpath(v, "host.tsc_hz"), &d), "jpath number");
	ASSERT_NEAR(d, 2.596e9, 0, "exponent");
	ASSERT_OK(jnum(jpath(v, "host.n"), &d), "negative");
	ASSERT_NEAR(d, -0.5, 0, "negative fraction");
	ASSERT_OK(jbool(jpath(v, "host.ok"), &b), "true");
	ASSERT_TRUE(b, "true value");
	ASSERT_TRUE(jis(jpath(v, "host.none"), J_NULL), "null");
	ASSERT_EQ(jlen(jget(v, "a")), 3, "array length");
	ASSERT_OK(jnum(jpath(v, "a[1][1]"), &d), "nested index");
	ASSERT_NEAR(d, 3, 0, "a[1][1]");
	ASSERT_STREQ(jstr(jpath(v, "a[2].x")), "y", "index then key");
	ASSERT_TRUE(!jpath(v, "a[3]") && !jpath(v, "host.missing") && !jpath(v, "schema.x"),
		    "missing paths are NULL");
	ASSERT_EQ(jlen(jget(v, "empty")), 0, "empty object");
	ASSERT_TRUE(jis(jget(v, "ea"), J_ARR) && !jlen(jget(v, "ea")), "empty array");
	ASSERT_STREQ(jkey(jget(v, "host"), 1), "n", "member names in order");
	ASSERT_ERR(jnum(jget(v, "schema"), &d), "jnum on a string");
	ASSERT_TRUE(!jstr(jpath(v, "host.n")), "jstr on a number");
	ASSERT_ERR(jbool(NULL, &b), "jbool on nothing");
	ASSERT_STREQ(jtype_name(jget(v, "a")), "an array", "type name");
	ASSERT_STREQ(jtype_name(NULL), "nothing", "type name of NULL");
	jfree(v);
}

void test_jsonparse_strings(void)
{
	char err[128];
	struct jval *v = jparse("[\"a\\\"b\\\\c\\/d\\n\\t\", \"\\u00e9\\u20ac\","
				" \"\\ud83d\\ude00\", \"caf\xc3\xa9\"]",
				err, sizeof(err));

	if (!ASSERT_TRUE(v, err))
		return;
	ASSERT_STREQ(jstr(jat(v, 0)), "a\"b\\c/d\n\t", "simple escapes");
	ASSERT_STREQ(jstr(jat(v, 1)), "\xc3\xa9\xe2\x82\xac", "\\u to 2- and 3-byte UTF-8");
	ASSERT_STREQ(jstr(jat(v, 2)), "\xf0\x9f\x98\x80", "surrogate pair to 4-byte UTF-8");
	ASSERT_STREQ(jstr(jat(v, 3)), "caf\xc3\xa9", "raw UTF-8 passes through");
	jfree(v);
	v = jparse("{\"k\": 1, \"k\": 2}", err, sizeof(err));
	ASSERT_NEAR(jget(v, "k")->n, 2, 0, "repeated member: last wins");
	jfree(v);
}

static void expect_error(const char *text, const char *want, const char *name)
{
	char err[128] = "";
	struct jval *v = jparse(text, err, sizeof(err));

	ASSERT_TRUE(!v, name);
	ASSERT_STREQ(err, want, name);
	jfree(v);
}

void test_jsonparse_errors(void)
{
	expect_error("{\"a\": 1,\n \"b\": 2\n \"c\": 3}", "line 3, column 2: expected ',' or '}'",
		     "missing comma");
	expect_error("[1, 2",
		     "truncated: line 1, column 6: unexpected end of input, expected ',' or ']'",
		     "unterminated array");
	expect_error("", "line 1, column 1: empty input, expected a JSON value", "empty");
	expect_error("  \n ", "line 2, column 2: empty input, expected a JSON value", "blank");
	expect_error("{\"a\": 1,}", "line 1, column 9: expected a member name (a string)",
		     "trailing comma");
	expect_error("{\"a\" 1}", "line 1, column 6: expected ':' after the member name",
		     "missing colon");
	expect_error("[01]", "line 1, column 3: expected ',' or ']'", "leading zero");
	expect_error("[1.]", "line 1, column 4: expected a digit", "bare dot");
	expect_error("[-]", "line 1, column 3: expected a digit", "bare minus");
	expect_error("[1e999]", "line 1, column 2: number out of range", "overflow");
	expect_error("[tru]", "line 1, column 2: expected a JSON value", "bad literal");
	expect_error("\"abc", "truncated: line 1, column 1: unterminated string",
		     "unterminated string");
	/* a file cut short anywhere says so: inside a literal, a number, an escape */
	expect_error("[tr",
		     "truncated: line 1, column 4: unexpected end of input, expected a JSON value",
		     "cut literal");
	expect_error("[1.", "truncated: line 1, column 4: expected a digit", "cut number");
	expect_error("[\"a\\", "truncated: line 1, column 5: unexpected end of input in an escape",
		     "cut escape");
	expect_error("\"a\\x\"", "line 1, column 3: invalid escape '\\x'", "bad escape");
	expect_error("\"\\u12g4\"", "line 1, column 2: \\u must be followed by 4 hex digits",
		     "bad hex");
	expect_error("\"\\ud800x\"", "line 1, column 2: unpaired UTF-16 surrogate in \\u escape",
		     "lone high surrogate");
	expect_error("\"\\u0000\"", "line 1, column 2: \\u0000 (NUL) in a string is not supported",
		     "NUL escape");
	expect_error("\"a\tb\"",
		     "line 1, column 3: control character in a string (must be escaped)",
		     "raw tab");
	expect_error("{} x", "line 1, column 4: unexpected text after the JSON value", "trailing");
	expect_error("\"\xc3\xa9\" x", "line 1, column 5: unexpected text after the JSON value",
		     "columns count characters");
}

/* Found by fuzzing: a backslash before a newline put the newline into the
 * one-line error ("invalid escape '\<newline>'"). */
void test_jsonparse_escape_error_one_line(void)
{
	expect_error("\"\\\n\"", "line 1, column 2: invalid escape: '\\' then byte 0x0a",
		     "backslash newline");
	expect_error("\"\\\xff\"", "line 1, column 2: invalid escape: '\\' then byte 0xff",
		     "backslash and a byte above ASCII");
}

void test_jsonparse_depth(void)
{
	char deep[200], err[128];
	struct jval *v;

	memset(deep, '[', 100);
	memset(deep + 100, ']', 99);
	deep[199] = '\0';
	v = jparse(deep, err, sizeof(err));
	ASSERT_TRUE(!v, "100 levels refused");
	ASSERT_HAS_SUBSTR(err, "nested deeper than 64 levels", "depth message");
	memset(deep, '[', 60);
	memset(deep + 60, ']', 60);
	deep[120] = '\0';
	v = jparse(deep, err, sizeof(err));
	ASSERT_TRUE(v, "60 levels accepted");
	jfree(v);
}

void test_jsonparse_file(void)
{
	char path[] = "/tmp/ppbench-unit-XXXXXX", err[128];
	struct jval *v;
	int fd = mkstemp(path);

	if (!ASSERT_TRUE(fd >= 0, "mkstemp"))
		return;
	v = jparse_file(path, err, sizeof(err));
	ASSERT_TRUE(!v, "empty file");
	ASSERT_STREQ(err, "file is empty", "empty file message");
	ASSERT_EQ(write(fd, "{\"a\": [1, 2]}\n", 14), 14, "write");
	v = jparse_file(path, err, sizeof(err));
	ASSERT_TRUE(v && jlen(jget(v, "a")) == 2, "file parsed");
	jfree(v);
	ASSERT_EQ(write(fd, "\0", 1), 1, "write NUL");
	v = jparse_file(path, err, sizeof(err));
	ASSERT_STREQ(err, "line 2, column 1: NUL byte in the input", "NUL byte");
	close(fd);
	unlink(path);
	v = jparse_file(path, err, sizeof(err));
	ASSERT_TRUE(!v, "missing file");
	ASSERT_STREQ(err, "cannot open: No such file or directory", "missing file message");
}
