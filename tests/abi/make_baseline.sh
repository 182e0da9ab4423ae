#!/bin/sh
# make_baseline.sh - writes tests/abi/libttt-MAJOR.MINOR.abi from a released commit, built with debug info in a scratch worktree.
# usage: tests/abi/make_baseline.sh COMMIT MAJOR.MINOR   (e.g. make_baseline.sh v1.2.0 1.2 at a release)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
commit=$1
version=$2
out="$top/tests/abi/libttt-$version.abi"

scratch=$(mktemp -d)
cleanup() {
  git -C "$top" worktree remove --force "$scratch/src" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT INT TERM

# The released sources exactly as tagged, outside this tree.
git -C "$top" worktree add --detach "$scratch/src" "$commit" >/dev/null 2>&1
. "$top/tests/abi/abi_lib.sh"
lib=$(build_shared_library "$scratch/src" "$scratch/build")
dump_abi "$lib" "$out"
echo "wrote $out from $(git -C "$top" rev-parse --short "$commit")"
