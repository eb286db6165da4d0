#!/usr/bin/env bash
# Corrupt and truncated Measurement Sets (issue #33): every command that reads one (info, dirty,
# run) fails cleanly with a message naming the data set, or succeeds; never crashes or hangs,
# never changes the input and never leaves a partial output or temporary behind.
# Each case copies a small simulated MS and damages it: one file of the main table or of a
# subtable is truncated, zeroed, garbled, removed, replaced (by a folder, another table's file, a
# symbolic-link loop or a FIFO), or a subtable is removed, emptied or swapped with another.
# Usage: ms_corruption.sh APERTURA_CLI
#   APERTURA_FUZZ_CASES=N (random cases besides the fixed ones; default 60), APERTURA_FUZZ_SEED,
#   APERTURA_FUZZ_ONLY=I (case I alone), APERTURA_FUZZ_KEEP=1, APERTURA_FUZZ_VERBOSE=1: see lib.sh.
# shellcheck disable=SC2317  # corrupt, whole, ...: called through check_ms
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
rb_init "${1:?usage: ms_corruption.sh APERTURA_CLI}" "$0"
ncases=${APERTURA_FUZZ_CASES:-60}

pristine=$work/pristine.ms
"$cli" simulate --point 1,0,0 --array random:300:8:12 --hours 1 --integration 60 -o "$pristine" \
  > "$work/sim.log" 2>&1 || { cat "$work/sim.log"; echo "FAIL: cannot simulate the MS"; exit 1; }
mapfile -t files < <(cd "$pristine" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
mapfile -t tables < <(cd "$pristine" && find . -mindepth 1 -maxdepth 1 -type d | sed 's|^\./||' | LC_ALL=C sort)

ms=$work/fuzz.ms
out=$work/out
mkdir -p "$out"
proj=$work/fuzz.apertura
printf '{"schema_version": 2, "data": {"path": "%s"}, "imaging": {"nx": 64, "ny": 64, "cell_arcsec": 0.5},
 "regularizers": [{"type": "l1", "lambda": 1}], "optimizer": {"max_iterations": 2},
 "output": {"prefix": "%s/p"}}\n' "$ms" "$out" > "$proj"
run_outputs="p-dirty.fits p-psf.fits p-model.fits p-residual.fits p-restored.fits p-metrics.csv"

# corrupt OP: damages $ms (a fresh copy) and sets what (a description). Uses the generator.
corrupt() {
  local op=$1 f t t2 n size
  rb_rand ${#files[@]}; f=${files[$R]}
  size=$(rb_size "$ms/$f")
  case $op in
    0) what="truncate $f to 0 bytes"; : > "$ms/$f" ;;
    1) what="truncate $f to half ($((size / 2)) bytes)"; truncate -s $((size / 2)) "$ms/$f" ;;
    2) rb_rand $((size + 1)); what="truncate $f to $R bytes"; truncate -s "$R" "$ms/$f" ;;
    3) rb_rand $((size + 1)); local off=$R; rb_rand 512; n=$((R + 1))
       what="zero $n bytes of $f at $off"
       dd if=/dev/zero of="$ms/$f" bs=1 seek="$off" count="$n" conv=notrunc status=none ;;
    4) rb_rand 16; n=$((R + 1)); what="garble $n bytes of $f"; rb_garble "$ms/$f" "$n" ;;
    5) if [ "${f##*/}" = table.lock ]; then  # casacore makes a missing lock file anew: not a fault
         what="truncate $f to 0 bytes"; : > "$ms/$f"
       else what="remove $f"; rm -f "$ms/$f"; fi ;;
    6) what="replace $f by a folder"; rm -f "$ms/$f"; mkdir "$ms/$f" ;;
    7) rb_rand ${#files[@]}; t=${files[$R]}; what="replace $f by a copy of $t"
       cp "$pristine/$t" "$ms/$f" ;;
    8) rb_rand ${#files[@]}; t=${files[$R]}; rb_rand 8192; n=$((R + 1))
       what="append $n bytes of $t to $f"; head -c "$n" "$pristine/$t" >> "$ms/$f" ;;
    9) what="replace $f by a symbolic-link loop"; rm -f "$ms/$f"; ln -s "$(basename "$f")" "$ms/$f" ;;
    10) rb_rand ${#tables[@]}; t=${tables[$R]}; what="remove the subtable $t"; rm -rf "${ms:?}/$t" ;;
    11) rb_rand ${#tables[@]}; t=${tables[$R]}; what="empty the subtable $t"; rm -rf "${ms:?}/$t"/* ;;
    12) rb_rand ${#tables[@]}; t=${tables[$R]}; rb_rand ${#tables[@]}; t2=${tables[$R]}
        what="swap the subtables $t and $t2"
        [ "$t" = "$t2" ] || { mv "$ms/$t" "$ms/$t.x"; mv "$ms/$t2" "$ms/$t"; mv "$ms/$t.x" "$ms/$t2"; } ;;
  esac
}

# One case: a fresh copy, damaged by CORRUPT-COMMAND..., then info, dirty and run.
check_ms() {  # I CORRUPT-COMMAND...
  local i=$1
  shift
  rb_case_no=$i
  rb_want "$i" || return 0
  rb_case_seed "$i"; rb_rand 13  # the first number chose the operation
  chmod -R u+rwx "$ms" 2> /dev/null; rm -rf "$ms"
  cp -r "$pristine" "$ms"
  what=''
  "$@"
  rb_set_inputs "$ms" "$proj"
  rb_case "case $i ($what): info" "fuzz.ms" - "" "$cli" info "$ms"
  rb_case "case $i ($what): dirty" "fuzz.ms" "$out" "d-dirty.fits d-psf.fits" \
    "$cli" dirty "$ms" --size 64 --cell 0.5 -o "$out/d"
  rb_case "case $i ($what): run" "fuzz.ms|data.path" "$out" "$run_outputs" "$cli" run "$proj"
}

# Fixed cases: the whole data set, each subtable removed, known crashes, FIFOs where table files
# belong.
whole() {
  case $1 in
    empty) what="an empty folder"; rm -rf "$ms"; mkdir "$ms" ;;
    file) what="a plain file"; rm -rf "$ms"; head -c 4096 "$pristine/table.f0" > "$ms" ;;
    fifo) what="a FIFO"; rm -rf "$ms"; mkfifo "$ms" ;;
    nodat) what="no table.dat"; rm -f "$ms/table.dat" ;;
  esac
}
remove_table() { what="remove the subtable $1"; rm -rf "${ms:?}/$1"; }
# Damage that random cases of other seeds found to crash apertura-cli (kept as fixed cases).
known() {
  case $1 in
    lock-folder) what="replace table.lock by a folder"; rm -f "$ms/table.lock"; mkdir "$ms/table.lock" ;;
    sub-lock-folder) what="replace ANTENNA/table.lock by a folder"
                     rm -f "$ms/ANTENNA/table.lock"; mkdir "$ms/ANTENNA/table.lock" ;;
    antenna-half) what="truncate ANTENNA/table.f0 to half"
                  truncate -s $(( $(rb_size "$ms/ANTENNA/table.f0") / 2 )) "$ms/ANTENNA/table.f0" ;;
    field-dat-byte) what="set byte 1923 of FIELD/table.dat to 0x94"; rb_bytes "$ms/FIELD/table.dat" 1923 224 ;;
  esac
}
fifo_file() { what="replace $1 by a FIFO"; rm -f "$ms/$1"; mkfifo "$ms/$1"; }

i=0
for w in empty file fifo nodat; do check_ms $i whole $w; i=$((i + 1)); done
for t in "${tables[@]}"; do check_ms $i remove_table "$t"; i=$((i + 1)); done
for k in lock-folder sub-lock-folder antenna-half field-dat-byte; do check_ms $i known "$k"; i=$((i + 1)); done
# A FIFO in place of a table file: opening it must not wait for a writer forever.
saved_timeout=$rb_timeout
rb_timeout=${APERTURA_FUZZ_FIFO_TIMEOUT:-5}
for f in table.dat table.f0; do check_ms $i fifo_file "$f"; i=$((i + 1)); done
rb_timeout=$saved_timeout
# Seeded random damage.
first=$i
for ((; i < first + ncases; i++)); do
  rb_case_seed "$i"; rb_rand 13; op=$R
  check_ms $i corrupt "$op"
done
rb_finish
