# tests/ci/tsan_probe.sh - sourced by the ThreadSanitizer stages: sets tsan_run to the prefix a TSan program needs on this kernel.
# Usage: . tests/ci/tsan_probe.sh CC WORK_DIR; then "${tsan_run[@]}" PROGRAM...
# TSan (gcc 12, clang 14) keeps its shadow memory at fixed addresses. A kernel
# with 32 bits of mmap randomisation (vm.mmap_rnd_bits = 32, the default of
# some distributions since Linux 6.5) can place a library there, and every
# TSan program stops with "unexpected memory mapping" before main. There the
# programs run with address randomisation off (setarch -R), which a child
# inherits; elsewhere they run as they are.
tsan_run=()
mkdir -p "$2"
printf '#include <pthread.h>\nstatic void *run(void *arg) { return arg; }\nint main(void) { pthread_t t; return pthread_create(&t, 0, run, 0) || pthread_join(t, 0); }\n' \
  >"$2/tsan_probe.c"
"$1" -fsanitize=thread -g "$2/tsan_probe.c" -o "$2/tsan_probe" -pthread
if ! "$2/tsan_probe" >"$2/tsan_probe.log" 2>&1; then
  if setarch "$(uname -m)" -R "$2/tsan_probe" >>"$2/tsan_probe.log" 2>&1; then
    tsan_run=(setarch "$(uname -m)" -R)
    echo "ThreadSanitizer: runs with address randomisation off (setarch -R): vm.mmap_rnd_bits = $(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo '?')"
  else
    cat "$2/tsan_probe.log"
    echo "ThreadSanitizer cannot run a program on this machine, even with setarch -R (see above)"
    exit 1
  fi
fi
