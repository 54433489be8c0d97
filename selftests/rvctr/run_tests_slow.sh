#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-slow: only the *_slowtest.sh selftests (perf's own branch-stack
# shell tests, which take over 10 minutes on the emulated board).
here=$(cd "$(dirname "$0")" && pwd)
# Up to 50 minutes for the pair.
RVCTR_SLOW=1 RVCTR_TEST_TIMEOUT=3000 exec "$here/run_tests.sh" brstack_perfsuite_slowtest
