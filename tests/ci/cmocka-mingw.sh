#!/usr/bin/env bash
# tests/ci/cmocka-mingw.sh - builds a static Windows cmocka from Debian's cmocka source package for the mingw-w64 cross build; prints its prefix.
# Usage: tests/ci/cmocka-mingw.sh PREFIX   (needs deb-src in apt's sources; .ci/run adds it)
# Debian ships no Windows cmocka, and the build never downloads anything
# else: cmocka is one C file, compiled here with the cross compiler.
set -euo pipefail
prefix=$(realpath -m "$1")
cc=x86_64-w64-mingw32-gcc
ar=x86_64-w64-mingw32-ar
if [ -f "$prefix/lib/pkgconfig/cmocka.pc" ]; then echo "$prefix"; exit 0; fi

work="$prefix/src"
rm -rf "$work"
mkdir -p "$work" "$prefix/lib/pkgconfig" "$prefix/include"
(cd "$work" && apt-get source --download-only -q cmocka >apt-source.log 2>&1) ||
  { cat "$work/apt-source.log" >&2; echo "apt-get source cmocka failed: is a deb-src line configured?" >&2; exit 1; }
for tarball in "$work"/cmocka_*.orig.tar.*; do
  case $tarball in *.asc) ;; *) tar -xf "$tarball" -C "$work" ;; esac
done
src=$(echo "$work"/cmocka-*/)
version=$(basename "$src" | sed 's/^cmocka-//')

# What cmocka's CMake checks would find on mingw-w64.
"$cc" -std=gnu99 -O2 -c "$src/src/cmocka.c" -o "$work/cmocka.o" -I"$src/include" \
  -DHAVE_INTTYPES_H -DHAVE_MALLOC_H -DHAVE_SIGNAL_H -DHAVE_STRINGS_H \
  -DHAVE_GCC_THREAD_LOCAL_STORAGE -DHAVE_STRUCT_TIMESPEC -DHAVE_CLOCK_GETTIME \
  -DHAVE_CLOCK_REALTIME -D_CRT_SECURE_NO_WARNINGS -D__USE_MINGW_ANSI_STDIO=1 >&2
"$ar" rcs "$prefix/lib/libcmocka.a" "$work/cmocka.o"
# cmocka prints through mingw's C99 stdio (__USE_MINGW_ANSI_STDIO, as the
# cross file sets for the tests), so its format checks are GNU printf's,
# which know %zu, not the msvcrt default that "__printf__" means there.
sed 's/__format__ (__printf__,/__format__ (__gnu_printf__,/' "$src/include/cmocka.h" >"$prefix/include/cmocka.h"
grep -q '__gnu_printf__' "$prefix/include/cmocka.h"
cat >"$prefix/lib/pkgconfig/cmocka.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: cmocka
Description: cmocka $version built for x86_64-w64-mingw32 from Debian's source package
Version: $version
Libs: -L\${libdir} -lcmocka
Cflags: -I\${includedir} -D__USE_MINGW_ANSI_STDIO=1
PC
echo "$prefix"
