#!/usr/bin/env bash
# Packaging test: builds the .deb and .tar.gz with CPack from an already built tree, unpacks the
# .deb into a temporary root (dpkg -x) and checks what a user gets:
#   - control data: package name, version, section, Depends computed by dpkg-shlibdeps (Qt,
#     casacore);
#   - the file list: both programs, desktop entry, icons, metainfo, MIME type, man pages;
#   - no build-tree paths: no RPATH/RUNPATH outside $ORIGIN in any installed ELF file, no
#     -march=native in the build;
#   - the installed programs run from the unpacked root with LD_LIBRARY_PATH unset and the working
#     directory outside the build tree: apertura-cli --version, apertura-cli demo (into a temporary
#     XDG_DATA_HOME), apertura-cli plugins (finds the packaged plugins), apertura --demo
#     --screenshot and apertura FILE.apertura --screenshot, and the screenshots are not blank;
#   - desktop-file-validate, appstreamcli and update-mime-database on the installed files, and
#     lintian with no errors (each only when installed).
# Usage: test_package.sh BUILD_DIR VERSION CPACK PNG_CHECK|none
set -uo pipefail

# The application needs an X display: CI runs ctest under xvfb-run; elsewhere this script runs
# itself under xvfb-run once.
if [ "${4:-none}" != none ] && [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$@"
fi

build=$(cd "$1" && pwd)
version=$2
cpack_bin=$3
png_check=$4

work=$(mktemp -d "${TMPDIR:-/tmp}/apertura-packaging.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
step() { echo "--- $*"; }

# Programs the package is checked with: a clean environment (no library path, a temporary home)
# and a working directory outside the build tree.
in_root() {
  (cd "$work" && env -u LD_LIBRARY_PATH -u APERTURA_PLUGIN_PATH HOME="$work/home" \
    XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" "$@")
}

step "cpack"
for tool in "$cpack_bin" dpkg-deb dpkg-shlibdeps readelf file; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool not found (packaging/install-deps.sh)"; exit 1; }
done
if ! "$cpack_bin" --config "$build/CPackConfig.cmake" -B "$work/out" -G "DEB;TGZ" \
  >"$work/cpack.log" 2>&1; then
  cat "$work/cpack.log"
  echo "FAIL: cpack failed"
  exit 1
fi
deb=$(ls "$work"/out/apertura_"${version}"_*.deb 2>/dev/null | head -1)
tgz=$(ls "$work"/out/apertura-"${version}"-*.tar.gz 2>/dev/null | head -1)
[ -n "$deb" ] || { cat "$work/cpack.log"; echo "FAIL: no apertura_${version}_*.deb made"; exit 1; }
[ -n "$tgz" ] || fail "no apertura-${version}-*.tar.gz made"
echo "made $(basename "$deb") ($(du -h "$deb" | cut -f1)) and $(basename "${tgz:-none}")"

step "control data"
info=$(dpkg-deb -I "$deb")
echo "$info" | grep -E '^ [A-Z][A-Za-z-]+:'
field() { echo "$info" | sed -n "s/^ $1: //p"; }
[ "$(field Package)" = apertura ] || fail "Package is '$(field Package)', expected apertura"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', expected $version"
[ "$(field Section)" = science ] || fail "Section is '$(field Section)', expected science"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
depends=$(field Depends)
# apertura-cli links no Qt; the desktop application does.
if [ "$png_check" != none ]; then
  grep -q "libqt6core6" <<<"$depends" || fail "Depends lacks libqt6core6 (shlibdeps): $depends"
fi
grep -q "libcasa-" <<<"$depends" || fail "Depends lacks casacore (libcasa-*): $depends"
grep -q "libfftw3" <<<"$depends" || fail "Depends lacks FFTW (libfftw3-*): $depends"

step "contents"
dpkg-deb -c "$deb" >"$work/contents.txt"
root=$work/root
dpkg -x "$deb" "$root"
expected=(usr/bin/apertura-cli usr/share/man/man1/apertura-cli.1.gz
  usr/share/mime/packages/apertura.xml usr/share/doc/apertura/copyright
  usr/share/doc/apertura/changelog.gz)
if [ "$png_check" != none ]; then
  expected+=(usr/bin/apertura usr/share/man/man1/apertura.1.gz
    usr/share/applications/apertura.desktop
    usr/share/metainfo/org.apertura.Apertura.metainfo.xml
    usr/share/icons/hicolor/scalable/apps/apertura.svg)
  for size in 16 22 24 32 48 64 128 256; do
    expected+=("usr/share/icons/hicolor/${size}x${size}/apps/apertura.png")
  done
fi
for f in "${expected[@]}"; do
  [ -f "$root/$f" ] || fail "the package lacks /$f"
done
if [ -n "$tgz" ]; then
  tar -tzf "$tgz" >"$work/tgz.txt" || fail "the tarball cannot be listed"
  grep -q '^apertura-[^/]*/bin/apertura-cli$' "$work/tgz.txt" || fail "the tarball lacks bin/apertura-cli"
fi
# Anything of ours that sits outside /usr or is owned by someone other than root is a mistake.
awk '{ print $2, $6 }' "$work/contents.txt" | grep -v '^root/root \./usr' | grep -v '^root/root \./$' &&
  fail "entries outside /usr or not owned by root/root (above)"

step "no build-tree paths"
elf_count=0
while IFS= read -r -d '' f; do
  grep -qF "$build" "$f" && fail "${f#"$root"} contains the build directory path $build"
  file -b "$f" | grep -q '^ELF' || continue
  elf_count=$((elf_count + 1))
  paths=$(readelf -d "$f" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\2/p')
  for p in ${paths//:/ }; do
    case $p in
      '$ORIGIN' | '$ORIGIN/'*) ;;
      *) fail "${f#"$root"}: RPATH/RUNPATH $p (only \$ORIGIN-relative paths are allowed)" ;;
    esac
  done
done < <(find "$root" -type f -print0)
[ "$elf_count" -ge 1 ] || fail "no ELF files in the package"
echo "$elf_count ELF file(s) checked"
if [ -f "$build/compile_commands.json" ] &&
  grep -qE -- '-march=native|-mtune=native' "$build/compile_commands.json"; then
  fail "the build uses -march=native/-mtune=native: the package would not run on every x86-64"
fi

step "apertura-cli from the package"
cli=$root/usr/bin/apertura-cli
out=$(in_root "$cli" --version 2>&1)
echo "$out"
[ "$out" = "apertura-cli $version" ] || fail "apertura-cli --version printed '$out'"
mkdir -p "$work/home" "$work/data" "$work/config" "$work/cache"
if in_root "$cli" demo >"$work/demo.log" 2>&1; then
  head -3 "$work/demo.log"
  grep -q "Created the demo data set in $work/data/apertura/demo" "$work/demo.log" ||
    fail "apertura-cli demo did not create the demo under XDG_DATA_HOME"
  grep -q "Rows: *[1-9]" "$work/demo.log" || fail "apertura-cli demo printed no row count"
  [ -d "$work/data/apertura/demo/demo.ms" ] || fail "no demo.ms under XDG_DATA_HOME"
else
  cat "$work/demo.log"
  fail "apertura-cli demo failed"
fi

# The CUDA backend module, when this build has one: packaged in /usr/lib/apertura, where the
# installed programs' loader looks; optional, so no CUDA library is among the Depends (CUDA is
# only in Suggests; packaging/deb_shlibdeps.cmake).
if [ -f "$build/lib/apertura/libapertura_cuda.so" ]; then
  step "CUDA module"
  [ -f "$root/usr/lib/apertura/libapertura_cuda.so" ] ||
    fail "the package lacks /usr/lib/apertura/libapertura_cuda.so"
  grep -Eiq "cuda|cufft" <<<"$depends" && fail "Depends names CUDA libraries: $depends"
  grep -q "cuda-cudart" <<<"$(field Suggests)" ||
    fail "Suggests does not name the CUDA runtime: '$(field Suggests)'"
  devices=$(in_root "$cli" devices 2>&1)
  echo "apertura-cli devices: $devices"
  # Found and loaded: a device list, or "no CUDA device (...)" from the driver; a missing CUDA
  # runtime on this machine is "does not load", still proof that the module was found.
  grep -q "was not found" <<<"$devices" &&
    fail "the installed apertura-cli does not find the packaged CUDA module"
  grep -q "built without CUDA" <<<"$devices" && fail "the installed apertura-cli has no CUDA backend"
else
  [ ! -e "$root/usr/lib/apertura/libapertura_cuda.so" ] ||
    fail "a CUDA module is packaged by a build without one"
fi

# Plugins installed with the package are found relative to the installed program's prefix.
plugin_count=$(find "$root/usr/lib/apertura/plugins" -name '*.so' 2>/dev/null | wc -l)
if [ "$plugin_count" -gt 0 ]; then
  in_root "$cli" plugins >"$work/plugins.log" 2>&1 || fail "apertura-cli plugins failed"
  cat "$work/plugins.log"
  grep -q "Loaded plugins ($plugin_count)" "$work/plugins.log" ||
    fail "apertura-cli plugins did not load the $plugin_count plugin(s) in /usr/lib/apertura/plugins"
  grep -q "Refused (0)" "$work/plugins.log" || fail "apertura-cli plugins refused some"
fi

if [ "$png_check" != none ]; then
  step "apertura --screenshot from the package"
  # Runs the installed application (the arguments are apertura's) on the X display.
  gui() { in_root timeout 120 env QT_QPA_PLATFORM=xcb "$root/usr/bin/apertura" "$@"; }
  if [ -z "${DISPLAY:-}" ]; then
    fail "no DISPLAY and no xvfb-run: the application cannot be checked"
  elif gui --demo --screenshot "$work/shot.png" >"$work/gui.log" 2>&1; then
    "$png_check" "$work/shot.png" 640 400 || fail "the screenshot is blank or too small"
    # Kept for a person to look at.
    [ -z "${APERTURA_TEST_ARTIFACTS:-}" ] ||
      cp "$work/shot.png" "$APERTURA_TEST_ARTIFACTS/packaged-main-window.png"

    # What a double-click on a project file does: the desktop entry runs `apertura FILE`.
    printf '{"schema_version": 1, "data": {"path": "%s"}}\n' \
      "$work/data/apertura/demo/demo.ms" >"$work/demo.apertura"
    if gui "$work/demo.apertura" --screenshot "$work/project.png" >"$work/project.log" 2>&1; then
      "$png_check" "$work/project.png" 640 400 || fail "the project screenshot is blank"
    else
      cat "$work/project.log"
      fail "apertura FILE.apertura --screenshot failed"
    fi
  else
    cat "$work/gui.log"
    fail "apertura --demo --screenshot failed"
  fi
fi

step "desktop integration files"
if command -v desktop-file-validate >/dev/null && [ "$png_check" != none ]; then
  desktop-file-validate "$root/usr/share/applications/apertura.desktop" ||
    fail "desktop-file-validate: errors above"
  grep -q '^MimeType=application/x-apertura-project;$' \
    "$root/usr/share/applications/apertura.desktop" || fail "the desktop entry lacks the MIME type"
else
  echo "desktop-file-validate not installed: skipped"
fi
if command -v appstreamcli >/dev/null && [ "$png_check" != none ]; then
  appstreamcli validate --no-net "$root/usr/share/metainfo/org.apertura.Apertura.metainfo.xml" ||
    fail "appstreamcli validate: errors above"
  grep -q "<release version=\"$version\"" \
    "$root/usr/share/metainfo/org.apertura.Apertura.metainfo.xml" ||
    fail "the metainfo does not name release $version"
else
  echo "appstreamcli not installed: skipped"
fi
if command -v update-mime-database >/dev/null; then
  mime=$work/mime
  mkdir -p "$mime/packages"
  cp "$root/usr/share/mime/packages/apertura.xml" "$mime/packages/"
  if update-mime-database "$mime" >"$work/mime.log" 2>&1; then
    grep -qx 'application/x-apertura-project:\*\.apertura' "$mime/globs" ||
      fail "the MIME database does not map *.apertura to application/x-apertura-project"
  else
    cat "$work/mime.log"
    fail "update-mime-database rejected apertura.xml"
  fi
else
  echo "update-mime-database not installed: skipped"
fi

step "lintian"
if command -v lintian >/dev/null; then
  # No tag is suppressed: the package has no lintian errors of its own. Warnings and infos (for
  # example hardening-no-bindnow) are printed but do not fail the test.
  lintian --no-cfg --fail-on error "$deb" >"$work/lintian.log" 2>&1
  rc=$?
  cat "$work/lintian.log"
  grep -q '^E: ' "$work/lintian.log" && fail "lintian reports errors (E:)"
  [ "$rc" -eq 0 ] || fail "lintian exited with $rc"
else
  echo "lintian not installed: skipped"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures packaging check(s) failed"
  exit 1
fi
echo "OK: $(basename "$deb") installs and runs"
