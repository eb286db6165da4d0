#!/usr/bin/env bash
# Renders resources/icons/apertura.svg into the hicolor PNG sizes that the package installs. The
# PNGs are committed (so a build needs no SVG renderer); run this after editing the SVG.
# Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
svg=$root/resources/icons/apertura.svg
command -v rsvg-convert >/dev/null || {
  echo "render-icons: rsvg-convert not found (apt-get install librsvg2-bin)" >&2
  exit 1
}
for size in 16 22 24 32 48 64 128 256; do
  out=$root/resources/icons/hicolor/${size}x${size}/apps/apertura.png
  mkdir -p "$(dirname "$out")"
  rsvg-convert -w "$size" -h "$size" "$svg" -o "$out"
  echo "render-icons: $out"
done
