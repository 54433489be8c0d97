/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the CTR branch-stack selftests: open a sampling event with a
 * branch stack on the calling task, read its samples back from the ring
 * buffer, and a workload whose control transfers are known exactly.
 *
 * The UAPI (<linux/perf_event.h>), libc and the compiler attributes of
 * tools/include: the tests see what any perf user sees, whichever driver
 * records the branches.
 */
#ifndef CTR_TEST_LIB_H
#define CTR_TEST_LIB_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/init.h>		/* __section() */
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define CT_PAGES	128		/* ring buffer data pages */
#define CT_MAX_SAMPLES	4096
#define CT_MAX_BR	256

/*
 * The CTR options of the cpu PMU, attr.config3 (format/ctr_ntbr and
 * format/ctr_bpfrz); every other config3 bit is reserved.
 */
#define CT_CFG3_NTBR	BIT_ULL(0)
#define CT_CFG3_BPFRZ	BIT_ULL(1)

/*
 * The bounds of section @sec, which the linker defines for a section
 * named as a C identifier: a function placed alone in it with
 * __section() lies exactly in [__start_@sec, __stop_@sec).
 */
#define CT_SECTION_BOUNDS(sec)	extern const char __start_##sec[], __stop_##sec[]

struct ct_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t nr;
	struct perf_branch_entry br[CT_MAX_BR];
};

struct ct_event {
	int fd;
	void *ring;
	size_t ring_len;
	int nsamples;
	int lost;
	struct ct_sample *s;
};

/* The attributes ct_open() uses: an instructions:u sampler, disabled. */
static inline void ct_attr(struct perf_event_attr *a, uint64_t bst,
			   uint64_t config3, uint64_t period)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_INSTRUCTIONS;
	a->config3 = config3;
	a->sample_period = period;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = bst;
	a->disabled = 1;
	a->exclude_kernel = !(bst & PERF_SAMPLE_BRANCH_KERNEL);
	a->exclude_hv = 1;
}

/*
 * Open @a (as ct_attr() makes it, or changed) for @pid on @cpu, as
 * perf_event_open() takes them, with its ring buffer mapped.
 */
static inline int ct_open_on(struct ct_event *ev, struct perf_event_attr *a,
			     pid_t pid, int cpu)
{
	long pg = sysconf(_SC_PAGESIZE);

	memset(ev, 0, sizeof(*ev));
	ev->fd = syscall(SYS_perf_event_open, a, pid, cpu, -1, 0);
	if (ev->fd < 0)
		return -errno;
	ev->ring_len = (CT_PAGES + 1) * pg;
	ev->ring = mmap(NULL, ev->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			ev->fd, 0);
	if (ev->ring == MAP_FAILED) {
		close(ev->fd);
		return -errno;
	}
	ev->s = calloc(CT_MAX_SAMPLES, sizeof(*ev->s));
	return ev->s ? 0 : -ENOMEM;
}

/* Open @a (as ct_attr() makes it, or changed) on the calling task. */
static inline int ct_open_attr(struct ct_event *ev, struct perf_event_attr *a)
{
	return ct_open_on(ev, a, 0, -1);
}

/* An instructions:u sampler on the calling task, disabled until ct_enable. */
static inline int ct_open(struct ct_event *ev, uint64_t bst, uint64_t config3,
			  uint64_t period)
{
	struct perf_event_attr a;

	ct_attr(&a, bst, config3, period);
	return ct_open_attr(ev, &a);
}

static inline void ct_enable(struct ct_event *ev)
{
	ioctl(ev->fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(ev->fd, PERF_EVENT_IOC_ENABLE, 0);
}

static inline void ct_disable(struct ct_event *ev)
{
	ioctl(ev->fd, PERF_EVENT_IOC_DISABLE, 0);
}

static inline void ct_copy(void *dst, const char *data, uint64_t size,
			   uint64_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		((char *)dst)[i] = data[(off + i) % size];
}

/* Parse the samples in the ring into ev->s; returns how many. */
static inline int ct_read(struct ct_event *ev)
{
	struct perf_event_mmap_page *mp = ev->ring;
	const char *data = (const char *)ev->ring + mp->data_offset;
	uint64_t size = mp->data_size, head, tail = mp->data_tail;
	struct perf_event_header h;

	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	while (tail < head) {
		ct_copy(&h, data, size, tail, sizeof(h));
		if (h.type == PERF_RECORD_SAMPLE && ev->nsamples < CT_MAX_SAMPLES) {
			struct ct_sample *s = &ev->s[ev->nsamples];
			uint64_t off = tail + sizeof(h);

			ct_copy(&s->ip, data, size, off, 8);
			ct_copy(&s->pid, data, size, off + 8, 4);
			ct_copy(&s->tid, data, size, off + 12, 4);
			ct_copy(&s->nr, data, size, off + 16, 8);
			if (s->nr > CT_MAX_BR)
				s->nr = CT_MAX_BR;
			ct_copy(s->br, data, size, off + 24, s->nr * sizeof(s->br[0]));
			ev->nsamples++;
		} else if (h.type == PERF_RECORD_LOST) {
			ev->lost++;
		}
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return ev->nsamples;
}

static inline void ct_close(struct ct_event *ev)
{
	if (ev->ring && ev->ring != MAP_FAILED)
		munmap(ev->ring, ev->ring_len);
	if (ev->fd >= 0)
		close(ev->fd);
	free(ev->s);
	memset(ev, 0, sizeof(*ev));
	ev->fd = -1;
}

/* Write @v to the sysfs/procfs file @path; 0 on success. */
static inline int ct_write_str(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, v, strlen(v)) == (ssize_t)strlen(v);
	close(fd);
	return ok ? 0 : -1;
}

/* Is there a CPU PMU with CTR at all? */
static inline int ct_have_ctr(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/cpu/caps/branches", "r");
	int n = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

/* ------------------------------------------------------------------ */
/* The workload: eight transfers per iteration, all known exactly.     */

/* One control transfer the workload makes. */
struct ct_xfer {
	uint64_t from, to;
	unsigned int perf_type;
	const char *name;
};

enum {
	X_CALL, X_RET_LEAF, X_ICALL, X_RET_IND, X_COND, X_JMP, X_IJMP, X_BACK,
	X_NR
};

struct ct_workload {
	struct ct_xfer x[X_NR];
	uint64_t lo, hi;	/* code range of the workload functions */
};

static uint64_t ct_ra_leaf, ct_ra_ind;
static uint64_t ct_cond_src, ct_cond_dst, ct_jmp_src, ct_jmp_dst;
static uint64_t ct_ijmp_src, ct_ijmp_dst, ct_ntbr_src;

static noinline void ct_leaf(void)
{
	ct_ra_leaf = (uint64_t)__builtin_return_address(0);
	asm volatile("" ::: "memory");
}

static noinline void ct_ind(void)
{
	ct_ra_ind = (uint64_t)__builtin_return_address(0);
	asm volatile("" ::: "memory");
}

/* Read with READ_ONCE(), so the call stays indirect. */
static void (*ct_fp)(void) = ct_ind;

/*
 * A taken conditional branch, a direct jump, an indirect jump and a
 * branch never taken, each reporting its own source and target.  t1 is not a link register, so
 * "jr t1" is a plain indirect jump (a jump through ra or t0 would be a
 * return, CTR v1.0 "Transfer Type Filtering").
 */
static noinline void ct_loop(long n)
{
	uint64_t a, b, c, d, e, f, g;
	long i;

	for (i = 0; i < n; i++) {
		ct_leaf();
		READ_ONCE(ct_fp)();
		asm volatile("1: beq zero, zero, 2f\n"
			     "   nop\n"
			     "2: lla %0, 1b\n"
			     "   lla %1, 2b\n"
			     "3: j 4f\n"
			     "   nop\n"
			     "4: lla %2, 3b\n"
			     "   lla %3, 4b\n"
			     "   lla %5, 6f\n"
			     "5: jr %5\n"
			     "   nop\n"
			     "6: lla %4, 5b\n"
			     "7: bne zero, zero, 8f\n"
			     "   lla %6, 7b\n"
			     "8:\n"
			     : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d), "=&r"(e),
			       "=&r"(f), "=&r"(g) : : "memory");
		ct_cond_src = a;
		ct_cond_dst = b;
		ct_jmp_src = c;
		ct_jmp_dst = d;
		ct_ijmp_src = e;
		ct_ijmp_dst = f;
		ct_ntbr_src = g;
	}
}

/* Address of the first return (ret / c.jr ra) at or after @fn. */
static inline uint64_t ct_find_ret(const void *fn)
{
	const uint16_t *p = fn;
	int i;

	for (i = 0; i < 64; i++) {
		if (p[i] == 0x8082)
			return (uint64_t)&p[i];
		if (p[i] == 0x8067 && p[i + 1] == 0)
			return (uint64_t)&p[i];
		if ((p[i] & 3) == 3)
			i++;	/* 32-bit instruction */
	}
	return 0;
}

/* A call that returns to @ra was 2 bytes (c.jalr) or 4 (jal/jalr). */
static inline uint64_t ct_call_site(uint64_t ra)
{
	uint16_t h = *(const uint16_t *)(ra - 2);

	/* c.jalr: funct4 1001, rs1 != 0, rs2 = 0, op 10 */
	if ((h & 0xf07f) == 0x9002 && (h & 0x0f80))
		return ra - 2;
	return ra - 4;
}

static inline void ct_set(struct ct_xfer *x, uint64_t from, uint64_t to,
			  unsigned int type, const char *name)
{
	x->from = from;
	x->to = to;
	x->perf_type = type;
	x->name = name;
}

/*
 * Run the loop once to learn every address, and find the back edge by
 * reading the loop's code: the first conditional branch after the asm
 * block that goes backwards.
 */
static inline void ct_workload_init(struct ct_workload *w)
{
	uint64_t p;

	ct_loop(1);
	ct_set(&w->x[X_CALL], ct_call_site(ct_ra_leaf), (uint64_t)ct_leaf,
	       PERF_BR_CALL, "call");
	ct_set(&w->x[X_RET_LEAF], ct_find_ret(ct_leaf), ct_ra_leaf, PERF_BR_RET,
	       "ret leaf");
	ct_set(&w->x[X_ICALL], ct_call_site(ct_ra_ind), (uint64_t)ct_ind,
	       PERF_BR_IND_CALL, "ind call");
	ct_set(&w->x[X_RET_IND], ct_find_ret(ct_ind), ct_ra_ind, PERF_BR_RET,
	       "ret ind");
	ct_set(&w->x[X_COND], ct_cond_src, ct_cond_dst, PERF_BR_COND, "cond");
	ct_set(&w->x[X_JMP], ct_jmp_src, ct_jmp_dst, PERF_BR_UNCOND, "jmp");
	ct_set(&w->x[X_IJMP], ct_ijmp_src, ct_ijmp_dst, PERF_BR_IND, "ind jmp");
	ct_set(&w->x[X_BACK], 0, 0, PERF_BR_COND, "back edge");
	/* The back edge: a B-type branch after the stores, jumping back. */
	for (p = ct_ntbr_src + 4; p < ct_ntbr_src + 128; ) {
		uint32_t insn = *(const uint16_t *)p |
				(uint32_t)*(const uint16_t *)(p + 2) << 16;

		if ((insn & 3) != 3) {
			/* c.bnez/c.beqz: op 01, funct3 11x; offset sign bit 12 */
			if ((insn & 0xe003) == 0xe001 || (insn & 0xe003) == 0xc001) {
				if (insn & 0x1000) {
					int32_t off = ((insn >> 12) & 1) << 8 |
						((insn >> 5) & 3) << 6 |
						((insn >> 2) & 1) << 5 |
						((insn >> 10) & 3) << 3 |
						((insn >> 3) & 3) << 1;

					off -= 1 << 9;
					ct_set(&w->x[X_BACK], p, p + off,
					       PERF_BR_COND, "back edge");
					break;
				}
			}
			p += 2;
			continue;
		}
		if ((insn & 0x7f) == 0x63 && (insn >> 31)) {
			int32_t off = ((insn >> 31) & 1) << 12 |
				((insn >> 7) & 1) << 11 |
				((insn >> 25) & 0x3f) << 5 |
				((insn >> 8) & 0xf) << 1;

			off -= 1 << 13;
			ct_set(&w->x[X_BACK], p, p + off, PERF_BR_COND, "back edge");
			break;
		}
		p += 4;
	}
	w->lo = (uint64_t)ct_loop < (uint64_t)ct_leaf ? (uint64_t)ct_loop :
							  (uint64_t)ct_leaf;
	w->lo = w->lo < (uint64_t)ct_ind ? w->lo : (uint64_t)ct_ind;
	w->hi = w->x[X_BACK].from + 4;
}

/*
 * The source of the first of the workload's taken transfers at or after
 * @addr: the end of the straight run that starts there.  ~0 if none.
 */
static inline uint64_t ct_next_source(const struct ct_workload *w, uint64_t addr)
{
	uint64_t best = ~0ULL;
	int i;

	for (i = 0; i < X_NR; i++)
		if (w->x[i].from >= addr && w->x[i].from < best)
			best = w->x[i].from;
	return best;
}

static inline int ct_same(const struct perf_branch_entry *e,
			  const struct ct_xfer *x)
{
	return e->from == x->from && e->to == x->to && e->type == x->perf_type;
}

/* Which transfer of the workload @e is, or -1. */
static inline int ct_which(const struct ct_workload *w,
			   const struct perf_branch_entry *e)
{
	int i;

	for (i = 0; i < X_NR; i++)
		if (ct_same(e, &w->x[i]))
			return i;
	return -1;
}

/* riscv64 kernels live in the upper half of every Sv39/48/57 space. */
static inline int ct_is_kernel(uint64_t a)
{
	return a >> 63;
}

#endif /* CTR_TEST_LIB_H */
