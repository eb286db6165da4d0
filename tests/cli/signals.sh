#!/usr/bin/env bash
# SIGTERM (what batch schedulers send) and SIGINT stop every command cleanly (issue #33): `run`
# exits 143 on SIGTERM, `simulate` 130 on SIGINT, and neither leaves a temporary file behind.
# Usage: signals.sh APERTURA_CLI
set -u
cli=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; ls -la "$dir"; exit 1; }

# A simulation long enough to be interrupted while it writes (several seconds on 2 cores).
"$cli" simulate --point 1,0,0 --array random:3000:40:12 --hours 4 --integration 8 --nchan 16 \
  -o "$dir/big.ms" > "$dir/sim.log" 2>&1 &
pid=$!
for _ in $(seq 200); do compgen -G "$dir/big.ms.tmp-*" > /dev/null && break; sleep 0.05; done
sleep 0.3
kill -INT "$pid"
wait "$pid"
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
"$cli" run "$dir/p.apertura" > "$dir/run.log" 2>&1 &
pid=$!
for _ in $(seq 200); do grep -q "iter " "$dir/run.log" && break; sleep 0.05; done
kill -TERM "$pid"
wait "$pid"
rc=$?
cat "$dir/run.log"
[ "$rc" -eq 143 ] || fail "run: expected exit 143 after SIGTERM, got $rc"
compgen -G "$dir/*tmp-*" > /dev/null && fail "run left a temporary file"
compgen -G "/tmp/apertura-*spill*" > /dev/null && echo "note: spill files of other runs exist"
echo "OK"
