// SPDX-License-Identifier: GPL-2.0-only
/*
 * A minimal RISC-V KVM VMM for the bench (Documentation/kvm-ctr.rst, "A
 * Linux guest on the board"): enough to boot a Linux Image with an
 * initramfs and see its console, and to give the guest the extensions
 * KVM offers -- Ssctr and Sscsrind included, which no packaged VMM on
 * Debian trixie can list in a guest's device tree.
 *
 * The guest gets RAM at 0x80000000, one 16550 UART at 0x10000000 without
 * an interrupt (Linux's 8250 driver polls it), the harts' local
 * interrupt controllers, and a device tree written here: its
 * riscv,isa-extensions is what KVM reports enabled through ONE_REG after
 * the -e/-d requests.  The SBI console (legacy putchar and DBCN), which
 * KVM hands to userspace, also goes to stdout.  A guest SBI system reset
 * (poweroff) ends the VMM with status 0; anything unexpected with 1.
 *
 *   minivmm -k IMAGE [-i INITRD] [-a BOOTARGS] [-m MIB] [-c VCPUS]
 *           [-e EXT]... [-d EXT]... [-s SCTRDEPTH] [-D DTB-OUT] [-v]
 *
 * -e/-d enable/disable an ISA extension by its device-tree name (ssctr,
 * sscsrind, sscofpmf, ...) before the first run; -s writes the guest's
 * sctrdepth (ONE_REG CSR subtype 4); -D also writes the device tree to
 * a file; -v prints the extensions and registers the VMM used.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "minivmm_isa.h"	/* isa_names[]: generated from asm/kvm.h */

#define RAM_BASE	0x80000000UL
#define KERNEL_OFF	0x200000UL	/* an RV64 Image wants 2 MiB alignment */
#define UART_BASE	0x10000000UL
#define UART_SIZE	0x100UL
#define UART_CLOCK	3686400
#define MAX_VCPUS	8
#define SBI_EXT_0_1_PUTCHAR	0x01
#define SBI_EXT_DBCN		0x4442434e
#define SBI_ERR_NOT_SUPPORTED	(-2)
#define SBI_ERR_INVALID_PARAM	(-3)

static int vm_fd;
static uint8_t *ram;
static uint64_t ram_size;
static int run_size;
static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("minivmm: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (fmt[strlen(fmt) - 1] == ':')
		fprintf(stderr, " %s", strerror(errno));
	fputc('\n', stderr);
	exit(1);
}

/* ---- ONE_REG ------------------------------------------------------ */

static uint64_t reg_id(uint64_t type, uint64_t idx)
{
	return KVM_REG_RISCV | KVM_REG_SIZE_U64 | type | idx;
}

static int get_reg(int fd, uint64_t id, uint64_t *val)
{
	struct kvm_one_reg r = { .id = id, .addr = (uintptr_t)val };

	return ioctl(fd, KVM_GET_ONE_REG, &r);
}

static int set_reg(int fd, uint64_t id, uint64_t val)
{
	struct kvm_one_reg r = { .id = id, .addr = (uintptr_t)&val };

	return ioctl(fd, KVM_SET_ONE_REG, &r);
}

static int isa_id(const char *name)
{
	for (int i = 0; i < (int)(sizeof(isa_names) / sizeof(isa_names[0])); i++)
		if (isa_names[i] && !strcmp(isa_names[i], name))
			return i;
	return -1;
}

/* ---- a flattened device tree (Devicetree Specification v0.4, ch. 5) -- */

struct fdt {
	uint8_t *st;		/* structure block */
	size_t st_len, st_cap;
	char *str;		/* strings block */
	size_t str_len, str_cap;
};

static void *grow(void *p, size_t *cap, size_t need)
{
	if (need <= *cap)
		return p;
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 4096;
	p = realloc(p, *cap);
	if (!p)
		die("out of memory");
	return p;
}

static void fdt_put(struct fdt *f, const void *p, size_t n)
{
	size_t pad = (n + 3) & ~(size_t)3;

	f->st = grow(f->st, &f->st_cap, f->st_len + pad);
	memcpy(f->st + f->st_len, p, n);
	memset(f->st + f->st_len + n, 0, pad - n);
	f->st_len += pad;
}

static void fdt_u32(struct fdt *f, uint32_t v)
{
	v = __builtin_bswap32(v);
	fdt_put(f, &v, 4);
}

static void fdt_begin(struct fdt *f, const char *name)
{
	fdt_u32(f, 1);			/* FDT_BEGIN_NODE */
	fdt_put(f, name, strlen(name) + 1);
}

static void fdt_end(struct fdt *f)
{
	fdt_u32(f, 2);			/* FDT_END_NODE */
}

static uint32_t fdt_string(struct fdt *f, const char *name)
{
	size_t n = strlen(name) + 1;

	for (size_t off = 0; off < f->str_len; off += strlen(f->str + off) + 1)
		if (!strcmp(f->str + off, name))
			return off;
	f->str = grow(f->str, &f->str_cap, f->str_len + n);
	memcpy(f->str + f->str_len, name, n);
	f->str_len += n;
	return f->str_len - n;
}

static void fdt_prop(struct fdt *f, const char *name, const void *val, size_t n)
{
	fdt_u32(f, 3);			/* FDT_PROP */
	fdt_u32(f, n);
	fdt_u32(f, fdt_string(f, name));
	if (n)
		fdt_put(f, val, n);
}

static void fdt_prop_str(struct fdt *f, const char *name, const char *s)
{
	fdt_prop(f, name, s, strlen(s) + 1);
}

static void fdt_prop_u32(struct fdt *f, const char *name, uint32_t v)
{
	v = __builtin_bswap32(v);
	fdt_prop(f, name, &v, 4);
}

static void fdt_prop_u64(struct fdt *f, const char *name, uint64_t v)
{
	v = __builtin_bswap64(v);
	fdt_prop(f, name, &v, 8);
}

/* reg = <hi lo hi lo> with #address-cells = #size-cells = 2 */
static void fdt_prop_reg(struct fdt *f, uint64_t base, uint64_t size)
{
	uint32_t c[4] = {
		__builtin_bswap32(base >> 32), __builtin_bswap32(base),
		__builtin_bswap32(size >> 32), __builtin_bswap32(size),
	};

	fdt_prop(f, "reg", c, sizeof(c));
}

/* The blob: header, empty memory reservation map, structure, strings. */
static size_t fdt_finish(struct fdt *f, uint8_t *out, size_t cap)
{
	size_t hdr = 40, rsv = 16;
	size_t off_st = hdr + rsv, off_str = off_st + f->st_len + 4;
	size_t total = off_str + f->str_len;
	uint32_t h[10] = {
		0xd00dfeed, total, off_st, off_str, hdr,
		17, 16, 0, f->str_len, f->st_len + 4,
	};

	if (total > cap)
		die("device tree of %zu bytes does not fit", total);
	memset(out, 0, off_st);
	for (int i = 0; i < 10; i++)
		h[i] = __builtin_bswap32(h[i]);
	memcpy(out, h, sizeof(h));
	memcpy(out + off_st, f->st, f->st_len);
	h[0] = __builtin_bswap32(9);	/* FDT_END */
	memcpy(out + off_st + f->st_len, h, 4);
	memcpy(out + off_str, f->str, f->str_len);
	return total;
}

/* ---- the guest ------------------------------------------------------ */

struct vcpu {
	int id, fd;
	struct kvm_run *run;
	pthread_t thread;
};

static struct vcpu vcpus[MAX_VCPUS];
static int nr_vcpus = 1;
static volatile int exit_status = -1;

/* The 16550's registers (enough for Linux's 8250 driver and earlycon). */
static struct {
	uint8_t ier, lcr, mcr, scr, dll, dlm, fcr;
} uart;

static uint8_t uart_read(unsigned int off)
{
	bool dlab = uart.lcr & 0x80;

	switch (off) {
	case 0: return dlab ? uart.dll : 0;		/* RBR: no input */
	case 1: return dlab ? uart.dlm : uart.ier;
	case 2: return (uart.fcr & 1) ? 0xc1 : 0x01;	/* IIR: none pending */
	case 3: return uart.lcr;
	case 4: return uart.mcr;
	case 5: return 0x60;				/* LSR: THRE | TEMT */
	case 6:						/* MSR */
		if (uart.mcr & 0x10)			/* loopback */
			return ((uart.mcr & 1) << 5) | ((uart.mcr & 2) << 3) |
			       ((uart.mcr & 4) << 4) | ((uart.mcr & 8) << 4);
		return 0xb0;				/* DCD | DSR | CTS */
	default: return uart.scr;
	}
}

static void uart_write(unsigned int off, uint8_t v)
{
	bool dlab = uart.lcr & 0x80;

	switch (off) {
	case 0:
		if (dlab) {
			uart.dll = v;
		} else if (!(uart.mcr & 0x10)) {
			putchar(v);
			if (v == '\n')
				fflush(stdout);
		}
		break;
	case 1: if (dlab) uart.dlm = v; else uart.ier = v & 0x0f; break;
	case 2: uart.fcr = v; break;
	case 3: uart.lcr = v; break;
	case 4: uart.mcr = v & 0x1f; break;
	case 7: uart.scr = v; break;
	default: break;
	}
}

static void handle_mmio(struct kvm_run *run)
{
	uint64_t a = run->mmio.phys_addr;

	pthread_mutex_lock(&io_lock);
	if (a >= UART_BASE && a < UART_BASE + 8 && run->mmio.len == 1) {
		if (run->mmio.is_write)
			uart_write(a - UART_BASE, run->mmio.data[0]);
		else
			run->mmio.data[0] = uart_read(a - UART_BASE);
	} else if (!run->mmio.is_write) {
		memset(run->mmio.data, 0, sizeof(run->mmio.data));
	}
	pthread_mutex_unlock(&io_lock);
}

static void handle_sbi(struct kvm_run *run)
{
	unsigned long *a = run->riscv_sbi.args;
	long err = SBI_ERR_NOT_SUPPORTED, val = 0;

	pthread_mutex_lock(&io_lock);
	if (run->riscv_sbi.extension_id == SBI_EXT_0_1_PUTCHAR) {
		putchar((int)a[0]);
		err = 0;
	} else if (run->riscv_sbi.extension_id == SBI_EXT_DBCN) {
		/* a0: bytes, a1/a2: physical address low/high (SBI 2.0, 12.1) */
		if (run->riscv_sbi.function_id == 0) {
			uint64_t pa = a[1] | ((uint64_t)a[2] << 32);

			if (pa >= RAM_BASE && pa - RAM_BASE <= ram_size &&
			    a[0] <= ram_size - (pa - RAM_BASE)) {
				fwrite(ram + (pa - RAM_BASE), 1, a[0], stdout);
				err = 0;
				val = a[0];
			} else {
				err = SBI_ERR_INVALID_PARAM;
			}
		} else if (run->riscv_sbi.function_id == 2) {
			putchar((int)(a[0] & 0xff));
			err = 0;
		}
	}
	fflush(stdout);
	pthread_mutex_unlock(&io_lock);
	run->riscv_sbi.ret[0] = err;
	run->riscv_sbi.ret[1] = val;
}

static void *vcpu_loop(void *arg)
{
	struct vcpu *v = arg;
	struct kvm_run *run = v->run;

	while (exit_status < 0) {
		if (ioctl(v->fd, KVM_RUN, 0) < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			fprintf(stderr, "minivmm: vcpu %d: KVM_RUN: %s\n", v->id,
				strerror(errno));
			exit_status = 1;
			break;
		}
		switch (run->exit_reason) {
		case KVM_EXIT_MMIO:
			handle_mmio(run);
			break;
		case KVM_EXIT_RISCV_SBI:
			handle_sbi(run);
			break;
		case KVM_EXIT_INTR:
			break;
		case KVM_EXIT_SYSTEM_EVENT:
			fflush(stdout);
			fprintf(stderr, "minivmm: vcpu %d: system event %u\n", v->id,
				run->system_event.type);
			exit_status = run->system_event.type == KVM_SYSTEM_EVENT_CRASH;
			break;
		default:
			fflush(stdout);
			fprintf(stderr, "minivmm: vcpu %d: unhandled exit %u\n", v->id,
				run->exit_reason);
			exit_status = 1;
			break;
		}
	}
	fflush(stdout);
	exit(exit_status);
	return NULL;
}

static size_t load(const char *path, uint64_t off, uint64_t max)
{
	struct stat st;
	size_t done = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die("%s:", path);
	if ((uint64_t)st.st_size > max)
		die("%s: %lld bytes do not fit in guest RAM", path, (long long)st.st_size);
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, ram + off + done, st.st_size - done);

		if (n <= 0)
			die("%s:", path);
		done += n;
	}
	close(fd);
	return done;
}

static void usage(void)
{
	fprintf(stderr, "usage: minivmm -k IMAGE [-i INITRD] [-a BOOTARGS] [-m MIB] [-c VCPUS]\n"
		"               [-e EXT]... [-d EXT]... [-s SCTRDEPTH] [-D DTB-OUT] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *kernel = NULL, *initrd = NULL, *dtb_out = NULL;
	const char *bootargs = "console=ttyS0 earlycon";
	const char *en[32], *dis[32];
	int nen = 0, ndis = 0, verbose = 0, kvm, opt;
	long sctrdepth = -1;
	uint64_t mib = 256, freq, satp_mode, initrd_start = 0, initrd_end = 0;
	bool isa_on[KVM_RISCV_ISA_EXT_MAX] = { 0 };
	struct fdt f = { 0 };
	char exts[4096];
	size_t exts_len = 0;

	while ((opt = getopt(argc, argv, "k:i:a:m:c:e:d:s:D:v")) != -1) {
		switch (opt) {
		case 'k': kernel = optarg; break;
		case 'i': initrd = optarg; break;
		case 'a': bootargs = optarg; break;
		case 'm': mib = strtoull(optarg, NULL, 0); break;
		case 'c': nr_vcpus = atoi(optarg); break;
		case 'e': if (nen < 32) en[nen++] = optarg; break;
		case 'd': if (ndis < 32) dis[ndis++] = optarg; break;
		case 's': sctrdepth = strtol(optarg, NULL, 0); break;
		case 'D': dtb_out = optarg; break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (!kernel || optind != argc || nr_vcpus < 1 || nr_vcpus > MAX_VCPUS ||
	    mib < 16 || mib > 4096)
		usage();
	ram_size = mib << 20;

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		die("/dev/kvm:");
	vm_fd = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm_fd < 0)
		die("KVM_CREATE_VM:");
	run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (run_size <= 0)
		die("KVM_GET_VCPU_MMAP_SIZE:");
	ram = mmap(NULL, ram_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (ram == MAP_FAILED)
		die("guest RAM:");
	struct kvm_userspace_memory_region mem = {
		.slot = 0, .guest_phys_addr = RAM_BASE,
		.memory_size = ram_size, .userspace_addr = (uintptr_t)ram,
	};
	if (ioctl(vm_fd, KVM_SET_USER_MEMORY_REGION, &mem))
		die("KVM_SET_USER_MEMORY_REGION:");

	for (int i = 0; i < nr_vcpus; i++) {
		struct vcpu *v = &vcpus[i];

		v->id = i;
		v->fd = ioctl(vm_fd, KVM_CREATE_VCPU, i);
		if (v->fd < 0)
			die("KVM_CREATE_VCPU:");
		v->run = mmap(NULL, run_size, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
		if (v->run == MAP_FAILED)
			die("kvm_run:");
		/* Requests first: KVM takes them only before the first run. */
		for (int j = 0; j < nen; j++) {
			int id = isa_id(en[j]);

			if (id < 0)
				die("unknown extension %s", en[j]);
			if (set_reg(v->fd, reg_id(KVM_REG_RISCV_ISA_EXT, id), 1))
				fprintf(stderr, "minivmm: KVM does not enable %s: %s\n",
					en[j], strerror(errno));
		}
		for (int j = 0; j < ndis; j++) {
			int id = isa_id(dis[j]);

			if (id < 0)
				die("unknown extension %s", dis[j]);
			if (set_reg(v->fd, reg_id(KVM_REG_RISCV_ISA_EXT, id), 0))
				fprintf(stderr, "minivmm: KVM does not disable %s: %s\n",
					dis[j], strerror(errno));
		}
		/* DBCN is off unless the VMM asks (KVM hands it to userspace). */
		set_reg(v->fd, reg_id(KVM_REG_RISCV_SBI_EXT,
				      KVM_REG_RISCV_SBI_SINGLE | KVM_RISCV_SBI_EXT_DBCN), 1);
	}
	/* What KVM enabled after the requests: the guest's ISA. */
	for (int id = 0; id < KVM_RISCV_ISA_EXT_MAX; id++) {
		uint64_t on = 0;

		if (!get_reg(vcpus[0].fd, reg_id(KVM_REG_RISCV_ISA_EXT, id), &on) && on &&
		    isa_names[id] && strcmp(isa_names[id], "h"))
			isa_on[id] = true;
	}
	if (sctrdepth >= 0) {
		if (!isa_on[KVM_RISCV_ISA_EXT_SSCTR])
			die("-s: the guest has no Ssctr");
		for (int i = 0; i < nr_vcpus; i++)
			if (set_reg(vcpus[i].fd,
				    reg_id(KVM_REG_RISCV_CSR, KVM_REG_RISCV_CSR_SSCTR |
					   KVM_REG_RISCV_CSR_SSCTR_REG(sctrdepth)),
				    sctrdepth))
				die("sctrdepth %ld:", sctrdepth);
	}
	if (get_reg(vcpus[0].fd, reg_id(KVM_REG_RISCV_TIMER,
					KVM_REG_RISCV_TIMER_REG(frequency)), &freq))
		die("timer frequency:");
	if (get_reg(vcpus[0].fd, reg_id(KVM_REG_RISCV_CONFIG,
					KVM_REG_RISCV_CONFIG_REG(satp_mode)), &satp_mode))
		die("satp_mode:");

	/* Zicbom/Zicboz/Zicbop are ignored without their block sizes. */
	struct { const char *prop; uint64_t reg; uint64_t size; } cbo[3] = {
		{ "riscv,cbom-block-size", KVM_REG_RISCV_CONFIG_REG(zicbom_block_size) },
		{ "riscv,cboz-block-size", KVM_REG_RISCV_CONFIG_REG(zicboz_block_size) },
		{ "riscv,cbop-block-size", KVM_REG_RISCV_CONFIG_REG(zicbop_block_size) },
	};
	for (int b = 0; b < 3; b++)
		if (get_reg(vcpus[0].fd, reg_id(KVM_REG_RISCV_CONFIG, cbo[b].reg), &cbo[b].size))
			cbo[b].size = 0;

	/* Single letters first (riscv,isa-extensions lists i, m, a, ...). */
	static const char order[] = "imafdcv";
	for (const char *c = order; *c; c++) {
		char s[2] = { *c, 0 };
		int id = isa_id(s);

		if (id >= 0 && isa_on[id]) {
			memcpy(exts + exts_len, s, 2);
			exts_len += 2;
		}
	}
	for (int id = 0; id < KVM_RISCV_ISA_EXT_MAX; id++) {
		size_t n;

		if (!isa_on[id] || strlen(isa_names[id]) == 1)
			continue;
		n = strlen(isa_names[id]) + 1;
		if (exts_len + n > sizeof(exts))
			die("too many extensions");
		memcpy(exts + exts_len, isa_names[id], n);
		exts_len += n;
	}
	if (verbose) {
		fprintf(stderr, "minivmm: %d vcpu(s), %llu MiB, timebase %llu Hz, satp mode %llu, isa:",
			nr_vcpus, (unsigned long long)mib, (unsigned long long)freq,
			(unsigned long long)satp_mode);
		for (size_t o = 0; o < exts_len; o += strlen(exts + o) + 1)
			fprintf(stderr, " %s", exts + o);
		fputc('\n', stderr);
	}

	/* Memory: Image at +2 MiB, device tree in the top 64 KiB, initrd below. */
	size_t ksize = load(kernel, KERNEL_OFF, ram_size / 2);
	uint64_t dtb_off = ram_size - 0x10000;

	if (initrd) {
		struct stat st;

		if (stat(initrd, &st))
			die("%s:", initrd);
		uint64_t off = (dtb_off - st.st_size) & ~0xfffULL;

		if (off < KERNEL_OFF + ksize + (64ULL << 20))
			die("%s: no room in %llu MiB", initrd, (unsigned long long)mib);
		load(initrd, off, st.st_size);
		initrd_start = RAM_BASE + off;
		initrd_end = initrd_start + st.st_size;
	}

	fdt_begin(&f, "");
	fdt_prop_u32(&f, "#address-cells", 2);
	fdt_prop_u32(&f, "#size-cells", 2);
	fdt_prop_str(&f, "compatible", "rvctr,minivmm");
	fdt_prop_str(&f, "model", "rvctr minivmm");
	fdt_begin(&f, "chosen");
	fdt_prop_str(&f, "bootargs", bootargs);
	fdt_prop_str(&f, "stdout-path", "/soc/serial@10000000");
	if (initrd) {
		fdt_prop_u64(&f, "linux,initrd-start", initrd_start);
		fdt_prop_u64(&f, "linux,initrd-end", initrd_end);
	}
	fdt_end(&f);
	char name[64];

	snprintf(name, sizeof(name), "memory@%lx", RAM_BASE);
	fdt_begin(&f, name);
	fdt_prop_str(&f, "device_type", "memory");
	fdt_prop_reg(&f, RAM_BASE, ram_size);
	fdt_end(&f);
	fdt_begin(&f, "cpus");
	fdt_prop_u32(&f, "#address-cells", 1);
	fdt_prop_u32(&f, "#size-cells", 0);
	fdt_prop_u32(&f, "timebase-frequency", freq);
	for (int i = 0; i < nr_vcpus; i++) {
		static const char *const mmu[] = {
			[8] = "riscv,sv39", [9] = "riscv,sv48", [10] = "riscv,sv57",
		};

		snprintf(name, sizeof(name), "cpu@%d", i);
		fdt_begin(&f, name);
		fdt_prop_str(&f, "device_type", "cpu");
		fdt_prop_u32(&f, "reg", i);
		fdt_prop_str(&f, "compatible", "riscv");
		fdt_prop_str(&f, "status", "okay");
		fdt_prop_str(&f, "riscv,isa-base", "rv64i");
		fdt_prop(&f, "riscv,isa-extensions", exts, exts_len);
		if (satp_mode < 11 && mmu[satp_mode])
			fdt_prop_str(&f, "mmu-type", mmu[satp_mode]);
		for (int b = 0; b < 3; b++)
			if (cbo[b].size)
				fdt_prop_u32(&f, cbo[b].prop, cbo[b].size);
		fdt_begin(&f, "interrupt-controller");
		fdt_prop_u32(&f, "#interrupt-cells", 1);
		fdt_prop(&f, "interrupt-controller", NULL, 0);
		fdt_prop_str(&f, "compatible", "riscv,cpu-intc");
		fdt_prop_u32(&f, "phandle", i + 1);
		fdt_end(&f);
		fdt_end(&f);
	}
	fdt_end(&f);
	fdt_begin(&f, "soc");
	fdt_prop_u32(&f, "#address-cells", 2);
	fdt_prop_u32(&f, "#size-cells", 2);
	fdt_prop_str(&f, "compatible", "simple-bus");
	fdt_prop(&f, "ranges", NULL, 0);
	fdt_begin(&f, "serial@10000000");
	fdt_prop_str(&f, "compatible", "ns16550a");
	fdt_prop_reg(&f, UART_BASE, UART_SIZE);
	fdt_prop_u32(&f, "clock-frequency", UART_CLOCK);
	fdt_end(&f);
	fdt_end(&f);
	fdt_end(&f);
	size_t dtb_len = fdt_finish(&f, ram + dtb_off, ram_size - dtb_off);

	if (dtb_out) {
		FILE *o = fopen(dtb_out, "w");

		if (!o || fwrite(ram + dtb_off, 1, dtb_len, o) != dtb_len || fclose(o))
			die("%s:", dtb_out);
	}

	/* The boot hart: a0 = hartid, a1 = device tree (Linux's boot protocol). */
	if (set_reg(vcpus[0].fd, reg_id(KVM_REG_RISCV_CORE, KVM_REG_RISCV_CORE_REG(regs.pc)),
		    RAM_BASE + KERNEL_OFF) ||
	    set_reg(vcpus[0].fd, reg_id(KVM_REG_RISCV_CORE, KVM_REG_RISCV_CORE_REG(regs.a0)), 0) ||
	    set_reg(vcpus[0].fd, reg_id(KVM_REG_RISCV_CORE, KVM_REG_RISCV_CORE_REG(regs.a1)),
		    RAM_BASE + dtb_off))
		die("boot registers:");
	for (int i = 1; i < nr_vcpus; i++)
		if (pthread_create(&vcpus[i].thread, NULL, vcpu_loop, &vcpus[i]))
			die("vcpu thread");
	vcpu_loop(&vcpus[0]);
	return 1;
}
