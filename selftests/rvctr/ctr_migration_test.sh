#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Call stacks of a task moved from hart to hart while it records
# (ctr_callstack_test's call_stack_across_migration), alone: the
# multi-hart boards run without -icount, where the other call-stack
# cases, which need so many samples, are at the mercy of the host's
# speed; they run in the sampling pass.
exec /opt/rvctr/selftests/ctr_callstack_test -t call_stack_across_migration
