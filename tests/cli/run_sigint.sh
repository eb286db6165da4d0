#!/usr/bin/env bash
# SIGINT cancels `apertura-cli run` cleanly: exit status 130 and a "cancelled" line, promptly.
# Usage: run_sigint.sh APERTURA_CLI PROJECT
set -u
cli=$1 project=$2
[ -e "$(sed -n 's/.*"path": "\([^"]*\)".*/\1/p' "$project" | head -1)" ] || { echo "SKIPPED: data absent"; exit 0; }
out=$(mktemp)
"$cli" run "$project" --set optimizer.max_iterations=100000 --set optimizer.relative_tolerance=0 \
  > "$out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "iter " "$out" && break; sleep 0.1; done
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
rc=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$out"
rm -f "$out"
echo "exit status $rc after SIGINT, ${elapsed_ms} ms"
[ "$rc" -eq 130 ] || { echo "FAIL: expected 130"; exit 1; }
[ "$elapsed_ms" -lt 2000 ] || { echo "FAIL: took too long"; exit 1; }
