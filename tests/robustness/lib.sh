# shellcheck shell=bash
# Shared helpers of the robustness suite (issue #33), sourced by the scripts beside it; not a test.
# A case runs one apertura-cli command under `timeout` and checks that it
#  - exits cleanly: an allowed status below 128, no timeout (124/137: hang), no signal (crash);
#  - names the file or key in its message when it fails;
#  - leaves its inputs unchanged (sha256 of every file, and the same set of entries);
#  - leaves no file behind: the output folder holds nothing or a complete set of outputs (no
#    *.tmp-*, no .probe, no partial FITS), the scratch folder and the working folder stay empty,
#    and no *.tmp-* appears anywhere in the work folder. $TMPDIR is that private scratch folder,
#    so L-BFGS spill folders (apertura-lbfgs-*) left behind are seen there, and /tmp is not
#    shared with tests running beside these.
# Environment: APERTURA_FUZZ_SEED (default 1), APERTURA_FUZZ_CASES (per script), APERTURA_FUZZ_ONLY
# (run only that case number, to reproduce a failure), APERTURA_FUZZ_KEEP=1 (keep the work folder),
# APERTURA_FUZZ_TIMEOUT (seconds per command, default 30), APERTURA_FUZZ_VERBOSE=1 (one line a case).
set -u

rb_timeout=${APERTURA_FUZZ_TIMEOUT:-30}
rb_seed=${APERTURA_FUZZ_SEED:-1}
rb_only=${APERTURA_FUZZ_ONLY:-}
rb_verbose=${APERTURA_FUZZ_VERBOSE:-0}

# rb_init CLI SCRIPT: checks the CLI, makes the work folder (removed on exit) with scratch/ as
# $TMPDIR and cwd/ as the folder commands run in, and zeroes the counters.
rb_init() {
  local exe=$1
  rb_script=$2
  rb_name=$(basename "$rb_script" .sh)
  if [ ! -x "$exe" ] || [ -d "$exe" ]; then echo "FAIL: $rb_name: '$exe' is not an executable"; exit 1; fi
  case $exe in /*) cli=$exe ;; *) cli=$PWD/$exe ;; esac
  rb_script_abs=$(cd "$(dirname "$rb_script")" && pwd)/$(basename "$rb_script")
  work=$(mktemp -d "${TMPDIR:-/tmp}/apertura-robustness-$rb_name.XXXXXX") || exit 1
  trap rb_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  scratch=$work/scratch
  rundir=$work/cwd
  mkdir -p "$scratch" "$rundir"
  export TMPDIR=$scratch
  rb_cases=0 rb_clean=0 rb_ok=0 rb_crash=0 rb_hang=0 rb_unnamed=0 rb_left=0 rb_changed=0
  rb_badrc=0 rb_bad=0
  rb_inputs=()
  rb_allowed_rc='^([0-9]|[1-9][0-9]|1[01][0-9]|12[0-35-7])$'  # 0..127 except 124 (timeout)
  rb_start=$SECONDS
}

rb_cleanup() {
  if [ "${APERTURA_FUZZ_KEEP:-0}" = 1 ]; then echo "kept the work folder $work"; return; fi
  chmod -R u+rwx "$work" 2> /dev/null
  rm -rf "$work"
}

# Deterministic random numbers: a 31-bit LCG of which only the high bits are used.
# rb_srand N seeds it (N scrambled first, so that neighbouring seeds give unrelated sequences);
# rb_rand N sets R in [0, N) for N up to 2^30.
rb_next() { rb_state=$(( (rb_state * 1103515245 + 12345) & 0x7fffffff )); }
rb_srand() {
  local r
  rb_state=$(( $1 & 0x7fffffff ))
  for r in 1 2 3 4; do rb_state=$(( ((rb_state ^ (rb_state >> 13)) * 2654435761 + r) & 0x7fffffff )); rb_next; done
}
rb_rand() {
  local hi
  rb_next; hi=$((rb_state >> 16)); rb_next
  R=$(( ((hi << 15) | (rb_state >> 16)) % $1 ))
}
# rb_case_seed I: the generator of case I, independent of the other cases (for APERTURA_FUZZ_ONLY).
rb_case_seed() { rb_srand $(( rb_seed * 1000003 + $1 )); }
# rb_want I: whether case I runs (all, or only APERTURA_FUZZ_ONLY).
rb_want() { [ -z "$rb_only" ] || [ "$rb_only" = "$1" ]; }

# rb_sums: the state of the inputs (rb_inputs): every entry's type and name, every file's sha256.
rb_sums() {
  [ ${#rb_inputs[@]} -gt 0 ] || return 0
  find "${rb_inputs[@]}" -printf '%y %p\n' 2> /dev/null | LC_ALL=C sort
  find "${rb_inputs[@]}" -type f -exec sha256sum {} + 2> /dev/null | LC_ALL=C sort -k2
}
# rb_set_inputs PATH...: the inputs of the next cases; records their state.
rb_set_inputs() { rb_inputs=("$@"); rb_inputs_sum=$(rb_sums); }

# rb_bytes FILE OFFSET OCTAL...: writes bytes (given as 3-digit octal) at OFFSET, in place.
rb_bytes() {
  local f=$1 off=$2 fmt=''
  shift 2
  local b
  for b in "$@"; do fmt="$fmt\\$b"; done
  # shellcheck disable=SC2059  # the format is the octal escapes
  printf "$fmt" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
# rb_text FILE OFFSET TEXT: writes TEXT at OFFSET, in place.
rb_text() { printf '%s' "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# rb_garble FILE N: N random bytes at random offsets (uses the generator).
rb_garble() {
  local f=$1 n=$2 size i
  size=$(stat -c %s "$f")
  [ "$size" -gt 0 ] || return 0
  for ((i = 0; i < n; i++)); do
    rb_rand "$size"; local off=$R
    rb_rand 256; rb_bytes "$f" "$off" "$(printf '%03o' "$R")"
  done
}
# rb_size FILE: its size in bytes.
rb_size() { stat -c %s "$1"; }

# rb_fits_complete FILE: a non-empty FITS file of whole 2880-byte blocks that starts with SIMPLE.
rb_fits_complete() {
  local s
  s=$(rb_size "$1")
  [ "$s" -gt 0 ] && [ $((s % 2880)) -eq 0 ] && [ "$(head -c 6 "$1")" = SIMPLE ]
}

# rb_check_outputs OUT RC ALLOWED: prints what is wrong with OUT (nothing when fine). ALLOWED is
# the space-separated list of a complete set of outputs; a name with a leading '?' is optional.
# Status 0: OUT must hold the required names, optional ones and nothing else; other status: OUT
# must be empty or hold the complete set.
rb_check_outputs() {
  local out=$1 rc=$2 allowed=$3 f name a ok present=0 required=0 missing=''
  [ -d "$out" ] || return 0
  while IFS= read -r -d '' f; do
    name=${f#"$out"/}
    present=$((present + 1))
    ok=0
    for a in $allowed; do [ "${a#\?}" = "$name" ] && ok=1; done
    if [ "$ok" -eq 0 ]; then echo "unexpected $name"; continue; fi
    if [ -d "$f" ] && [ ! -L "$f" ] && [[ $name == *.ms ]]; then  # a Measurement Set output
      [ -f "$f/table.dat" ] || echo "partial Measurement Set $name"; continue
    fi
    if [ ! -f "$f" ] || [ -L "$f" ]; then echo "$name is not a plain file"; continue; fi
    case $name in
      *.fits|*.uvfits) rb_fits_complete "$f" || echo "partial FITS $name ($(rb_size "$f") bytes)" ;;
      *) [ -s "$f" ] || echo "empty $name" ;;
    esac
  done < <(find "$out" -mindepth 1 -maxdepth 1 -print0)
  for a in $allowed; do
    case $a in \?*) ;; *) required=$((required + 1)); [ -e "$out/$a" ] || missing="$missing $a" ;; esac
  done
  if [ -n "$missing" ] && { [ "$rc" -eq 0 ] || [ "$present" -gt 0 ]; }; then
    echo "incomplete output set (missing$missing)"
  fi
}

# rb_leftovers: what any command left where it must not (scratch, cwd, temporaries anywhere).
rb_leftovers() {
  local f
  while IFS= read -r f; do echo "left ${f#"$work"/}"; done < <(
    find "$scratch" "$rundir" -mindepth 1 -maxdepth 1 2> /dev/null
    find "$work" \( -name '*.tmp-*' -o -name '*.probe' -o -name '.probe*' \) 2> /dev/null)
}

rb_q() { printf '%q ' "$@"; }

# rb_case DESC NAMES OUT ALLOWED CMD...: runs CMD (in $rundir, stdin from /dev/null) and checks
# it. DESC says what the case is (with its number); NAMES: '|'-separated strings one of which a
# failing command's stderr must contain (the file or key); OUT: the output folder (checked, then
# emptied; '-' for none). rb_allowed_rc: the exit statuses accepted below 128. Returns 0.
rb_case() {
  local desc=$1 names=$2 out=$3 allowed=$4
  shift 4
  local err=$work/stderr problems='' rc named=1 n
  rb_cases=$((rb_cases + 1))
  local t0=$SECONDS
  { (cd "$rundir" && exec timeout -k 2 "$rb_timeout" "$@" < /dev/null > "$work/stdout" 2> "$err"); } 2> /dev/null
  rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    rb_hang=$((rb_hang + 1)); problems="hang (exit $rc after ${rb_timeout} s)"
  elif [ "$rc" -ge 128 ]; then
    rb_crash=$((rb_crash + 1)); problems="crash (exit $rc: signal $((rc - 128)))"
  elif [ "$rc" -eq 0 ]; then
    rb_ok=$((rb_ok + 1))
  else
    named=0
    local list
    IFS="|" read -r -a list <<< "$names"
    for n in "${list[@]}"; do [ -n "$n" ] && grep -qF -- "$n" "$err" && named=1; done
    if [ "$named" -eq 1 ]; then rb_clean=$((rb_clean + 1)); else
      rb_unnamed=$((rb_unnamed + 1)); problems="error names neither of '$names'"
    fi
  fi
  if [ "$rc" -lt 124 ] && ! [[ $rc =~ $rb_allowed_rc ]]; then
    rb_badrc=$((rb_badrc + 1)); problems="${problems:+$problems; }exit $rc not accepted"
  fi
  local now left
  now=$(rb_sums)
  if [ "$now" != "$rb_inputs_sum" ]; then
    rb_changed=$((rb_changed + 1))
    problems="${problems:+$problems; }input changed: $(diff <(echo "$rb_inputs_sum") <(echo "$now") | grep '^[<>]' | head -3 | tr '\n' ' ')"
    rb_inputs_sum=$now
  fi
  left=$( [ "$out" = - ] || rb_check_outputs "$out" "$rc" "$allowed"; rb_leftovers)
  if [ -n "$left" ]; then
    rb_left=$((rb_left + 1)); problems="${problems:+$problems; }$(echo "$left" | head -5 | tr '\n' ';')"
  fi
  if [ -n "$problems" ]; then
    rb_bad=$((rb_bad + 1))
    echo "FAIL: $rb_name: $desc: $problems"
    echo "  command: (cd $rundir && $(rb_q "$@"))"
    echo "  stderr: $(tail -c 400 "$err" | tr '\n' ' ')"
    echo "  reproduce: ${APERTURA_FUZZ_CASES:+APERTURA_FUZZ_CASES=$APERTURA_FUZZ_CASES }APERTURA_FUZZ_SEED=$rb_seed APERTURA_FUZZ_ONLY=${rb_case_no:-?} APERTURA_FUZZ_KEEP=1 $rb_script_abs $cli"
  elif [ "$rb_verbose" = 1 ]; then
    echo "ok: $desc: exit $rc ($((SECONDS - t0)) s) $(tail -1 "$err" | cut -c1-160)"
  fi
  [ "$out" = - ] || { chmod -R u+rwx "$out" 2> /dev/null; rm -rf "${out:?}"/* "$out"/.[!.]* 2> /dev/null; }
  rm -rf "${scratch:?}"/* "${rundir:?}"/* "${rundir:?}"/.[!.]* 2> /dev/null
  find "$work" -name '*.tmp-*' -exec rm -rf {} + 2> /dev/null
  return 0
}

# rb_finish: the summary line; exits non-zero on any failure.
rb_finish() {
  echo "$rb_name: seed $rb_seed: $rb_cases cases: $rb_clean clean errors, $rb_ok successes," \
    "$rb_crash crashes, $rb_hang hangs, $rb_unnamed unnamed errors, $rb_badrc unexpected exit codes," \
    "$rb_left leftovers, $rb_changed changed inputs" \
    "($((SECONDS - rb_start)) s)"
  if [ "$rb_bad" -gt 0 ]; then echo "FAILED: $rb_bad bad cases"; exit 1; fi
  echo OK
  exit 0
}
