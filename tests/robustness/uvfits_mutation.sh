#!/usr/bin/env bash
# Seeded mutations of UVFITS files (issue #33): `info` and `dirty` on a damaged copy either succeed
# (a changed visibility is still data) or fail cleanly naming the file; never crash or hang, never
# change the input, never leave a partial image or temporary behind.
# Inputs: a simulated UVFITS file, and the real VLBA and EHT files of ../shared/data when present.
# Mutations: random header bytes, header card values (primary and AN/FQ/NX tables: 0, -1, 2^31,
# 1e308, NaN, text, ...), a lost END card, random-group parameters (NaN, Inf, huge, random bits),
# data bytes, extension table bytes, zeroed blocks, truncation anywhere and appended bytes.
# Usage: uvfits_mutation.sh APERTURA_CLI [SHARED_DATA_DIR]
#   APERTURA_FUZZ_CASES=N (default 120), APERTURA_FUZZ_SEED, APERTURA_FUZZ_ONLY=I,
#   APERTURA_FUZZ_KEEP=1, APERTURA_FUZZ_VERBOSE=1: see lib.sh.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
rb_init "${1:?usage: uvfits_mutation.sh APERTURA_CLI [SHARED_DATA_DIR]}" "$0"
ncases=${APERTURA_FUZZ_CASES:-120}
shared=${2:-${APERTURA_SHARED_DATA:-$here/../../../shared/data}}

srcs=("$work/sim.uvfits")
"$cli" simulate --point 1,0,0 --array random:300:8:12 --hours 1 --integration 60 --seed 3 \
  --feeds circular --spw 2.3e11,2,1e8 -o "$work/sim.uvfits" > "$work/sim.log" 2>&1 ||
  { cat "$work/sim.log"; echo "FAIL: cannot simulate the UVFITS file"; exit 1; }
for f in vlba_mojave/mojave.uvfits eht_m87_2017/SR1_M87_2017_095_hi_hops_netcal_StokesI.uvfits; do
  if [ -f "$shared/$f" ]; then srcs+=("$shared/$f"); else echo "note: $shared/$f absent, not used"; fi
done

# parse FILE (index K): the offset and keyword of every header card of every HDU, the primary
# data's start and random-group layout, and every extension's data region; into arrays K-indexed.
declare -a cells group_start group_bytes group_count param_bytes data_end ncards next
declare -A card_off card_key ext_start ext_bytes
parse() {
  local k=$1 f=$2 size off=0 hdu=0 line key val n
  size=$(rb_size "$f")
  ncards[k]=0 next[k]=0
  while [ "$off" -lt "$size" ]; do
    local bitpix=8 naxis=0 pcount=0 gcount=1 prod=1 groups=F ax1=1 found=0
    n=0
    while IFS= read -r line; do
      key=${line:0:8}; key=${key%% *}
      card_off[$k,${ncards[k]}]=$((off + n * 80)); card_key[$k,${ncards[k]}]=$key
      ncards[k]=$((ncards[k] + 1))
      val=${line:10:20}; val=${val// /}
      case $key in
        BITPIX) bitpix=$val ;; NAXIS) naxis=$val ;; PCOUNT) pcount=$val ;; GCOUNT) gcount=$val ;;
        GROUPS) groups=$val ;; NAXIS1) ax1=$val; prod=$((prod * val)) ;;
        NAXIS[0-9]*) prod=$((prod * val)) ;;
        END) found=1; break ;;
      esac
      n=$((n + 1))
    done < <(tail -c +$((off + 1)) "$f" | head -c 2880000 | fold -w 80)
    [ "$found" -eq 1 ] || { echo "FAIL: cannot parse the header at $off of $f"; exit 1; }
    local start=$((off + (n * 80 + 80 + 2879) / 2880 * 2880)) bytes
    [ "$bitpix" -lt 0 ] && bitpix=$((-bitpix))
    if [ "$naxis" -eq 0 ]; then bytes=0
    elif [ "$hdu" -eq 0 ] && [ "$groups" = T ] && [ "$ax1" -eq 0 ]; then
      prod=1; local i
      # NAXIS1 = 0 in random groups: the product of NAXIS2..; recompute without it.
      while IFS= read -r line; do
        key=${line:0:8}; key=${key%% *}; val=${line:10:20}; val=${val// /}
        case $key in NAXIS1) ;; NAXIS[0-9]*) prod=$((prod * val)) ;; END) break ;; esac
      done < <(head -c "$start" "$f" | fold -w 80)
      group_start[k]=$start group_count[k]=$gcount param_bytes[k]=$((bitpix / 8))
      group_bytes[k]=$(((pcount + prod) * bitpix / 8)) cells[k]=$pcount
      bytes=$((gcount * (pcount + prod) * bitpix / 8))
      data_end[k]=$((start + bytes))
    else bytes=$(((pcount + prod * gcount) * bitpix / 8))
    fi
    if [ "$hdu" -gt 0 ]; then ext_start[$k,${next[k]}]=$start ext_bytes[$k,${next[k]}]=$bytes; next[k]=$((next[k] + 1)); fi
    off=$((start + (bytes + 2879) / 2880 * 2880))
    hdu=$((hdu + 1))
  done
}

declare -a cell_arcsec names
for k in "${!srcs[@]}"; do
  parse "$k" "${srcs[k]}"
  [ -n "${group_start[k]:-}" ] || { echo "FAIL: ${srcs[k]} has no random groups"; exit 1; }
  cell_arcsec[k]=$("$cli" info "${srcs[k]}" | sed -n 's/^Suggested: *cell \([0-9.e+-]*\) arcsec.*/\1/p')
  [ -n "${cell_arcsec[k]}" ] || { echo "FAIL: info gives no suggested cell for ${srcs[k]}"; exit 1; }
  names[k]=fuzz-$(basename "${srcs[k]}")
done

values=(0 -1 1 2147483647 2147483648 -2147483649 4294967424 99999999999999999999 1.0E308 -1.0E308
  1.0E-308 NaN Inf "'junk    '" "'        '" T F 1.5 "" "''" "'-5      '")
# Big-endian bit patterns of (float32 | float64) values: NaN, +Inf, -Inf, huge, -huge, 0, -1, 1e-40.
f32=(7fc00000 7f800000 ff800000 7f7fffff ff7fffff 00000000 bf800000 00000001)
f64=(7ff8000000000000 7ff0000000000000 fff0000000000000 7fefffffffffffff ffefffffffffffff
  0000000000000000 bff0000000000000 0000000000000001)

hexbytes() {  # FILE OFFSET HEX: writes the bytes HEX at OFFSET
  local hex=$3 oct=() j
  for ((j = 0; j < ${#hex}; j += 2)); do oct+=("$(printf '%03o' "0x${hex:j:2}")"); done
  rb_bytes "$1" "$2" "${oct[@]}"
}

# mutate K FILE OP: damages FILE (a copy of source K); sets what.
mutate() {
  local k=$1 f=$2 op=$3 size c off n v j
  size=$(rb_size "$f")
  case $op in
    0) rb_rand 8; n=$((R + 1)); what="garble $n bytes of the primary header"
       for ((j = 0; j < n; j++)); do
         rb_rand "${group_start[k]}"; off=$R; rb_rand 95
         rb_bytes "$f" "$off" "$(printf '%03o' $((R + 32)))"
       done ;;
    1|2) rb_rand "${ncards[k]}"; c=$R
         # Half the time a structural keyword of any HDU (those that place bytes and columns).
         if [ "$op" -eq 2 ]; then
           local tries
           for ((tries = 0; tries < 200; tries++)); do
             case ${card_key[$k,$c]} in BITPIX|NAXIS*|PCOUNT|GCOUNT|TFIELDS|TFORM*|TTYPE*|PTYPE*|CTYPE*|CRVAL*|CDELT*|CRPIX*|PSCAL*|PZERO*|GROUPS|EXTNAME|NO_IF|FREQ|REF_FREQ) break ;; esac
             rb_rand "${ncards[k]}"; c=$R
           done
         fi
         rb_rand ${#values[@]}; v=${values[$R]}
         off=${card_off[$k,$c]}
         what="set the card ${card_key[$k,$c]} (at $off) to '$v'"
         rb_text "$f" "$((off + 8))" "$(printf '= %20s / fuzz%44s' "$v" '')" ;;
    3) rb_rand "${ncards[k]}"; c=$R
       local e
       for ((e = 0; e < ncards[k]; e++)); do
         [ "${card_key[$k,$e]}" = END ] || continue
         rb_rand 2; [ "$R" -eq 0 ] && break
       done
       [ "$e" -ge "${ncards[k]}" ] && e=$((ncards[k] - 1))
       what="blank the END card at ${card_off[$k,$e]}"; rb_text "$f" "${card_off[$k,$e]}" "$(printf '%80s' '')" ;;
    4) rb_rand "${group_count[k]}"; local g=$R; rb_rand "${cells[k]}"; local p=$R
       rb_rand ${#f32[@]}; local w=$R
       off=$((group_start[k] + g * group_bytes[k] + p * param_bytes[k]))
       if [ "${param_bytes[k]}" -eq 4 ]; then v=${f32[$w]}; else v=${f64[$w]}; fi
       what="set parameter $p of group $g to 0x$v"; hexbytes "$f" "$off" "$v" ;;
    5) rb_rand 16; n=$((R + 1)); what="garble $n bytes of the group data"
       for ((j = 0; j < n; j++)); do
         rb_rand $((data_end[k] - group_start[k])); off=$((group_start[k] + R)); rb_rand 256
         rb_bytes "$f" "$off" "$(printf '%03o' "$R")"
       done ;;
    6) rb_rand "${next[k]}"; local x=$R; rb_rand 8; n=$((R + 1))
       what="garble $n bytes of extension $x's table"
       for ((j = 0; j < n; j++)); do
         rb_rand $((ext_bytes[$k,$x] > 0 ? ext_bytes[$k,$x] : 1)); off=$((ext_start[$k,$x] + R)); rb_rand 256
         rb_bytes "$f" "$off" "$(printf '%03o' "$R")"
       done ;;
    7) rb_rand $((size / 2880)); what="zero the 2880-byte block $R"
       dd if=/dev/zero of="$f" bs=2880 seek="$R" count=1 conv=notrunc status=none ;;
    8) rb_rand 4
       case $R in
         0) rb_rand "$size"; n=$R ;;                                     # anywhere
         1) rb_rand $((size / 2880)); n=$((R * 2880)) ;;                  # at a block boundary
         2) rb_rand "${group_count[k]}"; n=$((group_start[k] + R * group_bytes[k])) ;;  # between groups
         3) n=$(( $(rb_size "$f") - 2880 )) ;;                            # the last block lost
       esac
       what="truncate to $n bytes"; truncate -s "$n" "$f" ;;
    9) rb_rand 6000; n=$((R + 1)); what="append $n bytes"
       head -c "$n" "${srcs[k]}" >> "$f" ;;
  esac
}

out=$work/out
mkdir -p "$out"
for ((i = 0; i < ncases; i++)); do
  rb_case_no=$i
  rb_want "$i" || continue
  rb_case_seed "$i"
  rb_rand ${#srcs[@]}; k=$R
  rb_rand 10; op=$R
  f=$work/${names[k]}
  rm -f "$f"; cp "${srcs[k]}" "$f"; chmod u+w "$f"
  what=''
  mutate "$k" "$f" "$op"
  rb_set_inputs "$f"
  rb_case "case $i (${names[k]}: $what): info" "${names[k]}" - "" "$cli" info "$f"
  rb_case "case $i (${names[k]}: $what): dirty" "${names[k]}" "$out" "d-dirty.fits d-psf.fits" \
    "$cli" dirty "$f" --size 64 --cell "${cell_arcsec[k]}" -o "$out/d"
  rm -f "$f"
done
rb_finish
