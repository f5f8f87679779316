#!/bin/sh
# Renders the HTML reports of the transpose example and of its column read under `banks
# --suggest` with headless Chromium, and writes the screenshots to docs/:
#   docs/transpose-report.png   gpumemsim run --html      (the bundled transpose_naive)
#   docs/banks-suggest.png      gpumemsim banks ... --suggest --html
# The PNGs are committed; re-run after changing the report.
#   sh tools/report_screenshots.sh   (needs chromium: Debian package chromium)
set -eu
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { echo "needs chromium (apt-get install -y chromium)" >&2; exit 1; }
cargo build -q --release -p gpumemsim-cli
bin=target/release/gpumemsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs
shot() { # shot HTML PNG WIDTH,HEIGHT
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --hide-scrollbars --force-color-profile=srgb --force-device-scale-factor=1 \
        --user-data-dir="$tmp/profile" --window-size="$3" --screenshot="$2" \
        "file://$1" 2>/dev/null
}
"$bin" run --html "$tmp/transpose.html" >/dev/null
shot "$tmp/transpose.html" "$PWD/docs/transpose-report.png" 1280,1450
"$bin" banks --arch rdna3 --op ds_load_b32 --addr 't*128' --suggest --html "$tmp/banks.html" >/dev/null
shot "$tmp/banks.html" "$PWD/docs/banks-suggest.png" 1280,1100
ls -l docs/transpose-report.png docs/banks-suggest.png
