#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-slow: the *_slowtest.sh selftests (perf's own branch-stack
# shell tests, which take over 10 minutes on the emulated board) and
# pmu_perf_test with perf stat's output linters, which make check leaves
# out.
here=$(cd "$(dirname "$0")" && pwd)
# Up to 50 minutes a test.
RVCTR_SLOW=1 RVCTR_TEST_TIMEOUT=3000 exec "$here/run_tests.sh" brstack_perfsuite_slowtest pmu_perf_test
