# SPDX-License-Identifier: GPL-2.0-only
# Shared by the passes that run chosen selftests from /opt/rvctr/selftests
# (icount/run_tests.sh, acpi/run_tests.sh); sourced.
#   run_selftest PASS NAME: runs NAME (a built test or a *_test.sh) with
#   its output on the console and in $out/PASS_NAME.tap, adds a "not ok"
#   line when it failed without printing one (a crash, say), and sets
#   status=1 on failure (4 is kselftest's "skipped").
run_selftest() {
	local pass=$1 name=$2 tap rc

	# A script may be named without its .sh, as run_tests.sh takes it.
	[ ! -e "$bins/$name" ] && [ -e "$bins/$name.sh" ] && name=$name.sh
	tap="$out/${pass}_${name%.sh}.tap"
	echo "# === $pass: $name"
	local start=$SECONDS
	if [ ! -e "$bins/$name" ]; then
		echo "not ok 1 $name not built" | tee "$tap"
		status=1
		return
	fi
	case $name in
	*.sh) (cd "$bins" && timeout 300 bash "./$name") ;;
	*) (cd /tmp && timeout 300 "$bins/$name") ;;
	esac >"$tap" 2>&1
	rc=$?
	cat "$tap"
	# Board seconds: under -icount, instructions retired (a pass's cost).
	echo "# $name: $((SECONDS - start)) s"
	if [ $rc -ne 0 ] && [ $rc -ne 4 ] && ! grep -q '^not ok' "$tap"; then
		echo "not ok - $name exited with status $rc" | tee -a "$tap"
	fi
	[ $rc -eq 0 ] || [ $rc -eq 4 ] || status=1
}
