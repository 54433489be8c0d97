# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# profile-bench helpers (sourced): Debian sources of the programs, and
# their riscv64 builds with clang-19 in each profile variant, cached
# under $RVCTR_CACHE/profile-bench keyed by what they are built from.
# shellcheck source=../vm/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../vm/lib.sh"

PB_DIR="$RVCTR_TOP/tools/testing/profile-bench"
PB_CACHE="$RVCTR_CACHE/profile-bench"
PB_POOL=${RVCTR_POOL_MIRROR:-$GUEST_MIRROR}
CLANG=${CLANG:-clang-19}
TARGET=riscv64-linux-gnu
# DWARF 4: AutoFDO 0.19 cannot read DWARF 5 range lists.  --emit-relocs
# keeps the static relocations BOLT needs to move code; it changes no
# byte of the code, so every variant links with it.
# --no-rosegment: lld by default puts the read-only data in a first
# PT_LOAD and the code in a second one whose p_vaddr - p_offset differs
# from the first's by a page; AutoFDO 0.19 turns file offsets into
# addresses with the first PT_LOAD's p_vaddr (symbol_map.cc:269
# VaddrOfFirstLoadSegment, profile.cc:50), so every address of such a
# binary lands 0x1000 short (fixed upstream in 2023 by get_static_vaddr,
# which uses the executable segment).  With one R+X segment from offset 0
# (the layout GNU ld gives) both agree.
# -fdebug-info-for-profiling: discriminators that tell apart the blocks
# of one source line (a macro's branches, a loop's condition and body on
# one line), which a sample profile counts by line otherwise; bzip2's -O2
# disassembles the same with it (lua5.4's runs 1% fewer instructions),
# and bzip2's llvm-profgen build recovers 91% of PGO's taken-branch cut
# instead of 35% (Documentation/profile-bench.rst, "Discriminators").
PB_CFLAGS="-O2 -g -gdwarf-4 -fdebug-info-for-profiling"
PB_LDFLAGS="-fuse-ld=lld -Wl,--emit-relocs -Wl,--no-rosegment"

# last_words FILE N: FILE's last N non-blank lines on one line, bytes that
# are not printable as '?' (a tool's error may quote binary data, and grep
# would then only say "binary file matches", on stderr)
last_words() {
	grep -av '^[[:space:]]*$' "$1" | tail -n "$2" | tr '\n' ' ' | LC_ALL=C tr -c '[:print:]' '?'
}

# pin_of NAME: "PATH SHA256", from NAME's recipe (its dsc) or, for the
# tools (compiler runtime, QEMU's header), the sources file
pin_of() {
	if [ -f "$(recipe_file "$1")" ]; then
		recipe_get "$1" dsc
	else
		awk -v n="$1" '$1 == n { print $2, $3 }' "$PB_DIR/sources"
	fi
}

# The programs are recipes, recipes/NAME.recipe (recipes/README says
# what one holds): sourced by the host for the build and the data, and by
# the board's work.sh for the test.
recipe_file() {
	echo "$PB_DIR/recipes/$1.recipe"
}

# recipes: the names of every recipe, in name order
recipes() {
	local f
	for f in "$PB_DIR"/recipes/*.recipe; do
		f=${f##*/}
		echo "${f%.recipe}"
	done
}

# recipe_get NAME VAR: one variable of NAME's recipe (in a subshell, so
# one recipe's variables never leak into another's use)
recipe_get() {
	[ -f "$(recipe_file "$1")" ] || die "no recipe $(recipe_file "$1")"
	# shellcheck disable=SC1090,SC1091
	(. "$(recipe_file "$1")" && eval "printf '%s\\n' \"\${$2:-}\"")
}

# fetch_pool PATH SHA256 DIR: one file from the Debian pool into DIR,
# checked against SHA256 (kept if already there and right)
fetch_pool() {
	local path=$1 sum=$2 dir=$3 f
	f="$dir/$(basename "$path")"
	if [ -f "$f" ] && echo "$sum  $f" | sha256sum -c --quiet - 2>/dev/null; then
		return 0
	fi
	mkdir -p "$dir"
	curl -fsS --retry 3 -m 600 -o "$f.part" "$PB_POOL/$path" ||
		die "cannot download $PB_POOL/$path"
	echo "$sum  $f.part" | sha256sum -c --quiet - ||
		die "$path: SHA256 is not the pinned $sum"
	mv "$f.part" "$f"
}

# source_dir NAME: the unpacked, patched Debian source of NAME (cached)
source_dir() {
	local name=$1 pin path sum d dsc
	pin=$(pin_of "$name")
	[ -n "$pin" ] || die "no pin for $name (its recipe's dsc, or $PB_DIR/sources)"
	read -r path sum <<<"$pin"
	d="$PB_CACHE/src/$name-${sum:0:16}"
	if [ ! -f "$d/done" ]; then
		rm -rf "$d"
		fetch_pool "$path" "$sum" "$d/dl"
		dsc="$d/dl/$(basename "$path")"
		# every file the .dsc lists, checked against its SHA256 line
		sed -n '/^Checksums-Sha256:/,/^[^ ]/{/^ /p}' "$dsc" |
		while read -r fsum _ fname; do
			fetch_pool "$(dirname "$path")/$fname" "$fsum" "$d/dl"
		done
		# dpkg-source applies Debian's patches; the .dsc's signature is
		# not checked (its SHA256 is pinned instead).
		(cd "$d" && dpkg-source --no-check -x "$dsc" src >/dev/null) ||
			die "dpkg-source cannot unpack $dsc"
		touch "$d/done"
	fi
	echo "$d/src"
}

# resource_dir: a clang resource directory with the host's headers and
# trixie's riscv64 compiler-rt (profile runtime and builtins)
resource_dir() {
	local pin path sum d
	read -r path sum <<<"$(pin_of libclang-rt-19-dev)"
	d="$PB_CACHE/clang-rt-${sum:0:16}"
	if [ ! -f "$d/done" ]; then
		rm -rf "$d"
		fetch_pool "$path" "$sum" "$d/dl"
		dpkg-deb -x "$d/dl/$(basename "$path")" "$d/x"
		mkdir -p "$d/res/lib"
		mv "$d/x/usr/lib/llvm-19/lib/clang/19/lib/linux" "$d/res/lib/"
		ln -s "$("$CLANG" -print-resource-dir)/include" "$d/res/include"
		rm -rf "$d/x" "$d/dl"
		touch "$d/done"
	fi
	echo "$d/res"
}

# instr_flags: clang's flags for the instrumented build (exact counts)
instr_flags() {
	echo "-resource-dir=$(resource_dir) -fprofile-instr-generate -fcoverage-mapping"
}

# cached_build PROGRAM VARIANT "EXTRA CFLAGS": the -O2 or instrumented
# build of PROGRAM, cached by what builds it: these scripts, its recipe's
# source pin and build lines (not its test or data), and the compiler
# (make profile-bench and make check share them); prints its directory.
# The caller holds cache_lock profile-bench.
cached_build() {
	local key d
	key=$(key_of "$PB_DIR/lib.sh" "$(recipe_get "$1" dsc)" "$(recipe_get "$1" build)" \
		"$("$CLANG" --version | head -1)")
	d="$PB_CACHE/build-$1-$2-$key"
	if [ ! -f "$d/done" ]; then
		rm -rf "$d"
		mkdir -p "$PB_CACHE"
		recipe_build "$1" "$d" "$3" >"$d.log" 2>&1 || { cat "$d.log" >&2; die "cannot build $1 ($2)"; }
		rm -rf "$d/obj"
		touch "$d/done"
	fi
	echo "$d"
}

pb_cc() {
	"$CLANG" --target=$TARGET "$@"
}

# recipe_build PROGRAM OUT "EXTRA CFLAGS": PROGRAM's build lines, each
# compile and link with $PB_CFLAGS and EXTRA first ($PB_LDFLAGS too for a
# link).  A line is KIND ARGS: WORDS, with @src (the unpacked source) and
# @out (OUT) replaced:
#   cc FLAGS: FILE...         compile each FILE of the source into
#                             OUT/obj/NAME.o (PB_JOBS at a time, 2)
#   link NAME FLAGS: WORD...  link OUT/NAME; @objs is every object the cc
#                             lines made, a WORD ending in .c a file of the
#                             source, any other word is passed on
#   ln NAME: TARGET           the symbolic link OUT/NAME -> TARGET
#   echo NAME: TEXT           OUT/NAME holds TEXT and a newline (a header
#                             Debian's rules would generate)
recipe_build() {
	local name=$1 out=$2 extra=$3 src lines line kind head words target f o rc=0
	local objs=() args=() pids=()
	src=$(source_dir "$name") || return 1
	lines=$(recipe_get "$name" build) || return 1
	mkdir -p "$out/obj"
	while IFS= read -r line; do
		line=${line//@src/$src}
		line=${line//@out/$out}
		read -r kind head <<<"${line%%:*}"
		words=${line#*:}
		[ -n "$kind" ] || continue
		case "$kind" in
		cc)
			for f in $words; do
				o=$out/obj/$(basename "${f%.c}").o
				objs+=("$o")
				# shellcheck disable=SC2086
				pb_cc $PB_CFLAGS $extra $head -c "$src/$f" -o "$o" &
				pids+=($!)
				if [ ${#pids[@]} -ge "${PB_JOBS:-2}" ]; then
					wait "${pids[0]}" || rc=1
					pids=("${pids[@]:1}")
				fi
			done
			for f in "${pids[@]}"; do
				wait "$f" || rc=1
			done
			pids=()
			[ $rc = 0 ] || return 1
			;;
		link)
			read -r target head <<<"$head"
			args=()
			for f in $words; do
				case "$f" in
				@objs) args+=("${objs[@]}") ;;
				*.c) args+=("$src/$f") ;;
				*) args+=("$f") ;;
				esac
			done
			# shellcheck disable=SC2086
			pb_cc $PB_CFLAGS $extra $PB_LDFLAGS $head -o "$out/$target" "${args[@]}" || return 1
			;;
		echo)
			mkdir -p "$(dirname "$out/$head")" && echo "${words# }" >"$out/$head" || return 1
			;;
		ln)
			# shellcheck disable=SC2086
			ln -sf $words "$out/$head" || return 1
			;;
		*)
			echo "$name.recipe: unknown build line: $line"
			return 1
			;;
		esac
	done <<<"$lines"
}

# stage_data PROGRAM DIR: the files PROGRAM's test reads into DIR, from
# its recipe's inputs:
#   src:PATH               a file (or glob) of the unpacked source
#   recipe:PATH            a file (or glob) under recipes/
#   cat:NAME:GLOB:GLOB...  the source's files, concatenated in that
#                          order, as one file NAME
stage_data() {
	local name=$1 to=$2 src w f out ws=()
	src=$(source_dir "$name") || return 1
	mkdir -p "$to"
	read -ra ws <<<"$(recipe_get "$name" inputs | tr '\n' ' ')"
	for w in "${ws[@]}"; do
		case "$w" in
		src:*)
			# shellcheck disable=SC2086
			(cd "$src" && cp ${w#src:} "$to/") || return 1
			;;
		recipe:*)
			# shellcheck disable=SC2086
			(cd "$PB_DIR/recipes" && cp -r ${w#recipe:} "$to/") || return 1
			;;
		cat:*)
			f=${w#cat:}
			out=${f%%:*}
			f=${f#*:}
			# shellcheck disable=SC2086
			(cd "$src" && LC_ALL=C cat ${f//:/ }) >"$to/$out" || return 1
			;;
		*)
			echo "$name.recipe: unknown data word $w" >&2
			return 1
			;;
		esac
	done
}

# qemu_plugin: the branches.so TCG plugin (branches.c), built against the
# plugin API header of the bench's QEMU (cached; prints its path)
qemu_plugin() {
	local path sum d key
	read -r path sum <<<"$(pin_of qemu)"
	key=$(key_of "$PB_DIR/branches.c" "$sum")
	d="$PB_CACHE/qemu-plugin-$key"
	if [ ! -f "$d/done" ]; then
		rm -rf "$d"
		fetch_pool "$path" "$sum" "$d/dl"
		mkdir -p "$d/inc"
		tar -xJf "$d/dl/$(basename "$path")" -C "$d/inc" --strip-components=3 \
			--wildcards '*/include/qemu/qemu-plugin.h' ||
			die "no include/qemu/qemu-plugin.h in $(basename "$path")"
		# shellcheck disable=SC2046
		gcc -O2 -std=gnu11 -Wall -Wextra -Werror -shared -fPIC -I"$d/inc" \
			$(pkg-config --cflags glib-2.0) -o "$d/branches.so" "$PB_DIR/branches.c" ||
			die "cannot build the branches.so QEMU plugin"
		rm -rf "$d/dl"
		touch "$d/done"
	fi
	echo "$d/branches.so"
}
