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
PB_CFLAGS="-O2 -g -gdwarf-4"
PB_LDFLAGS="-fuse-ld=lld -Wl,--emit-relocs -Wl,--no-rosegment"

# last_words FILE N: FILE's last N non-blank lines on one line, bytes that
# are not printable as '?' (a tool's error may quote binary data, and grep
# would then only say "binary file matches", on stderr)
last_words() {
	grep -av '^[[:space:]]*$' "$1" | tail -n "$2" | tr '\n' ' ' | LC_ALL=C tr -c '[:print:]' '?'
}

# pin_of NAME: "PATH SHA256" from the sources file
pin_of() {
	awk -v n="$1" '$1 == n { print $2, $3 }' "$PB_DIR/sources"
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
	[ -n "$pin" ] || die "no pin for $name in $PB_DIR/sources"
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
# build of PROGRAM, cached by the sources, these scripts and the compiler
# (make profile-bench and make check share them); prints its directory.
# The caller holds cache_lock profile-bench.
cached_build() {
	local key d
	key=$(key_of "$PB_DIR/lib.sh" "$PB_DIR/sources" "$("$CLANG" --version | head -1)")
	d="$PB_CACHE/build-$1-$2-$key"
	if [ ! -f "$d/done" ]; then
		rm -rf "$d"
		mkdir -p "$PB_CACHE"
		"build_$1" "$d" "$3" >"$d.log" 2>&1 || { cat "$d.log" >&2; die "cannot build $1 ($2)"; }
		rm -rf "$d/obj"
		touch "$d/done"
	fi
	echo "$d"
}

pb_cc() {
	"$CLANG" --target=$TARGET "$@"
}

# build_bzip2 OUT "EXTRA CFLAGS": bzip2 with its library compiled in,
# a position-dependent (non-PIE) executable
build_bzip2() {
	local out=$1 extra=$2 src f objs=()
	src=$(source_dir bzip2)
	mkdir -p "$out/obj"
	for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do
		# shellcheck disable=SC2086
		pb_cc $PB_CFLAGS $extra -fno-pic -D_FILE_OFFSET_BITS=64 -Wno-unused-result \
			-c "$src/$f.c" -o "$out/obj/$f.o" || return 1
		objs+=("$out/obj/$f.o")
	done
	# shellcheck disable=SC2086
	pb_cc $PB_CFLAGS $extra $PB_LDFLAGS -no-pie -o "$out/bzip2" "${objs[@]}"
}

# build_zlib OUT "EXTRA CFLAGS": libz.so.1 (the hot code) and the PIE
# test programs minigzip and example that link it
build_zlib() {
	local out=$1 extra=$2 src f objs=()
	src=$(source_dir zlib)
	mkdir -p "$out/obj"
	for f in adler32 crc32 deflate infback inffast inflate inftrees trees zutil \
		compress uncompr gzclose gzlib gzread gzwrite; do
		# shellcheck disable=SC2086
		pb_cc $PB_CFLAGS $extra -fPIC -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN \
			-c "$src/$f.c" -o "$out/obj/$f.o" || return 1
		objs+=("$out/obj/$f.o")
	done
	# shellcheck disable=SC2086
	pb_cc $PB_CFLAGS $extra $PB_LDFLAGS -shared -Wl,-soname,libz.so.1 \
		-Wl,--version-script,"$src/zlib.map" -o "$out/libz.so.1" "${objs[@]}" || return 1
	ln -sf libz.so.1 "$out/libz.so"
	for f in minigzip example; do
		# shellcheck disable=SC2086
		pb_cc $PB_CFLAGS $extra -fPIE -pie -I"$src" $PB_LDFLAGS -Wno-deprecated-non-prototype \
			-o "$out/$f" "$src/test/$f.c" -L"$out" -lz || return 1
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
