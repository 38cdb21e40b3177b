// SPDX-License-Identifier: GPL-2.0
/*
 * png_check FILE.png [--color RRGGBB]...: is a rendered picture more than a
 * blank page? Decodes the PNG itself (zlib for the image data; 8-bit gray,
 * RGB and their alpha forms, not interlaced), composites it on white and
 * requires at least 1% of the pixels to differ from the corner pixel and
 * 3 distinct colours; each --color must cover at least 40 pixels (within 8
 * per channel, to allow for anti-aliasing), and each --at X,Y=RRGGBB must be
 * the pixel at column X, row Y (from the top left) within as much. Prints
 * what it found.
 * Exit 0 ok, 1 blank or colour missing, 2 unreadable or unsupported file.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct image {
	uint32_t w, h;
	int channels; /* 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA */
	uint8_t *idat;
	size_t idat_len;
	uint8_t *rgb; /* w * h * 3, on white */
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "png_check: %s: %s\n", path, why);
	return 2;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc(n);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = n;
	}
	fclose(f);
	return buf;
}

/* Walks the chunks: IHDR for the format, IDAT data concatenated. */
static const char *parse_chunks(const uint8_t *p, size_t len, struct image *im)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	static const int channels[7] = { 1, 0, 3, 0, 2, 0, 4 };
	size_t off = 8;

	if (len < 8 || memcmp(p, sig, 8))
		return "not a PNG file";
	while (off + 12 <= len) {
		uint32_t n = be32(p + off);
		const uint8_t *type = p + off + 4, *data = p + off + 8;

		if (n > len - off - 12)
			return "truncated chunk";
		if (!memcmp(type, "IHDR", 4)) {
			if (n < 13 || data[8] != 8 || data[9] > 6 || !channels[data[9]] || data[12])
				return "unsupported format (need 8-bit, not interlaced)";
			im->w = be32(data);
			im->h = be32(data + 4);
			im->channels = channels[data[9]];
		} else if (!memcmp(type, "IDAT", 4)) {
			uint8_t *d = realloc(im->idat, im->idat_len + n);

			if (!d)
				return "out of memory";
			memcpy(d + im->idat_len, data, n);
			im->idat = d;
			im->idat_len += n;
		} else if (!memcmp(type, "IEND", 4)) {
			return im->channels && im->idat_len ? NULL : "no IHDR or IDAT";
		}
		off += 12 + n;
	}
	return "no IEND chunk";
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undoes the per-scanline filters in place (PNG spec, filter method 0). */
static const char *unfilter(uint8_t *raw, uint32_t w, uint32_t h, int bpp)
{
	size_t stride = (size_t)w * bpp;

	for (uint32_t y = 0; y < h; y++) {
		uint8_t *line = raw + y * (stride + 1), ft = line[0], *cur = line + 1;
		uint8_t *prev = y ? raw + (y - 1) * (stride + 1) + 1 : NULL;

		if (ft > 4)
			return "bad filter type";
		for (size_t i = 0; i < stride; i++) {
			int a = i >= (size_t)bpp ? cur[i - bpp] : 0, b = prev ? prev[i] : 0;
			int c = prev && i >= (size_t)bpp ? prev[i - bpp] : 0;
			int add[5] = { 0, a, b, (a + b) / 2, paeth(a, b, c) };

			cur[i] += add[ft];
		}
	}
	return NULL;
}

static const char *decode(struct image *im)
{
	size_t stride = (size_t)im->w * im->channels;
	uLongf out_len = (stride + 1) * im->h;
	uint8_t *raw = malloc(out_len);
	const char *err = NULL;

	im->rgb = malloc((size_t)im->w * im->h * 3);
	if (!raw || !im->rgb)
		err = "out of memory";
	else if (uncompress(raw, &out_len, im->idat, im->idat_len) != Z_OK ||
		 out_len != (stride + 1) * im->h)
		err = "corrupt image data";
	else
		err = unfilter(raw, im->w, im->h, im->channels);
	for (size_t i = 0; !err && i < (size_t)im->w * im->h; i++) {
		const uint8_t *px =
			raw + (i / im->w) * (stride + 1) + 1 + (i % im->w) * im->channels;
		int gray = im->channels < 3;
		int alpha = im->channels % 2 == 0 ? px[im->channels - 1] : 255;

		for (int c = 0; c < 3; c++) {
			int v = px[gray ? 0 : c];

			im->rgb[i * 3 + c] = (v * alpha + 255 * (255 - alpha)) / 255;
		}
	}
	free(raw);
	return err;
}

static size_t count_near(const struct image *im, unsigned int rgb)
{
	size_t n = 0;

	for (size_t i = 0; i < (size_t)im->w * im->h; i++) {
		const uint8_t *p = im->rgb + i * 3;

		n += abs(p[0] - (int)(rgb >> 16)) <= 8 && abs(p[1] - (int)(rgb >> 8 & 0xff)) <= 8 &&
		     abs(p[2] - (int)(rgb & 0xff)) <= 8;
	}
	return n;
}

/* "X,Y=RRGGBB": whether the pixel there has that colour. */
static bool pixel_is(const char *path, const struct image *im, const char *spec)
{
	unsigned int x, y, rgb;
	const uint8_t *p;
	bool ok;

	if (sscanf(spec, "%u,%u=%x", &x, &y, &rgb) != 3 || x >= im->w || y >= im->h) {
		printf("  --at %s: no such pixel - MISSING\n", spec);
		return false;
	}
	p = im->rgb + ((size_t)y * im->w + x) * 3;
	ok = abs(p[0] - (int)(rgb >> 16)) <= 8 && abs(p[1] - (int)(rgb >> 8 & 0xff)) <= 8 &&
	     abs(p[2] - (int)(rgb & 0xff)) <= 8;
	printf("  %s: pixel %u,%u is %02x%02x%02x%s\n", path, x, y, p[0], p[1], p[2],
	       ok ? "" : " - NOT IT");
	return ok;
}

static int check(const char *path, const struct image *im, char **colors, int ncolors, char **at,
		 int nat)
{
	size_t npx = (size_t)im->w * im->h, differ = 0, distinct = 0;
	uint8_t *seen = calloc(1 << 21, 1); /* one bit per 24-bit colour */
	int ok;

	if (!seen)
		return fail(path, "out of memory");
	for (size_t i = 0; i < npx; i++) {
		const uint8_t *p = im->rgb + i * 3;
		uint32_t c = p[0] << 16 | p[1] << 8 | p[2];

		differ += memcmp(p, im->rgb, 3) != 0;
		distinct += !(seen[c >> 3] & (1 << (c & 7)));
		seen[c >> 3] |= 1 << (c & 7);
	}
	free(seen);
	ok = differ * 100 >= npx && distinct >= 3;
	printf("%s: %ux%u, %zu colours, %.1f%% non-background pixels%s\n", path, im->w, im->h,
	       distinct, 100.0 * differ / npx, ok ? "" : " - BLANK");
	for (int i = 0; i < ncolors; i++) {
		size_t n = count_near(im, strtoul(colors[i], NULL, 16));

		printf("  colour #%s: %zu pixels%s\n", colors[i], n, n >= 40 ? "" : " - MISSING");
		ok &= n >= 40;
	}
	for (int i = 0; i < nat; i++)
		ok &= pixel_is(path, im, at[i]);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct image im = { 0 };
	char *colors[16], *at[16];
	int ncolors = 0, nat = 0, ret;
	const char *err;
	uint8_t *file;
	size_t len = 0;

	for (int i = 2; i + 1 < argc && ncolors < 16 && nat < 16; i += 2)
		if (!strcmp(argv[i], "--color"))
			colors[ncolors++] = argv[i + 1] + (argv[i + 1][0] == '#');
		else if (!strcmp(argv[i], "--at"))
			at[nat++] = argv[i + 1];
	if (argc < 2 || argc % 2 != 0) {
		fprintf(stderr,
			"Usage: png_check FILE.png [--color RRGGBB]... [--at X,Y=RRGGBB]...\n");
		return 2;
	}
	file = read_file(argv[1], &len);
	if (!file)
		return fail(argv[1], "cannot read");
	err = parse_chunks(file, len, &im);
	err = err ?: decode(&im);
	ret = err ? fail(argv[1], err) : check(argv[1], &im, colors, ncolors, at, nat);
	free(file);
	free(im.idat);
	free(im.rgb);
	return ret;
}
