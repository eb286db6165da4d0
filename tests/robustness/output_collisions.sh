#!/usr/bin/env bash
# No user file is ever deleted or replaced by an output (issue #33): simulate, dirty and run whose
# output would land on a user's folder or file, on one of the command's own inputs (the sky image,
# the array's MS, the --like MS, the data set), or where an output name is a user's folder, refuse
# with a message naming it (or write elsewhere) and leave every user file as it was.
# Usage: output_collisions.sh APERTURA_CLI
#   APERTURA_FUZZ_ONLY=I, APERTURA_FUZZ_KEEP=1, APERTURA_FUZZ_VERBOSE=1: see lib.sh.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
rb_init "${1:?usage: output_collisions.sh APERTURA_CLI}" "$0"

u=$work/user                  # the user's files: every one of them is an input of every case
mkdir -p "$u/folder" "$u/dir.uvfits" "$u/out/d-dirty.fits" "$u/out/p-model.fits"
echo keep > "$u/folder/a.txt"
echo keep > "$u/dir.uvfits/b.txt"
echo keep > "$u/note.txt"
echo keep > "$u/out/d-dirty.fits/c.txt"
echo keep > "$u/out/p-model.fits/d.txt"
ms=$u/in.ms
sim=(simulate --point "1,0,0" --array random:300:8:12 --hours 1 --integration 60)
"$cli" "${sim[@]}" -o "$ms" > "$work/log" 2>&1 || { cat "$work/log"; echo "FAIL: cannot simulate"; exit 1; }
# A sky model in Jy/pixel: the model image of a short run.
printf '{"schema_version": 2, "data": {"path": "%s"}, "imaging": {"nx": 64, "ny": 64, "cell_arcsec": 0.2},
 "regularizers": [{"type": "l1", "lambda": 1}], "optimizer": {"max_iterations": 2}, "output": {"prefix": "%s/m"}}\n' \
  "$ms" "$work" > "$work/m.apertura"
"$cli" run "$work/m.apertura" > "$work/log" 2>&1 && cp "$work/m-model.fits" "$u/sky.fits" ||
  { cat "$work/log"; echo "FAIL: cannot make a sky model"; exit 1; }
rm -f "$work"/m-*
project() {  # KEY-VALUE JSON fragment of "output" -> $u/p.apertura
  printf '{"schema_version": 2, "data": {"path": "in.ms"}, "imaging": {"nx": 64, "ny": 64, "cell_arcsec": 0.2},
 "regularizers": [{"type": "l1", "lambda": 1}], "optimizer": {"max_iterations": 2}, "output": {%s}}\n' "$1" > "$u/p.apertura"
}
project '"prefix": "out/p"'
rb_set_inputs "$u"

i=0
check() {  # DESC NAMES COMMAND...
  rb_case_no=$i
  if rb_want "$i"; then rb_case "case $i ($1)" "$2" - "" "${@:3}"; fi
  # Outputs that were rightly written (none of the cases should) would show as a changed input.
  i=$((i + 1))
}
check "simulate onto a user's folder" "folder" "$cli" "${sim[@]}" -o "$u/folder"
check "simulate --overwrite onto a user's folder" "folder" "$cli" "${sim[@]}" --overwrite -o "$u/folder"
check "simulate --overwrite onto a user's text file" "note.txt" "$cli" "${sim[@]}" --overwrite -o "$u/note.txt"
check "simulate UVFITS --overwrite onto a folder" "dir.uvfits" "$cli" "${sim[@]}" --overwrite -o "$u/dir.uvfits"
check "simulate onto an existing MS" "in.ms" "$cli" "${sim[@]}" -o "$ms"
check "simulate --like MS --overwrite onto that MS" "in.ms" \
  "$cli" simulate --like "$ms" --image "$u/sky.fits" --overwrite -o "$ms"
check "simulate --sky-fits F --overwrite onto F" "sky.fits" \
  "$cli" simulate --sky-fits "$u/sky.fits" --array random:300:8:12 --hours 1 --overwrite -o "$u/sky.fits"
check "simulate --array ms:MS --overwrite onto MS" "in.ms" \
  "$cli" simulate --point "1,0,0" --array "ms:$ms" --hours 1 --overwrite -o "$ms"
check "dirty where an output name is a user's folder" "d-dirty.fits" \
  "$cli" dirty "$ms" --size 64 --cell 0.2 -o "$u/out/d"
check "run where an output name is a user's folder" "p-model.fits" "$cli" run "$u/p.apertura"
for target in folder in.ms note.txt; do
  project "\"prefix\": \"$work/p\", \"write_model_column\": true, \"model_ms\": \"$target\""
  rb_set_inputs "$u"
  check "run with output.model_ms onto $target" "$target|output.model_ms" "$cli" run "$u/p.apertura"
done
rb_finish
