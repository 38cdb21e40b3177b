// SPDX-License-Identifier: GPL-2.0
/*
 * host-can live-frames|fentry: whether this host's kernel lets root run an
 * XDP program with live frames, or load and attach an fentry program. The
 * tests skip on this verdict, which must not come from the code they test:
 * plain libbpf calls on programs of two instructions, no ppbench object.
 * Exit 0 if it can, 1 (and one line saying what refused) if not, 2 on bad use.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct bpf_insn ret_insns[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int refused(const char *what, int err)
{
	printf("%s: %s\n", what, strerror(err));
	return 1;
}

static int live_frames(void)
{
	unsigned char pkt[64] = { [12] = 0x08, [14] = 0x45 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .repeat = 1);
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "hc_xdp", "GPL", ret_insns, 2, NULL);
	if (fd < 0)
		return refused("loading an XDP program", errno);
	err = bpf_prog_test_run_opts(fd, &o) ? errno : 0;
	close(fd);
	return err ? refused("live-frames BPF_PROG_RUN", err) : 0;
}

static int fentry(void)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_FENTRY);
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int fd, link, id;

	if (!vmlinux)
		return refused("reading the kernel's BTF", errno);
	id = btf__find_by_name_kind(vmlinux, "page_pool_put_unrefed_netmem", BTF_KIND_FUNC);
	if (id < 0)
		id = btf__find_by_name_kind(vmlinux, "page_pool_put_defragged_page", BTF_KIND_FUNC);
	btf__free(vmlinux);
	if (id < 0)
		return refused("finding a page_pool function in BTF", ENOENT);
	o.attach_btf_id = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "hc_fentry", "GPL", ret_insns, 2, &o);
	if (fd < 0)
		return refused("loading an fentry program", errno);
	link = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link < 0)
		return close(fd), refused("attaching an fentry program", errno);
	close(link);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "live-frames"))
		return live_frames();
	if (argc == 2 && !strcmp(argv[1], "fentry"))
		return fentry();
	fprintf(stderr, "usage: host-can live-frames|fentry\n");
	return 2;
}
