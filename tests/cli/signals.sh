#!/usr/bin/env bash
# SIGTERM (what batch schedulers send) and SIGINT stop every command cleanly (issue #33): `run`
# exits 143 on SIGTERM, `simulate` 130 on SIGINT, and neither leaves a temporary file behind.
# Usage: signals.sh APERTURA_CLI
set -u
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; ls -la "$dir"; exit 1; }

# Starts COMMAND with its output in LOG, waits until the shell test READY holds, sends SIGNAL
# and returns the command's exit status.
interrupt() {  # SIGNAL READY LOG COMMAND...
  local sig=$1 ready=$2 log=$3
  shift 3
  "$@" > "$log" 2>&1 &
  local pid=$!
  for _ in $(seq 200); do eval "$ready" && break; sleep 0.05; done
  sleep 0.3
  kill "-$sig" "$pid"
  wait "$pid"
}

# A simulation long enough to be interrupted while it writes (several seconds on 2 cores).
interrupt INT 'compgen -G "$dir/big.ms.tmp-*" > /dev/null' "$dir/sim.log" \
  "$cli" simulate --point 1,0,0 --array random:3000:40:12 --hours 4 --integration 8 --nchan 16 \
  -o "$dir/big.ms"
rc=$?
cat "$dir/sim.log"
[ "$rc" -eq 130 ] || fail "simulate: expected exit 130 after SIGINT, got $rc"
compgen -G "$dir/*tmp-*" > /dev/null && fail "simulate left a temporary file"
[ -e "$dir/big.ms" ] && fail "simulate left an incomplete big.ms"

# A small data set and a run that would go on for long.
"$cli" simulate --point 1,0,0 --array random:300:8:12 --hours 1 --integration 60 \
  -o "$dir/small.ms" > /dev/null || fail "simulate small.ms"
printf '{"schema_version": 2, "data": {"path": "%s"}, "imaging": {"nx": 64, "ny": 64, "cell_arcsec": 0.5},
 "optimizer": {"max_iterations": 1000000, "relative_tolerance": 0}}\n' "$dir/small.ms" > "$dir/p.apertura"
interrupt TERM 'grep -q "iter " "$dir/run.log"' "$dir/run.log" "$cli" run "$dir/p.apertura"
rc=$?
tail -3 "$dir/run.log"
[ "$rc" -eq 143 ] || fail "run: expected exit 143 after SIGTERM, got $rc"
compgen -G "$dir/*tmp-*" > /dev/null && fail "run left a temporary file"
echo "OK"
