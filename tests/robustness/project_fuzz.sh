#!/usr/bin/env bash
# Project-file fuzzing (issue #33): `apertura-cli run` on a project whose one key (from the key
# list of `run --help`, so new keys are fuzzed too) or section holds a value of the wrong type or
# range (text, negative, zero, 2^31-1, 2^31, 2^32+128, +-1e308, 1e999, null, [], {}, "auto", a long
# text, unicode, true, 1.5, absent, ...), the same through `--set KEY=VALUE`, and broken project
# files (missing, empty, a folder, /dev/null, a FIFO, truncated or malformed JSON, deep nesting, a
# huge file, a symbolic-link loop) and bad paths inside one (data, initial model, output prefix,
# scratch folder: a FIFO, /dev/zero, a folder, ...). Each run exits 0, or 2 naming the key or file;
# nothing crashes or hangs (a FIFO neither), no input changes and no partial output is left.
# Usage: project_fuzz.sh APERTURA_CLI
#   APERTURA_FUZZ_CASES=N (key cases, default 150; the --set cases are a quarter of it; N at least
#   keys x variants enumerates them all), APERTURA_FUZZ_SEED, APERTURA_FUZZ_ONLY=I,
#   APERTURA_FUZZ_KEEP=1, APERTURA_FUZZ_VERBOSE=1: see lib.sh.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
rb_init "${1:?usage: project_fuzz.sh APERTURA_CLI}" "$0"
ncases=${APERTURA_FUZZ_CASES:-150}
rb_allowed_rc='^(0|2)$'

ms=$work/data.ms
"$cli" simulate --point 1,0,0 --array random:300:8:12 --hours 1 --integration 60 -o "$ms" \
  > "$work/sim.log" 2>&1 || { cat "$work/sim.log"; echo "FAIL: cannot simulate the MS"; exit 1; }
mapfile -t keys < <("$cli" run --help | sed -n 's/^  \([A-Za-z_][A-Za-z0-9_.]*\(\[\]\)\{0,1\}[A-Za-z0-9_.]*\) = .*/\1/p')
[ "${#keys[@]}" -ge 40 ] || { echo "FAIL: run --help lists only ${#keys[@]} keys"; exit 1; }
sections=(schema_version data weighting imaging regularizers regularization optimizer mask output views)

pdir=$work/project            # the project file's folder (relative paths resolve there)
out=$work/out
mkdir -p "$pdir" "$out"
proj=$pdir/fuzz.apertura
outputs="p-dirty.fits p-psf.fits p-model.fits p-residual.fits p-restored.fits p-metrics.csv"
fifo=$work/fifo
mkfifo "$fifo"
long=$(head -c 5000 /dev/zero | tr '\0' x)

# The base project: small and quick (64 x 64, 2 iterations, a fixed lambda; an "auto" lambda
# takes a short path), with a mask and a view so their keys have a place.
declare -A base=(
  [schema_version]=2 [data.path]="\"$ms\"" [imaging.nx]=64 [imaging.ny]=64 [imaging.cell_arcsec]=0.2
  ["regularizers[].type"]='"l1"' ["regularizers[].lambda"]=1
  [regularization.path_steps]=2 [regularization.path_iterations]=2 [regularization.folds]=2
  [optimizer.max_iterations]=2 [optimizer.time_limit_s]=20 [output.prefix]="\"$out/p\""
  ["mask[].shape"]='"rectangle"' ["mask[].values"]='[8, 8, 40, 40]' [views.NAME.colormap]='"gray"')
declare -A P
# write_project: the project file from P (key -> JSON text; a section's name -> its whole text).
write_project() {
  local key leaf s text='{' sep=''
  declare -A body=()
  for key in "${!P[@]}"; do
    case $key in
      *\[\].*) s=${key%%\[\]*}; leaf=${key#*\[\].} ;;
      views.NAME.*) s=views; leaf=${key#views.NAME.} ;;
      *.*) s=${key%%.*}; leaf=${key#*.} ;;
      *) continue ;;
    esac
    body[$s]="${body[$s]:+${body[$s]}, }\"$leaf\": ${P[$key]}"
  done
  for s in "${sections[@]}"; do
    if [ -n "${P[$s]+x}" ]; then text="$text$sep\"$s\": ${P[$s]}"
    elif [ -n "${body[$s]+x}" ]; then
      case $s in
        regularizers|mask) text="$text$sep\"$s\": [{${body[$s]}}]" ;;
        views) text="$text$sep\"$s\": {\"main\": {${body[$s]}}}" ;;
        *) text="$text$sep\"$s\": {${body[$s]}}" ;;
      esac
    else continue
    fi
    sep=', '
  done
  printf '%s}\n' "$text" > "$proj"
}

variants=('"fuzz"' -1 0 2147483647 2147483648 4294967424 1e308 -1e308 1e-308 1e999 null '[]' '{}'
  '"auto"' "\"$long\"" '"é漢😀"' '"\u00e9\ud83d\ude00"' true 1.5 '"64"' '[1, 2]' ABSENT)
set_values=(huge '' -1 2147483648 4294967424 1e308 -1e308 nan inf null '[]' '{}' auto "$long" 'é漢😀'
  true 1.5 '=' '"x"')

# names_for KEY VALUE: what a failing run's message must contain: the key as written in a
# project (regularizers[0].lambda, views.main.zoom); for a path key, or a data selection key, the
# file it names (the path, or the data set) will do.
names_for() {
  local k=${1//\[\]/[0]} v=${2:-}
  k=${k//NAME/main}
  case $1 in
    data.path|optimizer.initial_model|optimizer.scratch_dir|output.prefix|output.model_ms)
      v=${v#\"}; v=${v%\"}; v=${v%/}; v=${v##*/}; [ ${#v} -ge 3 ] && k="$k|$v" ;;
  esac
  case $1 in data.*) k="$k|data.ms" ;; esac
  echo "$k"
}
# A case: writes P, runs (with ARGS...), checks. allowed outputs depend on output.* being fuzzed.
run_case() {  # I DESC NAMES ARGS...
  local i=$1 desc=$2 names=$3 allowed=$outputs
  shift 3
  case $desc in *output*|*optimizer.max_iterations*) allowed=$(printf '?%s ' $outputs) ;; esac
  rb_set_inputs "$ms" "$proj"
  # An automatic lambda (a fuzzed lambda "auto") also writes its path, a linear spectrum its
  # spectral index.
  rb_case "case $i ($desc)" "$names" "$out" "$allowed ?p-model.ms ?p-lambda-path.csv ?p-alpha.fits" \
    "$cli" run "$proj" "$@"
  # What a relative or empty output.prefix wrote beside the project is output, not leftover.
  find "$pdir" -mindepth 1 ! -name fuzz.apertura -exec rm -rf {} + 2> /dev/null
}
reset_project() { P=(); local k; for k in "${!base[@]}"; do P[$k]=${base[$k]}; done; }

# setp KEY JSON: sets a key of the project (rewritten) and the names its error must contain.
setp() { P[$1]=$2; write_project; names=$(names_for "$1" "$2"); }

i=0
# Broken project files and bad paths inside one: fixed cases.
special() {  # I KIND
  rb_case_no=$1
  rb_want "$1" || return 0
  reset_project; write_project
  local what=$2 target=$proj names="fuzz.apertura" p
  case $2 in
    missing) rm -f "$proj"; target=$pdir/missing.apertura; names=missing.apertura ;;
    empty) : > "$proj" ;;
    folder) target=$ms; names=data.ms ;;
    devnull) target=/dev/null; names=/dev/null ;;
    fifo) target=$fifo; names=fifo ;;
    loop) target=$pdir/loop.apertura; ln -s loop.apertura "$target"; names=loop.apertura ;;
    binary) head -c 3000 "$ms/table.f0" > "$proj" ;;
    deep) { head -c 200000 /dev/zero | tr '\0' '['; echo; } > "$proj" ;;
    huge) { printf '{"schema_version": 2, "comment": "'; head -c 40000000 /dev/zero | tr '\0' a
            printf '", "data": {"path": "%s"}}\n' "$ms"; } > "$proj" ;;
    huge-space) { head -c 40000000 /dev/zero | tr '\0' ' '; cat "$proj"; } > "$pdir/x"; mv "$pdir/x" "$proj" ;;
    bom) { printf '\357\273\277'; cat "$proj"; } > "$pdir/x"; mv "$pdir/x" "$proj" ;;
    utf16) { printf '\377\376'; sed 's/./&\x00/g' "$proj"; } > "$pdir/x"; mv "$pdir/x" "$proj" ;;
    trailing-comma) sed -i 's/}$/,}/' "$proj" ;;
    comment) sed -i 's/^{/{ \/\/ a comment\n/' "$proj" ;;
    single-quotes) sed -i "s/\"/'/g" "$proj" ;;
    nan-literal) P[imaging.cell_arcsec]=NaN; write_project; names=fuzz.apertura ;;
    duplicate) sed -i 's/^{/{"imaging": {"nx": -5}, /' "$proj" ;;
    array-top) echo '[1, 2, 3]' > "$proj" ;;
    truncated-*) p=${2#truncated-}; head -c "$(( $(rb_size "$proj") * p / 100 ))" "$proj" > "$pdir/x"
                 mv "$pdir/x" "$proj" ;;
    data-*)
      case ${2#data-} in
        fifo) setp data.path "\"$fifo\"" ;; zero) setp data.path '"/dev/zero"' ;;
        null) setp data.path '"/dev/null"' ;; folder) setp data.path "\"$work/cwd\"" ;;
        self) setp data.path "\"$proj\"" ;;
        uvfits-fifo) ln -s "$fifo" "$pdir/f.uvfits"; setp data.path '"f.uvfits"' ;;
        empty-uvfits) : > "$pdir/e.uvfits"; setp data.path '"e.uvfits"' ;;
      esac ;;
    model-*)
      case ${2#model-} in
        fifo) setp optimizer.initial_model "\"$fifo\"" ;;
        zero) setp optimizer.initial_model '"/dev/zero"' ;;
        folder) setp optimizer.initial_model "\"$ms\"" ;;
        empty) : > "$pdir/m.fits"; setp optimizer.initial_model '"m.fits"' ;;
        text) cp "$proj" "$pdir/m.fits"; setp optimizer.initial_model '"m.fits"' ;;
        wrong-size) "$cli" dirty "$ms" --size 32 --cell 0.5 -o "$pdir/m" > /dev/null 2>&1
                    setp optimizer.initial_model '"m-dirty.fits"' ;;
      esac ;;
    prefix-*)
      case ${2#prefix-} in
        fifo) setp output.prefix "\"$fifo/p\"" ;; proc) setp output.prefix '"/proc/x/p"' ;;
        missing) setp output.prefix "\"$work/none/p\"" ;; file) setp output.prefix "\"$proj/p\"" ;;
      esac ;;
    scratch-*)
      P[optimizer.in_memory_limit]=1 P[optimizer.max_iterations]=5
      case ${2#scratch-} in
        fifo) setp optimizer.scratch_dir "\"$fifo\"" ;; file) setp optimizer.scratch_dir "\"$proj\"" ;;
        missing) setp optimizer.scratch_dir "\"$work/none\"" ;;
        proc) setp optimizer.scratch_dir '"/proc/x"' ;;
      esac ;;
  esac
  rb_set_inputs "$ms" "$proj"
  rb_case "case $1 (project: $what)" "$names" "$out" "$outputs" "$cli" run "$target"
  find "$pdir" -mindepth 1 ! -name fuzz.apertura -exec rm -rf {} + 2> /dev/null
}
saved_timeout=$rb_timeout
rb_timeout=${APERTURA_FUZZ_FIFO_TIMEOUT:-10}
for kind in missing empty folder devnull fifo loop binary deep huge huge-space bom utf16 trailing-comma \
  comment single-quotes nan-literal duplicate array-top truncated-1 truncated-30 truncated-50 \
  truncated-90 truncated-99 data-fifo data-zero data-null data-folder data-self data-uvfits-fifo \
  data-empty-uvfits model-fifo model-zero model-folder model-empty model-text model-wrong-size \
  prefix-fifo prefix-proc prefix-missing prefix-file scratch-fifo scratch-file scratch-missing \
  scratch-proc; do
  special $i "$kind"
  i=$((i + 1))
done
rb_timeout=$saved_timeout

# Each key and section with a wrong value in the project file.
targets=("${keys[@]}" "${sections[@]}")
nt=${#targets[@]} nv=${#variants[@]}
for ((c = 0; c < ncases; c++, i++)); do
  rb_case_no=$i
  rb_want "$i" || continue
  rb_case_seed "$i"
  if [ "$ncases" -ge $((nt * nv)) ]; then key=${targets[$((c / nv % nt))]} v=${variants[$((c % nv))]}
  else key=${targets[$((c % nt))]}; rb_rand "$nv"; v=${variants[$R]}
  fi
  # Writing the model columns into the input itself is what that key asks for: not fuzzed to true.
  [ "$key" = output.model_in_place ] && [ "$v" = true ] && v=1
  reset_project
  if [ "$v" = ABSENT ]; then unset "P[$key]"; else P[$key]=$v; fi
  write_project
  run_case "$i" "$key = ${v:0:40}" "$(names_for "$key" "$v")"
done

# The edges of every numeric key's type: 2^31-1 and -2^31 for an integer, +-1e308 and 1e-308
# for a number (in range for some keys: then the run must cope, or refuse naming the key).
mapfile -t numeric < <("$cli" run --help | sed -n 's/^  \([A-Za-z_][A-Za-z0-9_.]*\(\[\]\)\{0,1\}[A-Za-z0-9_.]*\) = .*(\(integer\|number\|list of integers\|list of numbers\).*/\1 \3/p')
for entry in "${numeric[@]}"; do
  key=${entry%% *} kind=${entry#* }
  case $kind in
    integer) edges=(2147483647 -2147483648) ;; number) edges=(1e308 -1e308 1e-308) ;;
    list*) edges=('[2147483647]' '[-1e308, 1e308]') ;;
  esac
  for v in "${edges[@]}"; do
    rb_case_no=$i
    if rb_want "$i"; then
      reset_project; P[$key]=$v; write_project
      run_case "$i" "$key = $v" "$(names_for "$key" "$v")"
    fi
    i=$((i + 1))
  done
done

# Each key with a wrong value through --set.
nset=$((ncases / 4))
for ((c = 0; c < nset; c++, i++)); do
  rb_case_no=$i
  rb_want "$i" || continue
  rb_case_seed "$i"
  key=${keys[$((c % ${#keys[@]}))]}
  rb_rand ${#set_values[@]}; v=${set_values[$R]}
  [ "$key" = output.model_in_place ] && [ "$v" = true ] && v=1
  reset_project; write_project
  k=${key//\[\]/[0]}; k=${k//NAME/main}
  run_case "$i" "--set $k=${v:0:40}" "$(names_for "$key" "$v")" --set "$k=$v"
done
rb_finish
