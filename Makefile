# SPDX-License-Identifier: GPL-2.0
#
# ppbench build: bpf/*.bpf.c -> build/*.bpf.o -> build/*.skel.h -> build/ppbench
# (the libbpf-bootstrap pipeline). Everything generated lands in build/.
#
#   make            build build/ppbench, its manual pages (build/ppbench*.8, lowdown's
#                   troff of each command's CMD.md and the option tables) and its bash
#                   completion (build/ppbench.bash, from the option tables)
#   make test       install missing packages, build, run the whole suite
#   make bench      install missing packages, build, run the benchmark
#   make bench-check the benchmark, then its self-check through compare's gate
#                   (a noise profile, an A/A pair, a known regression), bench's
#                   overhead and gen -> load rounds: several minutes
#   make fuzz       build the fuzz targets (tests/fuzz/) and run each FUZZ_SECONDS
#   make V=1        show the commands

PREFIX		?= /usr/local
DESTDIR		?=
BINDIR		?= $(PREFIX)/sbin
MANDIR		?= $(PREFIX)/share/man
BASHCOMPDIR	?= $(PREFIX)/share/bash-completion/completions
# ppbench vm's guest side: scripts/vm/ and the static ppbench the guests run.
LIBDIR		?= $(PREFIX)/lib/ppbench
CLANG		?= clang
LLVM_STRIP	?= llvm-strip
NM		?= nm
BPFTOOL		?= bpftool
CC		?= gcc
PKG_CONFIG	?= pkg-config
# Where the running kernel's BTF lives; override to build against another kernel.
VMLINUX_BTF	?= /sys/kernel/btf/vmlinux
# STATIC=1 links everything statically (the kernel-matrix guests have no libraries).
# It builds in its own directory by default: the objects do not differ, but a
# shared build/ppbench would otherwise count as up to date and never be relinked.
STATIC		?= 0
# SANITIZE=1 builds with clang, AddressSanitizer, UBSan and libFuzzer's
# coverage hooks, in build/asan: the unit and BPF tests run once more from
# there (make test), and the fuzz targets (tests/fuzz/) link its objects.
# SAN_OPT: -O0 compiles five times faster, which the suite's budget wants;
# make fuzz builds with -O1 in build/fuzz, where a campaign runs twice as fast.
SANITIZE	?= 0
SAN_OPT		?= -O0
# CROSS=arm64 builds the static ppbench of the arm64 guests (ppbench vm --arch
# arm64, the kernel matrix's arm64 guest) in build/arm64 on this x86-64 host:
# Debian's cross compiler against SYSROOT, Debian's arm64 packages unpacked
# by scripts/vm/sysroot.sh, and BPF objects built for arm64 against
# VMLINUX_BTF, an arm64 kernel's BTF (scripts/vm/cross.sh sets both).
CROSS		?=
ifeq ($(CROSS),arm64)
CROSS_TRIPLET	:= aarch64-linux-gnu
BUILD		?= build/arm64
CC		:= $(CROSS_TRIPLET)-gcc
STATIC		:= 1
ifeq ($(SYSROOT),)
$(error CROSS=arm64 needs SYSROOT, Debian's arm64 packages unpacked (scripts/vm/cross.sh))
endif
CROSS_FLAGS	:= --sysroot=$(SYSROOT)
# Kernels since 6.19 are built with -fms-extensions and embed named structs
# as anonymous members, which their BTF, and so vmlinux.h, keeps.
BPF_ARCH_FLAGS	:= -fms-extensions -Wno-microsoft-anon-tag
PKG_CONFIG	:= PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
		   PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(CROSS_TRIPLET)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
		   pkg-config
else ifneq ($(CROSS),)
$(error CROSS=$(CROSS): the only cross build is CROSS=arm64)
endif
ifeq ($(SANITIZE),1)
BUILD		?= build/asan
CC		:= $(CLANG)
SAN_FLAGS	:= $(SAN_OPT) -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link \
		   -fno-sanitize-recover=undefined
else ifeq ($(STATIC),1)
BUILD		?= build/static
else
BUILD		?= build
endif
SAN_BUILD	:= build/asan
FUZZ_BUILD	:= build/fuzz
# The sanitized build is the suite's second: it compiles on every CPU.
NPROC		:= $(shell nproc 2>/dev/null || echo 1)
FUZZ_SECONDS	?= 60
FUZZ_JOBS	?= 1
VERSION		:= 0.1.0
ARCH		:= $(if $(CROSS),$(CROSS),$(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/'))

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-9s %s\n' "$(1)" "$(2)";
endif

BPF_SRCS	:= $(wildcard bpf/*.bpf.c)
BPF_OBJS	:= $(patsubst bpf/%.bpf.c,$(BUILD)/%.bpf.o,$(BPF_SRCS))
SKELS		:= $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))
# user/core/: the measuring core, a program of its own (core/main.c), the one
# vm's guests run; user/lab/: vm and its profiler, A/B, bisect, compare, trend,
# plot, export, report, a directory each; user/ppbench.c and commands.c: the program
# with every command. (user/lab/vm/qprof/ is the qemu plugin of vm --profile,
# built apart below.)
CORE_OBJS	:= $(patsubst user/%.c,$(BUILD)/user/%.o,$(filter-out user/core/main.c, \
		   $(wildcard user/core/*/*.c)))
LAB_OBJS	:= $(patsubst user/%.c,$(BUILD)/user/%.o,$(wildcard user/lab/*/*.c)) \
		   $(BUILD)/user/commands.o
USER_OBJS	:= $(CORE_OBJS) $(LAB_OBJS) $(BUILD)/user/ppbench.o $(BUILD)/user/core/main.o
USER_DEPS	:= $(USER_OBJS:.o=.d)
# Who may include whom, and call whom (besides itself and include/): the
# layers, each a directory of user/, stated here once. make checks both on
# every build (scripts/layers.sh, from the objects' dependency files and
# symbols): a file that includes across a rule, or calls across one, fails
# the build. Lab directories each hold one feature.
LAYERS		:= core/sys: \
		   core/instr:core/sys \
		   core/model:core/sys \
		   core/cli:core/sys \
		   core/loader:core/model,core/sys \
		   core/report:core/model,core/sys \
		   core/engine:core/instr,core/loader,core/model,core/sys \
		   core/cmd:core/cli,core/engine,core/instr,core/loader,core/model,core/report,core/sys \
		   core:core/cli,core/cmd,core/loader,core/model,core/sys \
		   lab/compare:core/cli,core/model,core/report,core/sys \
		   lab/vm:lab/compare,core/cli,core/model,core/report,core/sys \
		   lab/plot:lab/vm,core/cli,core/model,core/report,core/sys \
		   lab/trend:lab/plot,lab/compare,core/cli,core/model,core/report,core/sys \
		   lab/export:lab/trend,lab/compare,core/cli,core/model,core/report,core/sys \
		   lab/bisect:lab/vm,lab/compare,core/cli,core/model,core/report,core/sys \
		   lab/report:lab/export,lab/plot,lab/vm,lab/compare,core/cli,core/model,core/report,core/sys \
		   .:core/cli,core/cmd,core/loader,core/model,core/sys,lab/compare,lab/vm,lab/plot,lab/trend,lab/export,lab/bisect,lab/report
# (the plugin's pure logic, for the unit tests: its decoders, protocol and shadow stack)
QPDECODE_OBJ	:= $(BUILD)/user/lab/vm/qprof/qprof_logic.o $(BUILD)/user/lab/vm/qprof/qpstack.o
TEST_TOOLS	:= $(BUILD)/tests/schema_check $(BUILD)/tests/png_check $(BUILD)/tests/udp_sink \
		   $(BUILD)/tests/fail_pthread.so $(BUILD)/tests/ppb-burn $(BUILD)/tests/host-can
UNIT_SRCS	:= $(filter-out tests/unit/main.c,$(wildcard tests/unit/*.c))
UNIT_TEST_OBJS	:= $(patsubst tests/%.c,$(BUILD)/tests/obj/%.o,$(UNIT_SRCS))
# BPF tests: our XDP programs under BPF_PROG_RUN, built with the unit runner
# (tests/unit/main.c) and the user objects they drive. loader/ needs only
# model/ and sys/; cli/ would need ppbench.c's command table.
BPF_TEST_SRCS	:= $(wildcard tests/bpf/*.c)
BPF_TEST_TOBJS	:= $(patsubst tests/%.c,$(BUILD)/tests/obj/%.o,$(BPF_TEST_SRCS))
BPF_TEST_OBJS	:= $(filter $(BUILD)/user/core/loader/% $(BUILD)/user/core/model/% \
			    $(BUILD)/user/core/sys/%, $(CORE_OBJS))
# The runner and the tests, as the host's bpf_tests and the guests' static one link them.
BPF_TESTS_DEPS	:= tests/unit/main.c tests/unit/unit.h $(BUILD)/tests/bpf_tests.h \
		   $(BPF_TEST_TOBJS) $(BPF_TEST_OBJS)
BPF_TESTS_BUILD	:= -Iuser/lab -DTEST_GROUP='"bpf"' -DTESTS_H='"bpf_tests.h"' -Itests/unit \
		   -I$(BUILD)/tests tests/unit/main.c $(BPF_TEST_TOBJS) $(BPF_TEST_OBJS)

# clang -target bpf does not see the multiarch include dir; add the host's
# default system include paths after its own (as libbpf-bootstrap does).
CLANG_BPF_SYS_INCLUDES = $(shell $(CLANG) -v -E - </dev/null 2>&1 \
	| sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

BPF_CFLAGS	:= -g -O2 -Wall -Werror -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) \
		   -I$(BUILD) -Iinclude -Ibpf $(BPF_ARCH_FLAGS)
USER_CFLAGS	:= -g -O2 -Wall -Wextra -Werror -Wno-missing-field-initializers \
		   -D_GNU_SOURCE -DPPBENCH_VERSION='"$(VERSION)"' -DPPBENCH_LIBDIR='"$(LIBDIR)"' \
		   -I$(BUILD) -Iinclude -Iuser/core \
		   $(shell $(PKG_CONFIG) --cflags jansson) $(CROSS_FLAGS) $(SAN_FLAGS) $(CFLAGS)
# The core sees only itself; the lab and the tests see both.
LAB_INC		:= -Iuser/lab
$(CORE_OBJS) $(BUILD)/user/core/main.o: LAB_INC :=
PC_STATIC	= $(if $(filter 1,$(STATIC)),--static)
# jansson reads JSON (user/core/model/jsonparse.c): the model's only library.
JSON_LIBS	= $(shell $(PKG_CONFIG) $(PC_STATIC) --libs jansson)
# What ppbench links, through pkg-config with $(1) (--static, or nothing); lowdown turns the
# manual pages' Markdown into troff and text (user/core/cli/manpage.c).
link_libs	= $(shell $(PKG_CONFIG) $(1) --libs libxdp libbpf lowdown) \
		  $(shell $(PKG_CONFIG) $(1) --libs jansson) -lelf -lz -lm -lpthread $(if $(1),-lzstd)
USER_LIBS	= $(call link_libs,$(PC_STATIC))
# The lab alone reads the kernel's DWARF (vm --profile's lines: libdw, elfutils);
# the core never links it.
LAB_LIBS	:= -ldw
USER_LDFLAGS	= $(if $(filter 1,$(STATIC)),-static) $(CROSS_FLAGS) $(SAN_FLAGS) $(LDFLAGS)
# Each command's manual page: the prose beside it (user/core/cmd/CMD.md,
# user/lab/CMD/CMD.md; ppbench(8)'s is user/core/cli/ppbench.md) is compiled
# into the binary, so that 'ppbench help CMD' needs no file at run time, and
# the binary writes the pages through lowdown (ppbench help --man CMD). The
# core program carries its own commands' only.
CORE_PROSE	:= $(sort $(wildcard user/core/cmd/*.md))
MAN_PROSE	:= $(CORE_PROSE) $(sort $(wildcard user/lab/*/*.md))
MAN_PAGES	:= $(BUILD)/ppbench.8 $(patsubst %.md,$(BUILD)/ppbench-%.8,$(notdir $(MAN_PROSE)))
GEN_OBJS	:= $(BUILD)/gen/man_prose.o
CORE_PROG_OBJS	:= $(CORE_OBJS) $(BUILD)/user/core/main.o $(BUILD)/gen/core_prose.o
# Fuzz targets: one file each, tests/fuzz/fuzz_NAME.c (tests/fuzz/fuzz.h).
FUZZ_SRCS	:= $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS	:= $(patsubst tests/fuzz/%.c,$(BUILD)/%,$(FUZZ_SRCS))

.PHONY: FORCE all test test-unit test-kernels bench bench-check vm-check install install-guest \
	arm64-guest clean help deps \
	format format-check fuzz fuzz-targets static-guest
.DELETE_ON_ERROR:
.SECONDARY:

# ppbench vm --profile's qemu TCG plugin (user/lab/vm/qprof/): one source, a build
# per plugin API version (which qemu takes which: user/lab/vm/vm_profile.c), loaded
# by qemu on the host, never linked into ppbench. Host builds only.
QPROF_SRCS	:= user/lab/vm/qprof/qprof.c user/lab/vm/qprof/qprof_logic.c \
		   user/lab/vm/qprof/qpstack.c
QPROF_SOS	:= $(if $(CROSS)$(filter 1,$(STATIC) $(SANITIZE)),,$(BUILD)/qprof-v1.so $(BUILD)/qprof-v3.so)
QPROF_CFLAGS	:= -g -O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden -pthread \
		   -Iinclude -Iuser/lab $(CFLAGS)

all: $(BUILD)/ppbench $(if $(filter 1,$(STATIC)),,$(BUILD)/ppbench-core) $(MAN_PAGES) $(BUILD)/ppbench.bash $(QPROF_SOS)

help:
	@echo 'Targets:'
	@echo '  all (default)  build $(BUILD)/ppbench and its manual pages ($(BUILD)/ppbench*.8: the'
	@echo '                 option tables and each command's CMD.md, through lowdown)'
	@echo '  test           install missing packages, build, run unit, bpf, integration, kernel-matrix tests'
	@echo '  test-unit      build and run only the unit tests'
	@echo '  test-kernels   run only the qemu kernel matrix (Debian 6.1, 6.12 and the newest Debian kernel)'
	@echo '  bench          install missing packages, build, run the benchmark (results are reported)'
	@echo '  bench-check    the same, then the self-check (noise profile, A/A, a known regression),'
	@echo '                 the overhead and the gen -> load rounds: several minutes'
	@echo '  vm-check       the instruction clock'"'"'s self-check: a known injection in qemu guests'
	@echo '                 (ppbench vm) comes out in slow only, through compare'"'"'s gate'
	@echo '                 (VM_CHECK_PAIRS=1, VM_CHECK_KERNEL=newest; VM_CHECK_PROFILE=1: and in'
	@echo '                 the profiles, in the burner'"'"'s own program only)'
	@echo '  fuzz           build the fuzz targets ($(FUZZ_BUILD)/) and run each FUZZ_SECONDS'
	@echo '                 (default 60); stops at the first crash, leak or sanitizer report'
	@echo '  install        install ppbench, its man pages, its bash completion and vm'"'"'s scripts'
	@echo '                 (LIBDIR) under DESTDIR/PREFIX (default $(PREFIX))'
	@echo '  install-guest  build and install the static ppbench vm'"'"'s guests run (LIBDIR); ARM64=1'
	@echo '                 adds the arm64 guests'"'"' (vm --arch arm64), cross-built'
	@echo '  arm64-guest    cross-build that static arm64 ppbench (build/arm64/ppbench)'
	@echo '  format         apply clang-format (.clang-format, kernel style) to every C source'
	@echo '  clean          remove $(BUILD)/'
	@echo 'Variables: V=1 (show commands), PREFIX, DESTDIR, VMLINUX_BTF, STATIC=1, TESTS="name ..."'
	@echo '           KERNELS="6.1 6.12 newest", GUEST_TESTS="probe_* env_veth" (test-kernels)'
	@echo '           FUZZ_SECONDS=60, FUZZ_TARGETS="result cli ...", FUZZ_JOBS=1 (fuzz),'
	@echo '           SANITIZE=1 (build with ASan, UBSan and fuzzing hooks in $(SAN_BUILD))'

$(BUILD) $(BUILD)/tests:
	$(Q)mkdir -p $@

# vmlinux.h comes from the BTF of the kernel we build on (a cross build: of the
# kernel it names, remade when that changes); CO-RE relocates it onto
# whatever kernel ppbench later runs on.
$(BUILD)/vmlinux.h: $(if $(CROSS),$(VMLINUX_BTF)) | $(BUILD)
	$(Q)if [ ! -r "$(VMLINUX_BTF)" ]; then \
		echo "error: no kernel BTF at $(VMLINUX_BTF): ppbench needs a kernel built with" \
		     "CONFIG_DEBUG_INFO_BTF=y (or set VMLINUX_BTF=/path/to/vmlinux)" >&2; exit 1; fi
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

$(BUILD)/%.bpf.o: bpf/%.bpf.c $(BUILD)/vmlinux.h include/ppbench.h $(wildcard bpf/*.bpf.h) | $(BUILD)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(CLANG_BPF_SYS_INCLUDES) -c $< -o $@.tmp.o
	$(Q)$(BPFTOOL) gen object $@ $@.tmp.o && rm -f $@.tmp.o
	$(Q)$(LLVM_STRIP) -g $@ 2>/dev/null || true

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

# -MMD -MP: each object depends on the headers it includes (the .d files).
# Objects that include a generated skeleton need the skeletons to exist
# before their first build: an order-only prerequisite.
$(BUILD)/user/%.o: user/%.c | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) $(LAB_INC) -MMD -MP -c $< -o $@

-include $(USER_DEPS) $(QPDECODE_OBJ:.o=.d)

$(BUILD)/qprof-v%.so: $(QPROF_SRCS) user/lab/vm/qprof/qprof_logic.h user/lab/vm/qprof/qpstack.h \
		      include/vmprof.h | $(BUILD)
	$(call msg,PLUGIN,$@)
	$(Q)$(CC) $(QPROF_CFLAGS) -DQPROF_API=$* $(QPROF_SRCS) -o $@

# Every object's includes and calls against LAYERS, before any link.
# A static build is the guests' core program: it compiles, and checks, no lab
# object (the lab's libraries, libdw among them, are not in a cross sysroot).
LAYER_OBJS	:= $(if $(filter 1,$(STATIC)),$(CORE_OBJS) $(BUILD)/user/core/main.o,$(USER_OBJS))
$(BUILD)/layers.ok: scripts/layers.sh $(LAYER_OBJS)
	$(call msg,LAYERS,$(BUILD)/user)
	$(Q)NM=$(NM) scripts/layers.sh $(BUILD) '$(LAYERS)' $(LAYER_OBJS) && touch $@

# STATIC=1 builds the guests' program, the measuring core alone.
ifeq ($(STATIC),1)
$(BUILD)/ppbench: $(CORE_PROG_OBJS) | $(BUILD)/layers.ok
else
$(BUILD)/ppbench: $(CORE_OBJS) $(LAB_OBJS) $(BUILD)/user/ppbench.o $(GEN_OBJS) | $(BUILD)/layers.ok
endif
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ $(USER_LIBS) $(if $(filter 1,$(STATIC)),,$(LAB_LIBS)) -o $@

# The measuring core linked alone, as the guests run it: a core object that
# calls the lab fails this link.
$(BUILD)/ppbench-core: $(CORE_PROG_OBJS) | $(BUILD)/layers.ok
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ $(USER_LIBS) -o $@

# The x86-64 guests' static ppbench (ppbench vm, the kernel matrix, make
# install-guest): the core's objects of this build, which a static build's do
# not differ from, linked statically: one link, not a second compile.
ifeq ($(STATIC)$(SANITIZE)$(CROSS),00)
build/static/ppbench: $(CORE_PROG_OBJS) | $(BUILD)/layers.ok
	$(call msg,STATIC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -static $(LDFLAGS) $^ $(call link_libs,--static) -o $@

# The BPF tests for the x86-64 guests, whose kernels run live frames that a
# host may refuse (the kernel matrix's bpf_programs).
build/static/bpf_tests: $(BPF_TESTS_DEPS)
	$(call msg,STATIC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -static $(LDFLAGS) $(BPF_TESTS_BUILD) $(call link_libs,--static) -o $@
endif

# A text's lines as the lines of a C string literal.
C_STRING	= sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t  "/' -e 's/$$/\\n"/'

# The prose of the pages as C strings, one per command (struct man_prose):
# every command's, and the core program's.
$(BUILD)/gen/man_prose.c: PROSE = $(MAN_PROSE)
$(BUILD)/gen/core_prose.c: PROSE = $(CORE_PROSE)
$(BUILD)/gen/%_prose.c: user/core/cli/ppbench.md $(MAN_PROSE) Makefile
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q){ echo '/* Generated by the Makefile from the commands'"'"' CMD.md: their pages'"'"' prose. */'; \
	  echo '#include "cli/manpage.h"'; echo; \
	  echo 'const struct man_prose man_prose[] = {'; \
	  for f in user/core/cli/ppbench.md $(PROSE); do \
		n=$${f##*/}; printf '\t{ "%s",\n' "$${n%.md}"; \
		$(C_STRING) "$$f"; \
		printf '\t},\n'; \
	  done; \
	  printf '\t{ NULL },\n};\n'; } > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/%_prose.o: $(BUILD)/gen/%_prose.c user/core/cli/manpage.h user/core/cli/cli.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

# The completion's functions, completion.c's string (less the file's header).
$(BUILD)/user/core/cli/completion.o: $(BUILD)/gen/completion.inc
$(BUILD)/gen/completion.inc: user/core/cli/completion.bash
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)sed '1,/^$$/d' $< | $(C_STRING) > $@.tmp && mv $@.tmp $@

# The man pages come from the same command tables as --help, and the prose.
$(BUILD)/ppbench.8: $(BUILD)/ppbench
	$(call msg,MAN,$@)
	$(Q)$(BUILD)/ppbench help --man > $@.tmp && mv $@.tmp $@

$(BUILD)/ppbench-%.8: $(BUILD)/ppbench
	$(call msg,MAN,$@)
	$(Q)$(BUILD)/ppbench help --man $* > $@.tmp && mv $@.tmp $@

# The bash completion, from the same tables (user/core/cli/completion.c, .bash).
$(BUILD)/ppbench.bash: $(BUILD)/ppbench
	$(call msg,GEN,$@)
	$(Q)$(BUILD)/ppbench help --completion > $@.tmp && mv $@.tmp $@

# Unit and BPF tests: every function of tests/unit/*.c (tests/bpf/*.c) whose
# name starts with test_ is a test. They are found in the compiled objects
# (nm: the defined global test_ functions), so a test is found however it is
# written; a static one the compiler keeps is a helper, and one nothing calls
# fails the build (-Wunused-function).
$(BUILD)/tests/obj/%.o: tests/%.c tests/unit/unit.h | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -Iuser/lab -Itests/unit -MMD -MP -c $< -o $@

-include $(UNIT_TEST_OBJS:.o=.d) $(BPF_TEST_TOBJS:.o=.d)

define TEST_LIST
	$(call msg,GEN,$@)
	$(Q)nm -n --defined-only $(filter %.o,$^) | \
		awk '$$2 == "T" && $$3 ~ /^test_/ { print "DEFINE_TEST(" $$3 ")" }' > $@.tmp && mv $@.tmp $@
endef

# Which objects there are: a test file removed changes the list, and the list
# is made again.
$(BUILD)/tests/%.objs: FORCE | $(BUILD)/tests
	$(Q)echo $(if $(filter unit,$*),$(UNIT_TEST_OBJS),$(BPF_TEST_TOBJS)) | cmp -s - $@ || \
		echo $(if $(filter unit,$*),$(UNIT_TEST_OBJS),$(BPF_TEST_TOBJS)) > $@

$(BUILD)/tests/unit_tests.h: $(UNIT_TEST_OBJS) $(BUILD)/tests/unit.objs
	$(TEST_LIST)

# The archive gives each test what it calls (the command tables for those of
# the command line).
$(BUILD)/tests/unit: tests/unit/main.c tests/unit/unit.h $(BUILD)/tests/unit_tests.h \
		     $(UNIT_TEST_OBJS) $(QPDECODE_OBJ) $(BUILD)/libppbench.a
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_CFLAGS) -Iuser/lab -Itests/unit -I$(BUILD)/tests tests/unit/main.c $(UNIT_TEST_OBJS) \
		$(QPDECODE_OBJ) $(BUILD)/libppbench.a $(USER_LIBS) $(LAB_LIBS) -lm -o $@

# BPF tests: the same runner, its own group name and list of tests.
$(BUILD)/tests/bpf_tests.h: $(BPF_TEST_TOBJS) $(BUILD)/tests/bpf.objs
	$(TEST_LIST)

$(BUILD)/tests/bpf_tests: $(BPF_TESTS_DEPS)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(USER_LDFLAGS) $(BPF_TESTS_BUILD) $(USER_LIBS) -o $@

# The objects of every command, without a main(), in one archive for the
# fuzz targets and the tests: each links only what it uses.
$(BUILD)/libppbench.a: $(CORE_OBJS) $(LAB_OBJS) $(GEN_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(BUILD)/libppbench.a
	$(call msg,FUZZ,$@)
	$(Q)$(CC) $(USER_CFLAGS) -fsanitize=fuzzer -Iuser/lab -Itests/fuzz $< $(BUILD)/libppbench.a \
		$(USER_LIBS) $(LAB_LIBS) -o $@

ifeq ($(SANITIZE),1)
fuzz-targets: $(FUZZ_BINS)
else
fuzz-targets:
	$(Q)echo "fuzz-targets: build them with SANITIZE=1 (make fuzz does)" >&2; exit 2
endif

$(BUILD)/tests/schema_check: tests/tools/schema_check.c $(BUILD)/libppbench.a | $(BUILD)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_CFLAGS) -Iuser/lab $< $(BUILD)/libppbench.a $(JSON_LIBS) -lm -o $@

# An LD_PRELOAD shim whose pthread_create fails: the error path of gen's threads.
$(BUILD)/tests/fail_pthread.so: tests/tools/fail_pthread.c | $(BUILD)/tests
	$(call msg,LIB,$@)
	$(Q)$(CC) $(USER_CFLAGS) -shared -fPIC $< -o $@

# make bench-check's known regression: a tp_btf program that burns time per page release.
$(BUILD)/tests/burn.bpf.o: tests/tools/burn.bpf.c $(BUILD)/vmlinux.h | $(BUILD)/tests
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(CLANG_BPF_SYS_INCLUDES) -c $< -o $@

$(BUILD)/tests/burn.skel.h: $(BUILD)/tests/burn.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name burn_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/ppb-burn: tests/tools/burn.c $(BUILD)/tests/burn.skel.h
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_CFLAGS) -I$(BUILD)/tests $(USER_LDFLAGS) $< $(USER_LIBS) -o $@

# The README's snapshot-time figure (make bench-check builds it; no test runs it).
$(BUILD)/tests/snap-time: tests/tools/snap_time.c $(BPF_TEST_OBJS) $(SKELS) | $(BUILD)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(USER_LDFLAGS) $< $(BPF_TEST_OBJS) $(USER_LIBS) -o $@

$(BUILD)/tests/udp_sink: tests/tools/udp_sink.c | $(BUILD)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_CFLAGS) $< -o $@

# What the host's kernel refuses, asked without ppbench's code (tests/lib.sh).
$(BUILD)/tests/host-can: tests/tools/host_can.c | $(BUILD)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_CFLAGS) $< $(USER_LIBS) -o $@

$(BUILD)/tests/png_check: tests/tools/png_check.c | $(BUILD)/tests
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(USER_CFLAGS) $< -lz -o $@

deps:
	$(Q)scripts/install-deps.sh $(DEPS_FLAGS)

test: DEPS_FLAGS = --tests --kernels
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all $(BUILD)/tests/unit $(BUILD)/tests/bpf_tests \
		$(TEST_TOOLS)
	$(Q)TEST_SAN_BUILD='$(MAKE) --no-print-directory -j$(NPROC) SANITIZE=1 \
		$(SAN_BUILD)/tests/unit $(SAN_BUILD)/tests/bpf_tests fuzz-targets' tests/run.sh $(TESTS)

test-unit: $(BUILD)/tests/unit
	$(Q)tests/run.sh unit

# The matrix builds its own static ppbench (build/static) for the guests.
# KERNELS="6.12" and GUEST_TESTS="probe_*" narrow it (tests/README.md, "Kernel matrix").
test-kernels: DEPS_FLAGS = --kernels
test-kernels: deps
	$(Q)PPB_KERNELS='$(KERNELS)' PPB_GUEST_TESTS='$(GUEST_TESTS)' tests/run.sh kernels

# FUZZ_TARGETS="result cli" runs only those (the part of fuzz_NAME after fuzz_);
# FUZZ_JOBS=2 runs two at once.
fuzz: DEPS_FLAGS = --tests
fuzz: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) SANITIZE=1 SAN_OPT=-O1 BUILD=$(FUZZ_BUILD) \
		fuzz-targets
	$(Q)FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_JOBS='$(FUZZ_JOBS)' FUZZ_BIN_DIR=$(FUZZ_BUILD) \
		scripts/fuzz.sh $(FUZZ_TARGETS)

# The first command on a fresh clone: the build on every CPU, then the table.
bench: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)scripts/bench.sh

bench-check: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all $(BUILD)/tests/ppb-burn $(BUILD)/tests/snap-time
	$(Q)scripts/bench.sh --check

# The instruction clock's self-check in qemu guests (scripts/vm-check.sh).
vm-check: DEPS_FLAGS = --kernels
vm-check: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/vm-check.sh

# ppbench vm's guest side: its scripts and the static ppbench the guests run
# (built as the kernel matrix builds it, under the same lock).
VM_FILES	:= scripts/vm/run scripts/vm/init scripts/vm/kernel.sh scripts/vm/guest.sh \
		   scripts/vm/sysroot.sh scripts/vm/cross.sh \
		   scripts/vm/watch.sh scripts/vm/qemu-get.sh

static-guest:
	$(Q)mkdir -p build && flock build/.static.lock $(MAKE) --no-print-directory build/static/ppbench

# The arm64 guests' static ppbench (ppbench vm --arch arm64), built as vm and
# the kernel matrix build it: Debian's cross compiler, and Debian's arm64
# packages and kernel BTF in private caches (scripts/vm/cross.sh). make
# install ARM64=1 installs it beside the x86-64 one.
arm64-guest:
	$(call msg,CROSS,build/arm64/ppbench)
	$(Q)w=$$(mktemp -d) && trap 'rm -rf "$$w"' EXIT && \
		VM_SAY=arm64-guest bash -c 'set -e; . scripts/vm/kernel.sh; . scripts/vm/sysroot.sh; \
		. scripts/vm/cross.sh; VM_WORK=$$1; cross_build "$$PWD"' arm64-guest "$$w"

# ppbench, its pages, its completion, vm's scripts and qemu plugins. The static
# ppbench the guests run is install-guest's: it takes a static build of every
# library, which a packager may not have.
install: $(BUILD)/ppbench $(MAN_PAGES) $(BUILD)/ppbench.bash $(QPROF_SOS)
	$(call msg,INSTALL,$(DESTDIR)$(BINDIR)/ppbench)
	$(Q)install -D -m 0755 $(BUILD)/ppbench $(DESTDIR)$(BINDIR)/ppbench
	$(call msg,INSTALL,$(DESTDIR)$(LIBDIR)/vm/)
	$(Q)install -d $(DESTDIR)$(LIBDIR)/vm
	$(Q)install -m 0755 scripts/vm/run scripts/vm/init $(DESTDIR)$(LIBDIR)/vm/
	$(Q)install -m 0644 $(filter %.sh,$(VM_FILES)) scripts/vm/ppbench.config $(DESTDIR)$(LIBDIR)/vm/
	$(Q)install -m 0644 $(QPROF_SOS) $(DESTDIR)$(LIBDIR)/vm/
	$(call msg,INSTALL,$(DESTDIR)$(BINDIR)/ppbench-bisect)
	$(Q)ln -sf ppbench $(DESTDIR)$(BINDIR)/ppbench-bisect
	$(call msg,INSTALL,$(DESTDIR)$(MANDIR)/man8/: $(notdir $(MAN_PAGES)))
	$(Q)install -d $(DESTDIR)$(MANDIR)/man8
	$(Q)install -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man8/
	$(call msg,INSTALL,$(DESTDIR)$(BASHCOMPDIR)/ppbench)
	$(Q)install -D -m 0644 $(BUILD)/ppbench.bash $(DESTDIR)$(BASHCOMPDIR)/ppbench

install-guest: static-guest $(if $(filter 1,$(ARM64)),arm64-guest)
	$(call msg,INSTALL,$(DESTDIR)$(LIBDIR)/ppbench-static$(if $(filter 1,$(ARM64)), and -arm64))
	$(Q)install -D -m 0755 build/static/ppbench $(DESTDIR)$(LIBDIR)/ppbench-static
ifeq ($(ARM64),1)
	$(Q)install -m 0755 build/arm64/ppbench $(DESTDIR)$(LIBDIR)/ppbench-static-arm64
endif

# Every C source and header of ours; the test suite checks they are formatted.
FORMAT_SRCS	= $(wildcard bpf/*.c bpf/*.h include/*.h user/*.c user/*/*/*.[ch] user/lab/vm/qprof/*.[ch] \
		  tests/*/*.c tests/*/*.h)

format:
	$(call msg,FORMAT,$(words $(FORMAT_SRCS)) files)
	$(Q)clang-format -i --style=file $(FORMAT_SRCS)

format-check:
	$(Q)clang-format --dry-run --Werror --style=file $(FORMAT_SRCS)

clean:
	$(call msg,CLEAN,$(BUILD))
	$(Q)rm -rf $(BUILD)
