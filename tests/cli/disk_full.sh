#!/usr/bin/env bash
# A full disk is an error that says so, never an abort, and leaves no partial output or
# temporary behind (issue #33, finding 6). Needs root for a small tmpfs; skipped otherwise.
# Usage: disk_full.sh APERTURA_CLI
set -u
cli=$1
[ "$(id -u)" -eq 0 ] || { echo "SKIPPED: needs root to mount a small tmpfs"; exit 0; }
work=$(mktemp -d) small=$(mktemp -d)
if ! mount -t tmpfs -o size=2m tmpfs "$small" 2> /dev/null; then
  rm -rf "$work" "$small"; echo "SKIPPED: cannot mount a tmpfs"; exit 0
fi
trap 'umount "$small"; rmdir "$small"; rm -rf "$work"' EXIT
failed=0
check() {  # NAME RC: the exit status, the message and what was left on the full disk
  local name=$1 rc=$2
  echo "$name: exit $rc: $(tail -1 "$work/log")"
  { [ "$rc" -ge 1 ] && [ "$rc" -lt 128 ]; } || { echo "FAIL: $name exit $rc"; failed=1; }
  grep -q "no space left on device" "$work/log" || { echo "FAIL: $name does not name the cause"; failed=1; }
  if [ -n "$(ls -A "$small")" ]; then echo "FAIL: $name left $(ls -A "$small")"; failed=1; fi
  rm -rf "${small:?}"/*
}
sim=(simulate --point 1,0,0 --array random:300:8:12 --hours 2 --integration 10)
"$cli" "${sim[@]}" -o "$small/x.ms" > "$work/log" 2>&1; check "simulate MS" $?
"$cli" "${sim[@]}" -o "$small/x.uvfits" > "$work/log" 2>&1; check "simulate UVFITS" $?
"$cli" "${sim[@]}" -o "$work/in.ms" > /dev/null 2>&1 || { echo "FAIL: simulate in.ms"; exit 1; }
"$cli" dirty "$work/in.ms" --size 1024 --cell 0.05 -o "$small/d" > "$work/log" 2>&1
check "dirty" $?
# A run whose first images fit and the rest do not: exit 3 (a failure, not bad input), and none
# of its images left (they appear together or not at all).
printf '{"schema_version": 2, "data": {"path": "%s"}, "imaging": {"nx": 512, "ny": 512, "cell_arcsec": 0.05},
 "regularizers": [{"type": "l1", "lambda": 1}], "optimizer": {"max_iterations": 1},
 "output": {"prefix": "%s/r"}}\n' "$work/in.ms" "$small" > "$work/p.apertura"
"$cli" run "$work/p.apertura" > "$work/log" 2>&1
rc=$?
check "run" $rc
[ "$rc" -eq 3 ] || { echo "FAIL: run on a full disk: expected exit 3, got $rc"; failed=1; }
[ "$failed" -eq 0 ] && echo OK
exit "$failed"
