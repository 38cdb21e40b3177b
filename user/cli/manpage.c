// SPDX-License-Identifier: GPL-2.0
/*
 * ppbench(8), written from the same command tables as --help (so the two
 * cannot drift apart) plus the sections a man page has beyond the options.
 * 'ppbench help --man' prints it; the build installs build/ppbench.8, and
 * build/ppbench-CMD.8 for every command (below).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/manpage.h"
#include "sys/log.h"

/* troff: a leading '.' or '\'' starts a request, '\' escapes, '-' is a hyphen. */
static void roff(FILE *f, const char *s)
{
	bool bol = true;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

static void man_options(FILE *f, const struct cli_opt *opts)
{
	for (const struct cli_opt *o = opts; o && o->name; o++) {
		char mv[96], help[512];
		const char *metavar = cli_opt_metavar(o, mv, sizeof(mv));

		fputs(".TP\n", f);
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
		fprintf(f, "\\fB\\-\\-");
		roff(f, o->name);
		fprintf(f, "\\fR");
		if (metavar) {
			fputs(" \\fI", f);
			roff(f, metavar);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		cli_opt_help(o, help, sizeof(help));
		roff(f, help);
		fputs(".\n", f);
	}
}

static void man_command(FILE *f, const struct cli_cmd *c)
{
	fputs(".SS ppbench ", f);
	roff(f, c->name);
	fputs(" [OPTIONS]", f);
	if (c->args) {
		fputc(' ', f);
		roff(f, c->args);
	}
	fputs("\n.nf\n", f);
	roff(f, c->description ? c->description : c->summary);
	fputs("\n.fi\n", f);
	man_options(f, c->opts);
	fputs(".TP\n\\fB\\-v\\fR, \\fB\\-\\-verbose\\fR\nMore messages; repeat for libbpf debug "
	      "output.\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow the command's help.\n",
	      f);
	if (c->examples) {
		fputs(".PP\nExamples:\n.nf\n", f);
		roff(f, c->examples);
		fputs(".fi\n", f);
	}
}

static const char *const man_head =
	".TH PPBENCH 8 \"2026\" \"ppbench " PPBENCH_VERSION "\" \"System Administration\"\n"
	".SH NAME\nppbench \\- page_pool recycling path costs and path proof, from XDP/BPF\n"
	".SH SYNOPSIS\n\\fBppbench\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n"
	".br\n\\fBppbench\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR\n.br\n"
	"\\fBppbench \\-\\-version\\fR\n"
	".SH DESCRIPTION\nppbench measures what each page_pool recycling path costs in TSC "
	"cycles and ns per element \\(em the \\fBfast\\fR path (the per-pool alloc cache and "
	"direct recycling in NAPI context), the \\fBptr_ring\\fR path (returns through the "
	"pool's ring, also from another CPU) and the \\fBslow\\fR path (the page allocator) "
	"\\(em and proves with counters which path every element took. It needs no kernel "
	"module: XDP programs drive frames through the kernel's page_pool (live-frames "
	"BPF_PROG_RUN, veth, cpumap and devmap redirects, real NICs) and BPF programs count. "
	"With no interface, commands run on a private veth pair in two network namespaces "
	"that ppbench creates; they are held only by its file descriptors, so the kernel "
	"removes them when ppbench exits, even by SIGKILL.\n"
	".SH COMMANDS\n";

static const char *const man_tail =
	".SH PATH ACCOUNTING\nWhere the kernel allows fentry programs, fentry/fexit on the "
	"page_pool alloc and put functions classify every call exactly. Elsewhere the "
	"page_pool_state_hold and page_pool_state_release tracepoints count slow allocations "
	"and releases exactly, and ring and cache traffic is derived from samples of each "
	"pool's state taken by ppbench's XDP programs; counts that cannot be known are shown as "
	"n/a (null in JSON), never as 0. ppbench\\-watch(8) says what each backend counts.\n"
	".SH ENVIRONMENT\n.TP\n\\fBPPBENCH_BTF\\fR\nKernel BTF to use instead of "
	"/sys/kernel/btf/vmlinux.\n.TP\n\\fBPPBENCH_BPFFS\\fR\nWhere bpffs is expected "
	"(default /sys/fs/bpf); only \\fBload \\-\\-multiprog\\fR needs it.\n"
	".TP\n\\fBPPBENCH_DISABLE\\fR\nA comma-separated list of features to treat as missing, "
	"to see or test what ppbench does without them: \\fBlive_frames\\fR (live-frames "
	"BPF_PROG_RUN: bench skips ring and ring\\-xcpu and falls back to other recipes for fast "
	"and slow), \\fBfentry\\fR (the tracepoint accounting backend, no fentry path figures).\n"
	".TP\n\\fBPPBENCH_LOCK_FILE\\fR\nThe lock that lets one bench or recipe run at a time "
	"(default /run/ppbench.lock, else /tmp/ppbench.lock).\n"
	".SH EXIT STATUS\n0 on success, 1 on a runtime error, 2 on a usage error (bad option, "
	"argument or input file), 3 when \\fBcompare \\-\\-fail\\-above\\fR finds a "
	"significant regression or \\fBtrend \\-\\-fail\\-on\\-regression\\fR a change point "
	"that is one. Errors are one line on stderr naming the problem.\n"
	".SH NOTES\nCycles are TSC cycles, as in bench_page_pool_simple's cycles(tsc): "
	"reference cycles at the TSC frequency, not core cycles. In virtual machines, with "
	"frequency scaling and with speculative-execution mitigations the figures change; "
	"results record the kernel, CPU, TSC frequency, clock source, mitigations and the "
	"relevant kernel configuration so that \\fBcompare\\fR can tell.\n"
	".SH SEE ALSO\n";

void cli_print_man(FILE *f)
{
	fputs(man_head, f);
	for (int i = 0; cli_commands[i]; i++)
		man_command(f, cli_commands[i]);
	fputs(man_tail, f);
	for (int i = 0; cli_commands[i]; i++)
		fprintf(f, "\\fBppbench\\-%s\\fR(8), ", cli_commands[i]->name);
	fputs("\\fBbpftool\\fR(8), \\fBxdp\\-bench\\fR(8), \\fBethtool\\fR(8), "
	      "\\fBip\\-link\\fR(8)\n",
	      f);
}

/*
 * The per-command pages. Their prose is a Markdown subset, one block per
 * paragraph so that it diffs well, rendered two ways: troff for man(1), and
 * the plain text man(1) would show, for 'ppbench help CMD' where man is not
 * at hand. Blocks, separated by blank lines:
 *   # SECTION, ## Subsection        headings (.SH, .SS)
 *   ``` ... ```                     verbatim lines
 *   - item, 1. item                 a bullet, a numbered item; the lines
 *                                   after it continue it
 *   | tag | text | more |           a table: the first row names the columns,
 *                                   |---| is skipped, each other row is a
 *                                   tagged paragraph (\| is a literal bar)
 *   @description @options @examples the command table's parts
 *   other lines                     a paragraph
 * Inline: `code` and **bold** are bold, [text](link) is its text.
 */
/* Plain text laid out as man(1) lays out the troff at 80 columns (78 used). */
enum { TEXT_WIDTH = 78, TEXT_INDENT = 7, TAG_INDENT = 14, VERB_INDENT = 11 };

struct man_out {
	FILE *f;
	bool roff;
	bool heading; /* plain text: a heading was the last line */
};

/* Plain text: the blank line between blocks, none under a heading. */
static void text_gap(struct man_out *o)
{
	if (!o->heading)
		fputc('\n', o->f);
	o->heading = false;
}

/* One character of text in troff: non-ASCII as \[uXXXX], so the page is ASCII. */
static const char *roff_char(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned int cp = u[0], n = 0;

	if (cp < 0x80) {
		if (cp == '\\')
			fputs("\\e", f);
		else if (cp == '-')
			fputs("\\-", f);
		else if (cp == '`')
			fputs("\\(ga", f);
		else
			fputc(cp, f);
		return s + 1;
	}
	if ((cp & 0xe0) == 0xc0)
		cp &= 0x1f, n = 1;
	else if ((cp & 0xf0) == 0xe0)
		cp &= 0x0f, n = 2;
	else if ((cp & 0xf8) == 0xf0)
		cp &= 0x07, n = 3;
	for (unsigned int i = 1; i <= n; i++) {
		if ((u[i] & 0xc0) != 0x80) { /* not UTF-8: show a replacement */
			fputs("\\[uFFFD]", f);
			return s + i;
		}
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if (!n)
		fputs("\\[uFFFD]", f);
	else
		fprintf(f, "\\[u%04X]", cp);
	return s + n + 1;
}

/* LEN bytes of literal text in troff; a line must not start with a request. */
static void roff_text(FILE *f, const char *s, size_t len, bool bol)
{
	const char *end = s + len;

	while (s < end) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		s = roff_char(f, s);
	}
}

/*
 * Inline markup of S: in troff with fonts, or as plain text into BUF (LEN
 * bytes). Returns BUF.
 */
static char *inline_text(const struct man_out *o, const char *s, char *buf, size_t len)
{
	size_t n = 0;
	bool bold = false, bol = true;

#define EMIT(p, l)                                                                                 \
	do {                                                                                       \
		if (o->roff)                                                                       \
			roff_text(o->f, p, l, bol);                                                \
		else if (n + (l) < len)                                                            \
			memcpy(buf + n, p, l), n += (l);                                           \
		bol = false;                                                                       \
	} while (0)
	while (*s) {
		const char *e;

		if (*s == '`' && (e = strchr(s + 1, '`'))) {
			if (o->roff)
				fputs("\\fB", o->f);
			EMIT(s + 1, (size_t)(e - s - 1));
			if (o->roff)
				fputs(bold ? "\\fB" : "\\fR", o->f);
			s = e + 1;
		} else if (s[0] == '*' && s[1] == '*') {
			bold = !bold;
			if (o->roff)
				fputs(bold ? "\\fB" : "\\fR", o->f);
			s += 2;
		} else if (*s == '[' && (e = strstr(s, "](")) && strchr(e, ')') &&
			   !memchr(s, '\n', e - s)) {
			EMIT(s + 1, (size_t)(e - s - 1));
			s = strchr(e, ')') + 1;
		} else {
			size_t l = strcspn(s + 1, "`*[") + 1;

			EMIT(s, l);
			s += l;
		}
	}
#undef EMIT
	if (o->roff && bold)
		fputs("\\fR", o->f);
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return buf;
}

/* Columns of the first LEN bytes of UTF-8 text S. */
static int text_cols(const char *s, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* Plain text: S filled into lines of TEXT_WIDTH at INDENT, the first after PREFIX. */
static void text_fill(FILE *f, int indent, const char *prefix, const char *s)
{
	int col = prefix ? text_cols(prefix, strlen(prefix)) : indent;
	bool first = true;

	fprintf(f, "%*s%s", prefix ? 0 : indent, "", prefix ? prefix : "");
	while (*s) {
		size_t w = strcspn(s, " ");
		int cols = text_cols(s, w);

		if (w) {
			if (!first && col + 1 + cols > TEXT_WIDTH)
				col = fprintf(f, "\n%*s", indent, "") - 1;
			else if (!first)
				col += fprintf(f, " ");
			fwrite(s, 1, w, f);
			col += cols;
			first = false;
		}
		s += w;
		s += strspn(s, " ");
	}
	fputc('\n', f);
}

static char pbuf[16384];

static void out_para(struct man_out *o, const char *text)
{
	if (o->roff) {
		fputs(".PP\n", o->f);
		inline_text(o, text, NULL, 0);
		fputc('\n', o->f);
		return;
	}
	text_gap(o);
	text_fill(o->f, TEXT_INDENT, NULL, inline_text(o, text, pbuf, sizeof(pbuf)));
}

static void out_heading(struct man_out *o, int level, const char *title)
{
	if (o->roff) {
		fputs(level == 1 ? ".SH " : ".SS ", o->f);
		inline_text(o, title, NULL, 0);
		fputc('\n', o->f);
		return;
	}
	fprintf(o->f, "\n%*s%s\n", level == 1 ? 0 : 3, "",
		inline_text(o, title, pbuf, sizeof(pbuf)));
	o->heading = true;
}

/* A list item; LABEL is its number ("2.") or NULL for a bullet. */
static void out_item(struct man_out *o, const char *label, const char *text)
{
	char prefix[24];

	if (o->roff) {
		if (label)
			fprintf(o->f, ".IP %s 4\n", label);
		else
			fputs(".IP \\(bu 2\n", o->f);
		inline_text(o, text, NULL, 0);
		fputc('\n', o->f);
		return;
	}
	if (label)
		snprintf(prefix, sizeof(prefix), "%*s%-4s", TEXT_INDENT, "", label);
	else
		snprintf(prefix, sizeof(prefix), "%*s\u2022 ", TEXT_INDENT, "");
	text_gap(o);
	text_fill(o->f, TEXT_INDENT + (label ? 4 : 2), prefix,
		  inline_text(o, text, pbuf, sizeof(pbuf)));
}

/*
 * A tagged paragraph: TAG, then each of the N parts of its body on a line;
 * as man(1) does, a tag narrower than the indent shares its line with the body.
 */
static void out_tagged(struct man_out *o, const char *tag, const char *const *body, int n)
{
	char prefix[TAG_INDENT + 1];
	int w;

	if (o->roff) {
		fputs(".TP 7\n\\fB", o->f);
		inline_text(o, tag, NULL, 0);
		fputs("\\fR\n", o->f);
		for (int i = 0; i < n; i++) {
			if (i)
				fputs(".br\n", o->f);
			inline_text(o, body[i], NULL, 0);
			fputc('\n', o->f);
		}
		return;
	}
	text_gap(o);
	inline_text(o, tag, pbuf, sizeof(pbuf));
	w = strlen(pbuf);
	if (n && w < TAG_INDENT - TEXT_INDENT) {
		snprintf(prefix, sizeof(prefix), "%*s%-*s", TEXT_INDENT, "",
			 TAG_INDENT - TEXT_INDENT, pbuf);
		text_fill(o->f, TAG_INDENT, prefix, inline_text(o, body[0], pbuf, sizeof(pbuf)));
		body++, n--;
	} else {
		text_fill(o->f, TEXT_INDENT, NULL, pbuf);
	}
	for (int i = 0; i < n; i++)
		text_fill(o->f, TAG_INDENT, NULL, inline_text(o, body[i], pbuf, sizeof(pbuf)));
}

/* Verbatim lines (TEXT, newline-separated), each LINE_INDENT further in plain text. */
static void out_verbatim(struct man_out *o, const char *text, int indent)
{
	size_t len = strlen(text);

	if (len && text[len - 1] == '\n')
		len--;
	if (o->roff) {
		fputs(indent > TEXT_INDENT ? ".PP\n.RS 4\n.nf\n" : ".PP\n.nf\n", o->f);
		roff_text(o->f, text, len, true);
		fputs(indent > TEXT_INDENT ? "\n.fi\n.RE\n" : "\n.fi\n", o->f);
		return;
	}
	text_gap(o);
	for (const char *s = text, *end = text + len; s < end;) {
		const char *nl = memchr(s, '\n', end - s);
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);

		fprintf(o->f, "%*s%.*s\n", l ? indent : 0, "", (int)l, s);
		s += l + 1;
	}
}

/* Splits a table row into cells (in place); returns how many, at most MAX. */
static int table_cells(char *row, char **cells, int max)
{
	int n = 0;
	char *s = row + 1, *w = s; /* past the leading '|' */

	cells[0] = w;
	for (; *s && n < max; s++) {
		if (s[0] == '\\' && s[1] == '|') {
			*w++ = *++s;
		} else if (*s == '|') {
			*w++ = '\0';
			cells[++n] = w;
		} else {
			*w++ = *s;
		}
	}
	for (int i = 0; i < n; i++) { /* trim */
		char *c = cells[i];
		size_t l;

		c += strspn(c, " ");
		l = strlen(c);
		while (l && c[l - 1] == ' ')
			c[--l] = '\0';
		cells[i] = c;
	}
	return n;
}

static bool table_rule(const char *row)
{
	return row[0] == '|' && strspn(row, "|-: ") == strlen(row);
}

enum { MAX_CELLS = 8 };

struct table {
	char head[MAX_CELLS][128];
	int nhead;
};

static void out_row(struct man_out *o, struct table *t, char *row)
{
	char *cells[MAX_CELLS + 1], parts[MAX_CELLS][1024];
	const char *body[MAX_CELLS];
	int n = table_cells(row, cells, MAX_CELLS), nb = 0;

	if (t->nhead < 0) { /* the first row names the columns */
		for (int i = 0; i < n; i++)
			snprintf(t->head[i], sizeof(t->head[i]), "%s", cells[i]);
		t->nhead = n;
		return;
	}
	for (int i = 1; i < n; i++) {
		if (!cells[i][0])
			continue;
		if (i >= 2 && i < t->nhead && t->head[i][0])
			snprintf(parts[nb], sizeof(parts[nb]), "%s: %s", t->head[i], cells[i]);
		else
			snprintf(parts[nb], sizeof(parts[nb]), "%s", cells[i]);
		body[nb] = parts[nb];
		nb++;
	}
	out_tagged(o, n ? cells[0] : "", body, nb);
}

static void out_options(struct man_out *o, const struct cli_cmd *cmd)
{
	static const struct cli_opt common[] = {
		{ "verbose", 'v', NULL, "more messages; repeat (-vv) for libbpf debug output",
		  .kind = CLI_FLAG },
		{ "help", 'h', NULL, "show the command's options and exit", .kind = CLI_FLAG },
		{ NULL },
	};
	const struct cli_opt *tables[] = { cmd->opts, common };

	for (int t = 0; t < 2; t++) {
		for (const struct cli_opt *opt = tables[t]; opt && opt->name; opt++) {
			char tag[160], mv[96], help[512];
			const char *metavar = cli_opt_metavar(opt, mv, sizeof(mv));
			const char *body = help;
			int n = 0;

			if (opt->short_name)
				n = snprintf(tag, sizeof(tag), "`-%c`, ", opt->short_name);
			snprintf(tag + n, sizeof(tag) - n, "`--%s`%s%s", opt->name,
				 metavar ? " " : "", metavar ? metavar : "");
			cli_opt_help(opt, help, sizeof(help) - 1);
			strcat(help, ".");
			if (o->roff) {
				fputs(".TP 7\n", o->f);
				inline_text(o, tag, NULL, 0);
				fputc('\n', o->f);
				roff_text(o->f, help, strlen(help), true);
				fputc('\n', o->f);
			} else {
				out_tagged(o, tag, &body, 1);
			}
		}
	}
}

/* What the prose's @ lines stand for. */
static void out_directive(struct man_out *o, const struct cli_cmd *cmd, const char *d)
{
	if (!strcmp(d, "@description"))
		out_verbatim(o, cmd->description ? cmd->description : cmd->summary, TEXT_INDENT);
	else if (!strcmp(d, "@options"))
		out_options(o, cmd);
	else if (!strcmp(d, "@examples") && cmd->examples)
		out_verbatim(o, cmd->examples, TEXT_INDENT);
}

/* The block being gathered: a paragraph or a list item, its lines joined. */
struct block {
	char text[8192];
	size_t len;
	bool item;
	char label[8]; /* a numbered item's "N.", else "" */
};

static void block_flush(struct man_out *o, struct block *b)
{
	if (b->len && b->item)
		out_item(o, b->label[0] ? b->label : NULL, b->text);
	else if (b->len)
		out_para(o, b->text);
	b->len = 0;
	b->item = false;
	b->label[0] = '\0';
}

static void block_add(struct block *b, const char *line)
{
	line += strspn(line, " \t");
	if (b->len && b->len < sizeof(b->text) - 1)
		b->text[b->len++] = ' ';
	b->len += snprintf(b->text + b->len, sizeof(b->text) - b->len, "%s", line);
	if (b->len >= sizeof(b->text))
		b->len = sizeof(b->text) - 1;
}

/* "12. text": the length of "12. " in *N. */
static bool numbered(const char *line, size_t *n)
{
	size_t d = strspn(line, "0123456789");

	*n = d + 2;
	return d && d < 4 && line[d] == '.' && line[d + 1] == ' ';
}

/* The prose, line by line, as the comment above describes. */
static void out_prose(struct man_out *o, const struct cli_cmd *cmd, const char *prose)
{
	static struct block b;
	char line[2048], verb[16384];
	struct table t = { .nhead = -1 };
	size_t vlen = 0, n;
	bool in_verb = false, in_table = false;

	b.len = 0;
	for (const char *s = prose; *s;) {
		size_t l = strcspn(s, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)l, s);
		s += l + (s[l] == '\n');
		if (!strncmp(line, "```", 3)) {
			block_flush(o, &b);
			if (in_verb) {
				verb[vlen] = '\0';
				out_verbatim(o, verb, VERB_INDENT);
			}
			in_verb = !in_verb;
			vlen = 0;
			continue;
		}
		if (in_verb) {
			vlen += snprintf(verb + vlen, sizeof(verb) - vlen, "%s\n", line);
			if (vlen >= sizeof(verb))
				vlen = sizeof(verb) - 1;
			continue;
		}
		if (in_table && line[0] != '|') {
			in_table = false;
			t.nhead = -1;
		}
		if (!line[0]) {
			block_flush(o, &b);
		} else if (line[0] == '#') {
			block_flush(o, &b);
			out_heading(o, line[1] == '#' ? 2 : 1, line + strspn(line, "# "));
		} else if (line[0] == '@') {
			block_flush(o, &b);
			out_directive(o, cmd, line);
		} else if (line[0] == '|') {
			block_flush(o, &b);
			in_table = true;
			if (!table_rule(line))
				out_row(o, &t, line);
		} else if (line[0] == '-' && line[1] == ' ') {
			block_flush(o, &b);
			b.item = true;
			block_add(&b, line + 2);
		} else if (numbered(line, &n)) {
			block_flush(o, &b);
			b.item = true;
			snprintf(b.label, sizeof(b.label), "%.*s", (int)n - 1, line);
			block_add(&b, line + n);
		} else {
			block_add(&b, line);
		}
	}
	block_flush(o, &b);
}

static void upper(char *s)
{
	for (; *s; s++)
		*s = toupper((unsigned char)*s);
}

/* man(1)'s header and footer line: LEFT, CENTRE centred, RIGHT at the right margin. */
static void text_line3(FILE *f, const char *left, const char *centre, const char *right)
{
	int l = strlen(left), c = strlen(centre), r = strlen(right);
	int pad1 = (TEXT_WIDTH - c + 1) / 2 - l, pad2 = TEXT_WIDTH - l - pad1 - c - r;

	fprintf(f, "%s%*s%s%*s%s\n", left, pad1 > 1 ? pad1 : 1, "", centre, pad2 > 1 ? pad2 : 1, "",
		right);
}

void man_render(FILE *f, bool roff, const struct cli_cmd *cmd, const char *prose)
{
	struct man_out o = { f, roff, false };
	char title[64], synopsis[256];

	snprintf(title, sizeof(title), "PPBENCH-%s(8)", cmd->name);
	upper(title);
	snprintf(synopsis, sizeof(synopsis), "**ppbench %s** [OPTIONS]%s%s", cmd->name,
		 cmd->args ? " " : "", cmd->args ? cmd->args : "");
	if (roff) {
		fprintf(f, ".TH %.*s 8 \"2026\" \"ppbench %s\" \"System Administration\"\n",
			(int)strlen(title) - 3, title, PPBENCH_VERSION);
		/* no hyphenation, ragged right: the text version breaks lines as words */
		fputs(".nh\n.ad l\n.SH NAME\nppbench\\-", f);
		roff_text(f, cmd->name, strlen(cmd->name), false);
		fputs(" \\- ", f);
		roff_text(f, cmd->summary, strlen(cmd->summary), false);
		fputs("\n.SH SYNOPSIS\n", f);
		inline_text(&o, synopsis, NULL, 0);
		fputc('\n', f);
	} else {
		text_line3(f, title, "System Administration", title);
		snprintf(pbuf, sizeof(pbuf), "ppbench-%s - %s", cmd->name, cmd->summary);
		fputs("\nNAME\n", f);
		text_fill(f, TEXT_INDENT, NULL, pbuf);
		fprintf(f, "\nSYNOPSIS\n");
		text_fill(f, TEXT_INDENT, NULL, inline_text(&o, synopsis, pbuf, sizeof(pbuf)));
	}
	if (prose) {
		out_prose(&o, cmd, prose);
	} else {
		out_heading(&o, 1, "DESCRIPTION");
		out_directive(&o, cmd, "@description");
		out_heading(&o, 1, "OPTIONS");
		out_directive(&o, cmd, "@options");
	}
	if (!roff) {
		fputc('\n', f);
		text_line3(f, "ppbench " PPBENCH_VERSION, "2026", title);
	}
}

const char *man_prose_of(const char *name)
{
	for (const struct man_prose *p = man_prose; p->name; p++)
		if (!strcmp(p->name, name))
			return p->text;
	return NULL;
}

static const struct cli_cmd *find_cmd(const char *name)
{
	for (int i = 0; cli_commands[i]; i++)
		if (!strcmp(cli_commands[i]->name, name))
			return cli_commands[i];
	return NULL;
}

/* man(1) is there to run: an executable 'man' in PATH. */
static bool have_man(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t l = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/man", (int)l, l ? p : ".");
		if (!access(buf, X_OK))
			return true;
		p += l + (p[l] == ':');
	}
	return false;
}

/* The page in man(1), which reads it from its standard input. */
static int show_in_man(const struct cli_cmd *cmd)
{
	FILE *man;
	int status;

	fflush(stdout);
	man = popen("man -l -", "w");
	if (!man) {
		pr_err("cannot run man: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	man_render(man, true, cmd, man_prose_of(cmd->name));
	status = pclose(man);
	return status == 0 ? EXIT_OK : EXIT_FAIL;
}

int cli_help(int argc, char **argv)
{
	bool roff = argc > 0 && !strcmp(argv[0], "--man");
	const struct cli_cmd *cmd;

	if (roff) {
		argc--, argv++;
		if (!argc) {
			cli_print_man(stdout);
			return EXIT_OK;
		}
	}
	if (argc != 1) {
		pr_err("help: expected one command, got %d\n", argc);
		return EXIT_USAGE;
	}
	cmd = find_cmd(argv[0]);
	if (!cmd) {
		pr_err("unknown command '%s'\n", argv[0]);
		return EXIT_USAGE;
	}
	if (!roff && isatty(STDOUT_FILENO) && have_man())
		return show_in_man(cmd);
	man_render(stdout, roff, cmd, man_prose_of(cmd->name));
	return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}
