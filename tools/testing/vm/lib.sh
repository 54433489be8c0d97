# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the QEMU bench scripts (sourced, not run).
#
# Everything expensive lives under $RVCTR_CACHE (default ~/.cache/rvctr),
# outside the clone, keyed by what it is built from.  Nothing here requires
# the cache to exist: a missing entry is built.

set -euo pipefail

RVCTR_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
RVCTR_VM="$RVCTR_TOP/tools/testing/vm"
RVCTR_CACHE=${RVCTR_CACHE:-$HOME/.cache/rvctr}
RVCTR_BUILD=${RVCTR_BUILD:-$RVCTR_TOP/build}
CROSS_COMPILE=${CROSS_COMPILE:-riscv64-linux-gnu-}
OPENSBI_FW=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
# The guest userland comes from this suite (private apt configuration).
GUEST_SUITE=trixie
GUEST_MIRROR=${RVCTR_GUEST_MIRROR:-http://deb.debian.org/debian}

log() { printf '[rvctr] %s\n' "$*" >&2; }
die() { printf '[rvctr] error: %s\n' "$*" >&2; exit 1; }

# Hash of files' contents (not their paths: every clone must find the
# same cache entry) and of strings, for cache keys.
key_of() {
	local f
	for f in "$@"; do
		if [ -f "$f" ]; then sha256sum <"$f"; else printf '%s\n' "$f"; fi
	done | sha256sum | cut -c1-16
}

# Take an exclusive lock for the rest of the calling script, so two
# concurrent runs (developers, helpers, CI) never build one entry twice.
cache_lock() {
	mkdir -p "$RVCTR_CACHE"
	exec 9>"$RVCTR_CACHE/.lock-$1"
	flock 9
}

# Private apt configurations for Debian riscv64 guests.  Each has its own
# sources, state, cache and an empty dpkg status, so the host's apt sources
# and dpkg database are never read or written.  NAME is the suite: "trixie"
# for the rootfs, "trixie-backports" for arch-all extras (linux-source-7.3);
# they are kept apart so a mirror hiccup in one does not stop the other.
#   apt_private NAME apt-get ...
apt_private() {
	local name=$1 d="$RVCTR_CACHE/apt-$1"
	shift
	if [ ! -f "$d/apt.conf" ]; then
		mkdir -p "$d/etc/apt.conf.d" "$d/etc/sources.list.d" \
			"$d/etc/preferences.d" "$d/state/lists/partial" \
			"$d/cache/archives/partial" "$d/log"
		: >"$d/state/status"
		echo "deb [arch=riscv64,all signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $GUEST_MIRROR $name main" \
			>"$d/etc/sources.list"
		cat >"$d/apt.conf.tmp" <<EOF
APT::Architecture "riscv64";
APT::Architectures { "riscv64"; };
APT::Install-Recommends "false";
APT::Sandbox::User "root";
Acquire::Retries "3";
Dir::Etc "$d/etc";
Dir::Etc::SourceList "$d/etc/sources.list";
Dir::Etc::SourceParts "$d/etc/sources.list.d";
Dir::Etc::Parts "$d/etc/apt.conf.d";
Dir::Etc::Preferences "$d/etc/preferences";
Dir::Etc::PreferencesParts "$d/etc/preferences.d";
Dir::State "$d/state";
Dir::State::status "$d/state/status";
Dir::Cache "$d/cache";
Dir::Log "$d/log";
Debug::NoLocking "true";
EOF
		mv "$d/apt.conf.tmp" "$d/apt.conf"
	fi
	APT_CONFIG="$d/apt.conf" "$@"
}

# Refresh a private configuration's package lists at most once a day;
# retry, since mirrors are sometimes caught mid-sync (for minutes: the
# tries span about five).  Returns non-zero if there are no usable lists
# at all.
apt_private_update() {
	local d="$RVCTR_CACHE/apt-$1" stamp try out
	stamp="$d/state/updated-$(date +%Y%m%d)"
	[ -f "$stamp" ] && return 0
	for try in 1 2 3 4 5; do
		if out=$(apt_private "$1" apt-get -q -o Acquire::http::No-Cache=true update 2>&1) &&
		   ! grep -q '^E:' <<<"$out"; then
			touch "$stamp"
			return 0
		fi
		log "apt update for Debian $1 failed (try $try of 5)"
		[ "$try" -eq 5 ] || sleep $((try * try * 10))
	done
	printf '%s\n' "$out" | grep '^[EW]:' >&2
	if grep -q -e 'unexpected size' -e 'Hash Sum mismatch' <<<"$out"; then
		log "the mirror ($GUEST_MIRROR) serves package lists that do not match its signed" \
			"InRelease (a sync in progress, or a stale cache in between); apt will not use" \
			"them.  Retry later, or set RVCTR_GUEST_MIRROR to another Debian mirror."
	fi
	# Stale lists still serve: only fail if there are none at all.
	ls "$d"/state/lists/*_Packages >/dev/null 2>&1 || return 1
	log "warning: using old package lists for Debian $1"
}

# The sets of Debian trixie riscv64 packages the bench unpacks, by name:
# "MODE PKG..." where MODE is "install" (the packages and every dependency
# apt would install on an empty system) or "download" (these packages
# only).  guest-lock resolves each into guest-packages.lock.
guest_set() {
	local mode=install list
	local -a l
	case $1 in
	rootfs) l=(guest-packages) ;;
	rootfs-parity) l=(guest-packages guest-packages-parity) ;;
	sysroot) l=(guest-sysroot-packages) mode=download ;;
	perf) l=(perf-sysroot-packages) ;;
	edk2) l=(edk2-packages) mode=download ;;
	*) die "no guest package set '$1'" ;;
	esac
	list=$(cd "$RVCTR_VM" && sed -e 's/#.*//' "${l[@]}") ||
		die "cannot read the package lists of '$1' (${l[*]})"
	echo "$mode $(tr -s ' \t' '\n' <<<"$list" | sed '/^$/d' | LC_ALL=C sort -u | paste -sd' ')"
}
# shellcheck disable=SC2034 # guest-lock and test-guest-lock walk them
GUEST_SETS="rootfs rootfs-parity sysroot perf edk2"
GUEST_LOCK=${RVCTR_GUEST_LOCK:-$RVCTR_VM/guest-packages.lock}

# The lock's lines for set $1 (empty if it has none): part of the cache
# key of whatever is built from the set.
guest_lock_lines() {
	[ -f "$GUEST_LOCK" ] || return 0
	awk -v s="$1" '($1 == "set" || $1 == "deb") && $2 == s' "$GUEST_LOCK"
}

# guest_lock_fetch SET DIR: the pinned .debs of SET into DIR, each pool
# file checked against its SHA256 in the lock.  Fails (after saying why)
# if the lock has no entry for SET's current request, or a file cannot be
# downloaded or does not match: the caller then asks apt.
guest_lock_fetch() {
	local set=$1 dir=$2 req want have cfg sums path sum
	req=$(guest_set "$set") || exit 1
	want="set $set $req"
	have=$(guest_lock_lines "$set" | grep '^set ' || true)
	if [ "$have" != "$want" ]; then
		log "$(basename "$GUEST_LOCK") has no entry for the current '$set' package list" \
			"(tools/testing/vm/guest-lock writes it)"
		return 1
	fi
	cfg="$dir/.curl" sums="$dir/.sha256"
	: >"$cfg"
	: >"$sums"
	while read -r _ _ _ _ _ path _ sum; do
		printf 'url = "%s/%s"\noutput = "%s/%s"\n' "$GUEST_MIRROR" "$path" \
			"$dir" "$(basename "$path")" >>"$cfg"
		printf '%s  %s/%s\n' "$sum" "$dir" "$(basename "$path")" >>"$sums"
	done < <(guest_lock_lines "$set" | grep '^deb ')
	if ! curl -fsS --retry 3 --retry-all-errors --parallel --parallel-max 4 -K "$cfg" >&2; then
		log "cannot download every pinned package of '$set' from $GUEST_MIRROR"
		return 1
	fi
	if ! sha256sum -c --quiet "$sums" >&2; then
		log "pinned packages of '$set' do not match their SHA256 in $(basename "$GUEST_LOCK")"
		return 1
	fi
	log "'$set': $(grep -c . "$sums") pinned packages, SHA256 checked"
	rm -f "$cfg" "$sums"
}

# guest_debs SET DIR: the .debs of package set SET (guest_set) in DIR,
# nothing else there.  From the lock when it holds SET's current list and
# the mirror still has every file (it drops superseded versions at point
# releases); else through the private apt configuration and Debian's
# signed index, resolved afresh.
guest_debs() {
	local set=$1 dir=$2 req mode
	local -a pkgs
	rm -rf "$dir"
	mkdir -p "$dir"
	guest_lock_fetch "$set" "$dir" && return 0
	rm -rf "$dir"
	mkdir -p "$dir/partial"
	req=$(guest_set "$set") || exit 1
	mode=${req%% *}
	read -r -a pkgs <<<"${req#* }"
	log "warning: '$set' is not taken from the lock: resolving it through Debian" \
		"$GUEST_SUITE's index, so this machine may unpack other versions than the lock's"
	apt_private_update "$GUEST_SUITE" ||
		die "cannot read the Debian $GUEST_SUITE riscv64 package index"
	case $mode in
	install)
		apt_private "$GUEST_SUITE" apt-get -q -y --download-only \
			-o Dir::Cache::archives="$dir" install "${pkgs[@]}" >&2 ;;
	download)
		(cd "$dir" && apt_private "$GUEST_SUITE" apt-get -q download "${pkgs[@]}") >&2 ;;
	*) die "'$set': unknown mode '$mode'" ;;
	esac || die "cannot download the '$set' packages (${pkgs[*]}) from Debian $GUEST_SUITE"
	rm -rf "$dir/partial" "$dir/lock"
}

# EDK II for riscv64 (Debian trixie's qemu-efi-riscv64, an arch-all
# package fetched by guest_debs and unpacked into the cache, never
# installed on the host).  Prints the directory holding
# RISCV_VIRT_CODE.fd and RISCV_VIRT_VARS.fd.  Used by run --acpi.
edk2_firmware() {
	local d deb
	d="$RVCTR_CACHE/edk2-$(key_of "$RVCTR_VM/edk2-packages" "$(guest_lock_lines edk2)")"
	if [ -f "$d/done" ]; then
		echo "$d/fw"
		return 0
	fi
	cache_lock "$(basename "$d")"
	if [ ! -f "$d/done" ]; then
		rm -rf "$d"
		guest_debs edk2 "$d/dl"
		deb=$(ls "$d"/dl/qemu-efi-riscv64_*.deb) || die "no qemu-efi-riscv64 .deb"
		dpkg-deb -x "$deb" "$d/x" || die "cannot unpack $deb"
		mkdir -p "$d/fw"
		mv "$d"/x/usr/share/qemu-efi-riscv64/RISCV_VIRT_*.fd "$d/fw/" ||
			die "$deb has no RISCV_VIRT_*.fd"
		basename "$deb" >"$d/version"
		rm -rf "$d/x" "$d/dl"
		touch "$d/done"
	fi
	exec 9>&-
	echo "$d/fw"
}

# The pristine source tarball of Linux $1 (sets $tarball and $pkgver): the
# host package for 6.12 (bookworm), the arch-all package from
# trixie-backports for 7.3, fetched privately and unpacked.  Used by
# build-kernel and the upstream series (tools/series).
linux_tarball() {
	local ver=$1 d deb
	if [ "$ver" = 6.12 ]; then
		tarball="/usr/src/linux-source-$ver.tar.xz"
		[ -f "$tarball" ] || die "$tarball missing: run tools/testing/vm/setup"
		pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
		return
	fi
	d="$RVCTR_CACHE/src-debs"
	mkdir -p "$d"
	deb=$(fetch_source_deb "$ver" "$d") || exit 1
	pkgver=$(dpkg-deb -f "$deb" Version) || die "$deb is not a Debian package"
	tarball="$d/$pkgver/usr/src/linux-source-$ver.tar.xz"
	if [ ! -f "$tarball" ]; then
		# unpacked beside and renamed: a half-unpacked tree is never taken
		rm -rf "$d/$pkgver" "$d/$pkgver.tmp.$$"
		dpkg-deb -x "$deb" "$d/$pkgver.tmp.$$" || die "cannot unpack $deb"
		mv -T "$d/$pkgver.tmp.$$" "$d/$pkgver" 2>/dev/null || rm -rf "$d/$pkgver.tmp.$$"
		[ -f "$tarball" ] || die "$deb has no linux-source-$ver.tar.xz"
	fi
}

# Debian's pristine linux-source-$1, unpacked once into the cache (sets
# $linux_src, the tree, and $pkgver).  The series tools take a handful of
# files from it on every make check, and the kernel builds copy it: from
# the .tar.xz each of those decompressed the whole tarball again (12 s of
# CPU; build-kernel for 7.3 generates the series to compute its key).
# Never modified: copy what you change.
linux_pristine() {
	local ver=$1 d
	tarball=
	linux_tarball "$ver"
	d="$RVCTR_CACHE/src-tree/$ver-$pkgver"
	linux_src="$d/linux-source-$ver"
	[ -f "$d/.rvctr-done" ] && return
	mkdir -p "$RVCTR_CACHE"
	(
		exec 9>"$RVCTR_CACHE/.lock-src-tree-$ver-$pkgver"
		flock 9
		[ -f "$d/.rvctr-done" ] && exit 0
		rm -rf "$d"
		mkdir -p "$d"
		tar -C "$d" -xf "$tarball" || exit 1
		[ -d "$linux_src" ] || exit 1
		touch "$d/.rvctr-done"
	) || die "cannot unpack $tarball"
}

# opensbi_fw VER: the fw_dynamic.bin of Debian's opensbi VER, for a board
# whose firmware must do what the host's does not (run's
# RVCTR_VM_OPENSBI): the pool file pinned in tools/testing/vm/
# opensbi-VER.pin, checked by its SHA256, unpacked once into the cache.
# Prints the firmware's path.
opensbi_fw() {
	local ver=$1 pin path sum d deb fw=usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
	pin="$RVCTR_VM/opensbi-$ver.pin"
	[ -f "$pin" ] || die "no $pin"
	read -r path sum < <(grep -v '^#' "$pin")
	d="$RVCTR_CACHE/opensbi/$ver-${sum:0:16}"
	if [ ! -f "$d/fw_dynamic.bin" ]; then
		mkdir -p "$d"
		deb="$d/$(basename "$path")"
		curl -fsS --retry 3 --retry-all-errors -o "$deb.part" "$GUEST_MIRROR/$path" ||
			die "cannot download $GUEST_MIRROR/$path (the mirror moved on? see $pin)"
		echo "$sum  $deb.part" | sha256sum -c --quiet - || die "$path: SHA256 mismatch"
		rm -rf "$d/x"
		dpkg-deb -x "$deb.part" "$d/x" || die "cannot unpack $path"
		cp "$d/x/$fw" "$d/fw_dynamic.bin.tmp" || die "$path has no $fw"
		mv "$d/fw_dynamic.bin.tmp" "$d/fw_dynamic.bin"
		rm -rf "$d/x" "$deb.part"
	fi
	echo "$d/fw_dynamic.bin"
}

# Download linux-source-$1 into $2: the pinned pool file, checked by
# SHA256 (kernel/linux-source-$1.pin), as guest_debs does for the guest's
# packages; through the private apt configuration (signed index) if the
# mirror no longer has it.
fetch_source_deb() {
	local ver=$1 d=$2 pin path sum f
	pin="$RVCTR_TOP/kernel/linux-source-$ver.pin"
	if [ -f "$pin" ]; then
		read -r path sum < <(grep -v '^#' "$pin")
		f="$d/$(basename "$path")"
		if [ -f "$f" ]; then
			echo "$f"
			return
		fi
		if curl -fsS --retry 3 --retry-all-errors -o "$f.part" "$GUEST_MIRROR/$path" &&
		   echo "$sum  $f.part" | sha256sum -c --quiet -; then
			mv "$f.part" "$f"
			echo "$f"
			return
		fi
		rm -f "$f.part"
		log "cannot fetch the pinned $(basename "$path"): asking Debian's index"
	fi
	apt_private_update trixie-backports ||
		die "cannot read Debian trixie-backports' package lists"
	(cd "$d" && apt_private trixie-backports apt-get -q download "linux-source-$ver" >&2) ||
		die "cannot download linux-source-$ver from Debian trixie-backports"
	ls -t "$d"/linux-source-"$ver"_*_all.deb | head -1
}

# The lines of file $1 strictly between the first line containing $2 and
# the next containing $3, without blank lines at either end (the series'
# "block" files, tools/series/mkseries and check-series).
extract_block() {
	awk -v b="$2" -v e="$3" '
		!on && index($0, b) { on = 1; next }
		on && index($0, e) { exit }
		on { l[n++] = $0 }
		END {
			s = 0; while (s < n && l[s] == "") s++
			t = n - 1; while (t >= s && l[t] == "") t--
			for (i = s; i <= t; i++) print l[i]
		}' "$1"
}

# The leading patches of the series in directory $1 that touch nothing but
# arch/riscv/ and the devicetree bindings (ISA ids, CSR definitions), in
# order: the 7.3 bench kernel carries them (build-kernel), so the series
# kernel differs from it only in files few others include.  Fixes of
# stock code come first in the series (they are meant for stable) and
# are passed over: the bench kernel is stock but for the ISA patches.
series_isa_patches() {
	local p
	for p in "$1"/[0-9]*.patch; do
		case "$p" in */0000-cover-letter.patch) continue ;; esac
		grep -q '^Fixes: ' "$p" && continue
		sed -n 's|^+++ b/||p' "$p" |
			grep -qv -e '^arch/riscv/' -e '^Documentation/devicetree/' && break
		echo "$p"
	done
}

# What identifies a patch file $1 for a cache key: its diff, not the mail
# around it, whose "[PATCH n/m]" changes whenever the series gains a patch.
patch_key() {
	sed -n '/^diff --git /,$p' "$1" | sha256sum | cut -c1-64
}

# stall_guard DIR GRACE: copy a board's console (stdin) to stdout, each
# line stamped with the host's time (seconds), and end the board (the QEMU
# pid in DIR/qemu.pid, run's RVCTR_VM_PIDFILE) once its kernel has
# reported a stall (RCU stall, soft lockup, hung task) and GRACE seconds
# have passed since with no line starting "parity: " (a finished test):
# DIR/stalled then says why.  A livelocked guest kernel runs no task, so
# no time limit inside the guest can end its test.
stall_guard() {
	local d=$1 grace=$2 l part='' rc since='' msg='' tick
	tick=$((grace < 15 ? (grace > 0 ? grace : 1) : 15))
	while :; do
		if IFS= read -r -t "$tick" l; then
			l=$part$l
			part=''
		else
			rc=$?
			if [ "$rc" -le 128 ]; then
				[ -z "$part$l" ] || printf '%(%s)T %s\n' -1 "$part$l"
				break
			fi
			# Timed out: bash hands back the partial line.
			part=$part$l
			l=''
		fi
		if [ -n "$l" ]; then
			printf '%(%s)T %s\n' -1 "$l"
			case $l in
			*"self-detected stall"*|*"detected stalls on CPU"*|*"soft lockup"*|*"blocked for more than"*)
				[ -n "$since" ] || { since=$SECONDS; msg=$l; } ;;
			"parity: "*) since='' ;;
			esac
		fi
		if [ -n "$since" ] && [ $((SECONDS - since)) -ge "$grace" ] &&
		   [ ! -f "$d/stalled" ]; then
			printf '%s; no test finished for %d s after it\n' \
				"$(printf '%s' "$msg" | tr -d '\r' | sed -e 's/^\[[ 0-9.]*\] *//')" \
				"$grace" >"$d/stalled"
			printf '%(%s)T stall guard: the guest stalled, ending the board\n' -1
			kill "$(cat "$d/qemu.pid" 2>/dev/null)" 2>/dev/null || true
		fi
	done
}
