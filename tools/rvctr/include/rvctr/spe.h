/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SPE-like per-branch samples, laid out as perf's own Arm SPE synthesis
 * (tools/perf/util/arm-spe.c: arm_spe_prep_sample,
 * arm_spe__prep_branch_stack, arm_spe__synth_branch_sample) lays out the
 * samples it makes from SPE records (Arm ARM D17.6: a sampled branch
 * carries its address, its target, the previous branch target and a
 * latency).  From each CTR branch record we write one sample:
 *
 *   event   "branch" (perf 6.14+ names its branch samples so), and
 *           "branch-miss" as well when the record is mispredicted (the
 *           event older perf synthesizes for mispredicted branches only)
 *   ip      the branch source        addr    its target
 *   misc    cpumode from ip: PERF_RECORD_MISC_KERNEL for an address in the
 *           upper half (RISC-V kernels live there), else _USER, as
 *           arm_spe_cpumode() compares ip with the kernel start
 *   weight  the record's cycle count: cycles since the previous recorded
 *           transfer (CTR ccv/cc; 0 when the hart gives none).  SPE's
 *           weight is the sampled branch's total issue-to-complete
 *           latency; CTR has no such count, so this is the nearest figure.
 *   branch stack, hw_idx -1 (perf writes no hardware index either):
 *     [0] {from, to} of this branch, with its type, mispredict/predicted
 *         and cycles
 *     [1] {0, target of the previous (older) taken branch}, type UNKNOWN:
 *         SPE's previous-branch-target packet, which has no source; left
 *         out when this is the oldest record of the stack
 *
 * so perf report/script sort and print them with no special support.
 */
#ifndef RVCTR_SPE_H
#define RVCTR_SPE_H

#include <rvctr/perf_data.h>

enum { RVCTR_SPE_BRANCH, RVCTR_SPE_BRANCH_MISS, RVCTR_SPE_NR_ATTRS };

/*
 * The attributes and names of an SPE-like file, for rvctr_writer__open().
 * The exclude_{user,kernel,hv} bits follow @in, the input's event (as perf
 * copies them from the SPE event), when it is not NULL; else user only.
 */
void rvctr_spe__attrs(struct perf_event_attr attrs[RVCTR_SPE_NR_ATTRS],
		      const char *names[RVCTR_SPE_NR_ATTRS], const struct perf_event_attr *in);
/* Write the per-branch samples of one branch-stack sample; 0 or -1. */
int rvctr_spe__emit(struct rvctr_writer *w, const struct rvctr_sample *s);
/* PERF_RECORD_MISC_KERNEL or _USER for a RISC-V address. */
uint16_t rvctr_spe__cpumode(uint64_t ip);

#endif /* RVCTR_SPE_H */
