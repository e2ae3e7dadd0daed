#!/usr/bin/env bash
# Renders a hostcb HTML page (report --html, bench --html) to PNG in headless Chromium
# (Debian's and Ubuntu's `chromium` package), offline, so a person or CI can look at it.
#   scripts/report-screenshot.sh PAGE.html OUT.png [WIDTH,HEIGHT]
set -euo pipefail
page="$(realpath "$1")" png="$(realpath -m "$2")" size="${3:-1400,1800}"
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "report-screenshot: no chromium (apt-get install chromium)" >&2; exit 77; }
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
  --window-size="$size" --screenshot="$png" "file://$page" >/dev/null 2>&1
[ -s "$png" ] || { echo "report-screenshot: chromium wrote no $png" >&2; exit 1; }
echo "wrote $png"
