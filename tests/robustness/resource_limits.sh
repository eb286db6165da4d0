#!/usr/bin/env bash
# Resource limits (issue #33): under `ulimit -v` (address space), `ulimit -f` (file size) and
# `ulimit -n` (open files) every command either succeeds or fails cleanly (exit 1..127, no signal
# such as SIGXFSZ or an abort, no hang) with a message that says what ran out or names the file,
# leaves its input unchanged and leaves no partial output or temporary behind.
# (tests/cli/low_memory.sh and disk_full.sh cover `run` under -v and a full disk in more depth.)
# Usage: resource_limits.sh APERTURA_CLI
#   APERTURA_FUZZ_SEED, APERTURA_FUZZ_ONLY=I, APERTURA_FUZZ_KEEP=1, APERTURA_FUZZ_VERBOSE=1: see lib.sh.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
rb_init "${1:?usage: resource_limits.sh APERTURA_CLI}" "$0"

ms=$work/in.ms
big=$work/big.ms
sim_small=(simulate --point "1,0,0" --array random:300:8:12 --hours 1 --integration 60)
{ "$cli" "${sim_small[@]}" -o "$ms" &&
  "$cli" simulate --point 1,0,0 --array random:3000:20:12 --hours 2 --integration 20 --nchan 8 -o "$big"
} > "$work/sim.log" 2>&1 || { cat "$work/sim.log"; echo "FAIL: cannot simulate"; exit 1; }
out=$work/out
mkdir -p "$out"
proj=$work/p.apertura
printf '{"schema_version": 2, "data": {"path": "%s"}, "imaging": {"nx": 256, "ny": 256, "cell_arcsec": 0.2},
 "regularizers": [{"type": "l1", "lambda": 1}], "optimizer": {"max_iterations": 3}, "output": {"prefix": "%s/p"}}\n' \
  "$ms" "$out" > "$proj"
run_outputs="p-dirty.fits p-psf.fits p-model.fits p-residual.fits p-restored.fits p-metrics.csv"
rb_set_inputs "$ms" "$big" "$proj"

# "${limited[@]}" KIND VALUE COMMAND...: COMMAND under `ulimit -KIND VALUE` (set in a shell that
# then becomes the command, so nothing else runs under it).
limited=(bash -c 'ulimit "-$0" "$1" && shift && exec "$@"')

i=0
check() {  # DESC NAMES ALLOWED COMMAND...
  rb_case_no=$i
  if rb_want "$i"; then rb_case "case $i ($1)" "$2" "$out" "$3" "${@:4}"; fi
  i=$((i + 1))
}
# Address space: the dirty image of a large grid, and a run. (Below ~100 MB the dynamic loader
# itself fails, before apertura-cli starts: not tested.)
oom="out of memory|memory|resource"
for kib in 100000 150000 250000 400000 600000; do
  check "ulimit -v $kib: dirty 2048" "$oom" "d-dirty.fits d-psf.fits" \
    "${limited[@]}" v "$kib" "$cli" dirty "$big" --size 2048 --cell 0.02 -o "$out/d"
  check "ulimit -v $kib: run 256" "$oom" "$run_outputs" "${limited[@]}" v "$kib" "$cli" run "$proj"
done
# File size: each output is larger than the limit (stdout and stderr stay below it).
for kib in 64 300 1100; do
  check "ulimit -f $kib: dirty 512" "$out/d|File too large|file size" "d-dirty.fits d-psf.fits" \
    "${limited[@]}" f "$kib" "$cli" dirty "$big" --size 512 --cell 0.05 -o "$out/d"
  check "ulimit -f $kib: run 256" "$out/p|File too large|file size" "$run_outputs" \
    "${limited[@]}" f "$kib" "$cli" run "$proj"
  check "ulimit -f $kib: simulate MS" "s.ms|File too large|file size" "s.ms" \
    "${limited[@]}" f "$kib" "$cli" "${sim_small[@]}" -o "$out/s.ms"
  check "ulimit -f $kib: simulate UVFITS" "s.uvfits|File too large|file size" "s.uvfits" \
    "${limited[@]}" f "$kib" "$cli" "${sim_small[@]}" -o "$out/s.uvfits"
done
# Open files: casacore opens a file per column group and subtable.
for n in 6 8 10 12 14 16 20 24 32; do
  check "ulimit -n $n: info" "in.ms|open files" "" "${limited[@]}" n "$n" "$cli" info "$ms"
  check "ulimit -n $n: dirty" "in.ms|$out/d|open files" "d-dirty.fits d-psf.fits" \
    "${limited[@]}" n "$n" "$cli" dirty "$ms" --size 64 --cell 0.5 -o "$out/d"
  check "ulimit -n $n: run" "in.ms|$out/p|open files" "$run_outputs" "${limited[@]}" n "$n" "$cli" run "$proj"
  check "ulimit -n $n: simulate MS" "s.ms|open files" "s.ms" \
    "${limited[@]}" n "$n" "$cli" "${sim_small[@]}" -o "$out/s.ms"
done
rb_finish
