#!/usr/bin/env bash
# Under an address-space limit `run` either finishes or fails with exit 3 and a message that
# says memory or a resource ran out; it never hangs (FFTW once waited forever for a worker
# thread that could not start) and never dies of a signal (issue #33, finding 4).
# Usage: low_memory.sh APERTURA_CLI
set -u
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cli" simulate --point 1,0,0 --array random:300:8:12 --hours 1 --integration 60 \
  -o "$dir/s.ms" > /dev/null || { echo "FAIL: simulate"; exit 1; }
printf '{"schema_version": 2, "data": {"path": "%s"}, "imaging": {"nx": 128, "ny": 128, "cell_arcsec": 0.5},
 "optimizer": {"max_iterations": 5}}\n' "$dir/s.ms" > "$dir/p.apertura"
failed=0
for kib in 150000 200000 250000 300000 350000 400000 500000; do
  for _ in 1 2; do
    (ulimit -v "$kib"; timeout -k 5 60 "$cli" run "$dir/p.apertura" > "$dir/log" 2>&1)
    rc=$?
    echo "ulimit -v $kib: exit $rc: $(tail -1 "$dir/log")"
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$rc" -ne 2 ]; then
      echo "FAIL: exit $rc (124/137: hung; >128: killed by a signal)"; failed=1
    fi
    if [ "$rc" -eq 3 ] && ! grep -qE "out of memory|system resource" "$dir/log"; then
      echo "FAIL: the error does not say what ran out"; failed=1
    fi
  done
done
[ "$failed" -eq 0 ] && echo OK
exit "$failed"
