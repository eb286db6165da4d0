#!/usr/bin/env bash
# Signals at random times (issue #33): SIGINT, SIGTERM (and SIGHUP: a closed terminal or a dropped
# ssh session; and SIGINT twice: Ctrl-C pressed again) during simulate (MS and UVFITS), dirty and run (L-BFGS spilling pairs to disk, and
# FISTA) stop the command cleanly: exit 0 (it had finished) or 128 + the signal (130, 143, 129),
# no hang, the output either complete or absent, no *.tmp-* or spilled L-BFGS pairs left behind,
# and the input unchanged. The delay of each signal is a seeded fraction of the command's
# duration measured here, so the cases spread over every phase of the command.
# Usage: signals_random.sh APERTURA_CLI
#   APERTURA_FUZZ_CASES=N (default 30), APERTURA_FUZZ_SIGNALS (default "INT TERM HUP INT+INT":
#   X+X sends X twice, 0-100 ms apart, as an impatient Ctrl-C does),
#   APERTURA_FUZZ_SEED, APERTURA_FUZZ_ONLY=I, APERTURA_FUZZ_KEEP=1, APERTURA_FUZZ_VERBOSE=1: see lib.sh.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
rb_init "${1:?usage: signals_random.sh APERTURA_CLI}" "$0"
ncases=${APERTURA_FUZZ_CASES:-30}
read -r -a signals <<< "${APERTURA_FUZZ_SIGNALS:-INT TERM HUP INT+INT}"

ms=$work/in.ms
"$cli" simulate --point 1,0,0 --point 0.5,2,1 --array random:300:10:12 --hours 1 --integration 30 \
  --sigma 0.5 -o "$ms" > "$work/sim.log" 2>&1 || { cat "$work/sim.log"; echo "FAIL: cannot simulate"; exit 1; }
out=$work/out
mkdir -p "$out"
outputs="p-dirty.fits p-psf.fits p-model.fits p-residual.fits p-restored.fits p-metrics.csv"
# L-BFGS keeping one pair in memory: the others spill to $TMPDIR (scratch, checked empty).
printf '{"schema_version": 2, "data": {"path": "%s"}, "imaging": {"nx": 128, "ny": 128, "cell_arcsec": 0.2},
 "regularizers": [{"type": "l1", "lambda": 1}], "optimizer": {"max_iterations": 150, "relative_tolerance": 0,
 "history": 10, "in_memory_limit": 1, "time_limit_s": 4}, "output": {"prefix": "%s/p"}}\n' "$ms" "$out" > "$work/lbfgs.apertura"
printf '{"schema_version": 2, "data": {"path": "%s"}, "imaging": {"nx": 128, "ny": 128, "cell_arcsec": 0.2},
 "regularizers": [{"type": "l1", "lambda": 1}], "optimizer": {"method": "fista", "max_iterations": 1000000,
 "relative_tolerance": 0, "gradient_tolerance": 0, "time_limit_s": 1}, "output": {"prefix": "%s/p"}}\n' "$ms" "$out" > "$work/fista.apertura"
sim=(simulate --point "1,0,0" --array random:3000:40:12 --hours 2 --integration 10 --nchan 2)
# A dirty image that takes a few seconds (w-stacking at a high accuracy) of a larger data set.
big=$work/big.ms
"$cli" simulate --point 1,0,0 --array random:3000:20:12 --hours 2 --integration 20 --nchan 4 -o "$big" \
  > "$work/sim.log" 2>&1 || { cat "$work/sim.log"; echo "FAIL: cannot simulate"; exit 1; }

# The commands: NAME, then the command line (eval'd words), then the complete outputs.
names=(simulate-ms simulate-uvfits dirty run-lbfgs run-fista dirty-long)
command_of() {
  case $1 in
    simulate-ms) cmd=("$cli" "${sim[@]}" -o "$out/s.ms"); allowed="s.ms" ;;
    simulate-uvfits) cmd=("$cli" "${sim[@]}" -o "$out/s.uvfits"); allowed="s.uvfits" ;;
    dirty) cmd=("$cli" dirty "$ms" --size 1024 --cell 0.1 -o "$out/d"); allowed="d-dirty.fits d-psf.fits" ;;
    dirty-long) cmd=("$cli" dirty "$big" --size 512 --cell 0.05 --epsilon 1e-12 --wstack -o "$out/d")
                allowed="d-dirty.fits d-psf.fits" ;;
    run-lbfgs) cmd=("$cli" run "$work/lbfgs.apertura"); allowed=$outputs ;;
    run-fista) cmd=("$cli" run "$work/fista.apertura"); allowed=$outputs ;;
  esac
}

ms_now() { local t; t=$(date +%s%N); echo $((t / 1000000)); }
# The duration of each command, once, uninterrupted (ms).
declare -A duration
for n in "${names[@]}"; do
  command_of "$n"
  t0=$(ms_now)
  timeout -k 2 "$rb_timeout" "${cmd[@]}" > "$work/log" 2>&1 < /dev/null ||
    { cat "$work/log"; echo "FAIL: $n does not finish undisturbed"; exit 1; }
  duration[$n]=$(( $(ms_now) - t0 ))
  rm -rf "${out:?}"/* "${scratch:?}"/*
done
echo "durations (ms): $(for n in "${names[@]}"; do printf '%s %s  ' "$n" "${duration[$n]}"; done)"

signal_number() { kill -l "$1"; }
rb_set_inputs "$ms" "$big" "$work/lbfgs.apertura" "$work/fista.apertura"
# Fixed cases first: a signal a quarter into a long command must stop it (not be ignored until
# the end); then seeded random ones over the quick commands.
fixed=("dirty-long TERM" "dirty-long INT" "run-fista TERM" "simulate-ms INT")
for ((i = 0; i < ${#fixed[@]} + ncases; i++)); do
  rb_case_no=$i
  rb_want "$i" || continue
  rb_case_seed "$i"
  rb_rand 100; gap_ms=$R
  if [ "$i" -lt ${#fixed[@]} ]; then
    n=${fixed[$i]% *} sig=${fixed[$i]#* } frac=208 must_stop=1   # 208 / 1.2 / 1000: a quarter
  else
    n=${names[$((i % 5))]} must_stop=0
    rb_rand ${#signals[@]}; sig=${signals[$R]}
    rb_rand 1000; frac=$R
  fi
  delay_ms=$(( duration[$n] * 12 * frac / 10000 ))   # 0 .. 1.2 x the duration
  command_of "$n"
  desc="case $i ($n, SIG$sig after ${delay_ms} ms)"
  rb_cases=$((rb_cases + 1))
  # timeout passes the signal on to the command (--foreground: to it alone, once), kills it 10 s
  # later if it has not ended by then (a hang: exit 137), and exits as the command did.
  timeout --foreground -k 10 "$rb_timeout" "${cmd[@]}" < /dev/null > "$work/stdout" 2> "$work/stderr" &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -s "${sig%+*}" "$pid" 2> /dev/null
  if [ "${sig#*+}" != "$sig" ]; then
    sleep "0.$(printf '%03d' "$gap_ms")"; kill -s "${sig#*+}" "$pid" 2> /dev/null
    desc="case $i ($n, SIG${sig%+*} after ${delay_ms} ms, again ${gap_ms} ms later)"
  fi
  wait "$pid" 2> /dev/null
  rc=$?
  expected=$((128 + $(signal_number "${sig%+*}")))
  problems=''
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then rb_hang=$((rb_hang + 1)); problems="hang (exit $rc)"
  elif [ "$rc" -eq 0 ] && [ "$must_stop" -eq 1 ]; then
    rb_badrc=$((rb_badrc + 1)); problems="SIG${sig%+*} ignored: the command ran to its end (exit 0)"
  elif [ "$rc" -eq 0 ]; then rb_ok=$((rb_ok + 1))
  elif [ "$rc" -eq "$expected" ]; then rb_clean=$((rb_clean + 1))
  elif [ "$rc" -ge 128 ]; then rb_crash=$((rb_crash + 1)); problems="crash (exit $rc)"
  else rb_badrc=$((rb_badrc + 1)); problems="exit $rc, expected 0 or $expected"
  fi
  now=$(rb_sums)
  if [ "$now" != "$rb_inputs_sum" ]; then
    rb_changed=$((rb_changed + 1)); problems="${problems:+$problems; }input changed"; rb_inputs_sum=$now
  fi
  left=$(rb_check_outputs "$out" "$rc" "$allowed"; rb_leftovers)
  # A simulated MS that is there must be whole: info reads it.
  if [ -d "$out/s.ms" ] && ! "$cli" info "$out/s.ms" > /dev/null 2>&1; then left="$left unreadable s.ms"; fi
  if [ -f "$out/s.uvfits" ] && ! "$cli" info "$out/s.uvfits" > /dev/null 2>&1; then left="$left unreadable s.uvfits"; fi
  if [ -n "$left" ]; then
    rb_left=$((rb_left + 1)); problems="${problems:+$problems; }$(echo "$left" | head -5 | tr '\n' ';')"
  fi
  if [ -n "$problems" ]; then
    rb_bad=$((rb_bad + 1))
    echo "FAIL: $rb_name: $desc: exit $rc: $problems"
    again=''
    [ "${sig#*+}" != "$sig" ] && again="; sleep 0.$(printf '%03d' "$gap_ms"); kill -${sig#*+} \$!"
    echo "  command: $(rb_q "${cmd[@]}") & sleep $((delay_ms / 1000)).$(printf '%03d' $((delay_ms % 1000))); kill -${sig%+*} \$!$again"
    echo "  stderr: $(tail -c 300 "$work/stderr" | tr '\n' ' ')"
    echo "  reproduce: ${APERTURA_FUZZ_CASES:+APERTURA_FUZZ_CASES=$APERTURA_FUZZ_CASES }APERTURA_FUZZ_SEED=$rb_seed APERTURA_FUZZ_ONLY=$i APERTURA_FUZZ_KEEP=1 $rb_script_abs $cli"
  elif [ "$rb_verbose" = 1 ]; then
    echo "ok: $desc: exit $rc $(tail -1 "$work/stderr" | cut -c1-120)"
  fi
  rm -rf "${out:?}"/* "${scratch:?}"/*
  find "$work" -name '*.tmp-*' -exec rm -rf {} + 2> /dev/null
done
rb_finish
