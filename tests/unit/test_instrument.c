// SPDX-License-Identifier: GPL-2.0
/* The hook around timed runs (instr/instrument.c): order, spans, errors. */
#include <errno.h>
#include <stdio.h>
#include "instr/instrument.h"
#include "unit.h"

/* An instrument that logs its calls as "bNAME" and "eNAME:ELEMS:ERR". */
struct logged {
	struct instrument in; /* first */
	char name;
	int fail_begin, fail_end;
};

static char trail[128];

static void say(const char *fmt, char name, unsigned long long elems, int err)
{
	size_t n = strlen(trail);

	snprintf(trail + n, sizeof(trail) - n, fmt, name, elems, err);
}

static int log_begin(struct instrument *in, enum instr_span span)
{
	struct logged *l = (struct logged *)in;

	(void)span;
	say("b%c ", l->name, 0, 0);
	return l->fail_begin;
}

static int log_end(struct instrument *in, enum instr_span span, uint64_t elems, int err)
{
	struct logged *l = (struct logged *)in;

	(void)span;
	say("e%c:%llu:%d ", l->name, elems, err);
	return l->fail_end;
}

#define LOGGED(c, spans)                                                                           \
	{                                                                                          \
		{ (spans), log_begin, log_end, NULL }, (c), 0, 0                                   \
	}

void test_instrument_order_and_spans(void)
{
	struct logged a = LOGGED('a', 1u << INSTR_TIMED | 1u << INSTR_WHOLE),
		      c = LOGGED('c', 1u << INSTR_CHUNK), t = LOGGED('t', 1u << INSTR_TIMED);
	struct instr_window w = { INSTR_TIMED };

	trail[0] = 0;
	instr_add(&a.in);
	instr_add(&c.in);
	instr_add(&t.in);
	instr_add(&a.in); /* once */
	ASSERT_OK(instr_begin(&w), "begin");
	ASSERT_OK(instr_end(&w, 64, 0), "end");
	ASSERT_STREQ(trail, "ba bt et:64:0 ea:64:0 ", "in order, ended in reverse, its span only");
	trail[0] = 0;
	w.span = INSTR_CHUNK;
	ASSERT_OK(instr_begin(&w), "a chunk");
	ASSERT_EQ(instr_end(&w, 64, -EIO), -EIO, "the window's error");
	ASSERT_STREQ(trail, "bc ec:0:-5 ", "a failed window ends with no elements");
	instr_remove(&a.in);
	instr_remove(&c.in);
	instr_remove(&t.in);
	trail[0] = 0;
	w.span = INSTR_TIMED;
	ASSERT_OK(instr_begin(&w) ?: instr_end(&w, 1, 0), "no instrument");
	ASSERT_STREQ(trail, "", "removed: not called");
}

void test_instrument_errors(void)
{
	struct logged a = LOGGED('a', 1u << INSTR_TIMED), b = LOGGED('b', 1u << INSTR_TIMED),
		      c = LOGGED('c', 1u << INSTR_TIMED);
	struct instr_window w = { INSTR_TIMED };

	instr_add(&a.in);
	instr_add(&b.in);
	instr_add(&c.in);
	trail[0] = 0;
	b.fail_begin = -EBUSY;
	ASSERT_EQ(instr_begin(&w), -EBUSY, "b's begin fails");
	ASSERT_STREQ(trail, "ba bb ea:0:-16 ", "a ended again, c never begun");
	trail[0] = 0;
	ASSERT_EQ(instr_end(&w, 8, -EBUSY), -EBUSY, "the caller's end after it");
	ASSERT_STREQ(trail, "", "ends nothing twice");
	b.fail_begin = 0;
	a.fail_end = -EIO;
	c.fail_end = -ENODATA;
	trail[0] = 0;
	ASSERT_OK(instr_begin(&w), "all begin");
	ASSERT_EQ(instr_end(&w, 8, 0), -ENODATA, "the first end to fail (c, ended first)");
	ASSERT_STREQ(trail, "ba bb bc ec:8:0 eb:8:0 ea:8:0 ", "every one ended all the same");
	ASSERT_OK(instr_begin(&w), "all begin again");
	ASSERT_EQ(instr_end(&w, 8, -EINTR), -EINTR, "the window's error before an instrument's");
	instr_remove(&a.in);
	instr_remove(&b.in);
	instr_remove(&c.in);
}
