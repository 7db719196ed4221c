#!/usr/bin/env bash
# Starts the real attnscope binary in a virtual X display, waits for its window, and saves a
# screenshot; fails when no window appears, the picture is blank, or no heatmap is drawn.
# usage: screenshot_test.sh ATTNSCOPE_BINARY OUTPUT.png [SENTENCE [APP OPTIONS...]]
set -euo pipefail
binary=$1 out=$2 sentence=${3:-A man in an orange hat is looking at something.}
shift 3 2>/dev/null || shift $#
options="$*"
# Default settings (the viridis colour map), whatever the user's own attnscope settings are.
XDG_CONFIG_HOME=$(mktemp -d)
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
export binary out sentence options XDG_CONFIG_HOME
# A real window on the virtual display, whatever the caller's QtTest setting: offscreen, no
# window would appear (and import with no window waits for a click).
unset QT_QPA_PLATFORM
# The share of the picture in viridis' lowest colour: the cells of a drawn heatmap, a few
# hundredths of a percent (the colour scale alone) without one.
# (A definition in a variable: xvfb-run's /bin/sh drops exported bash functions.)
heatmap_share_definition='heatmap_share() {
  convert "$1" -alpha off -fuzz 10% -fill "#00ff00" -opaque "#440154" -fill black +opaque "#00ff00" \
    -format "%[fx:mean.g]" info:
}'
eval "$heatmap_share_definition"
export heatmap_share_definition
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  eval "$heatmap_share_definition"
  "$binary" $options "$sentence" &
  app=$!
  wid=$(timeout 20 xdotool search --sync --onlyvisible --name "^attnscope$" | head -n 1)
  if [ -z "$wid" ]; then
    echo "no attnscope window appeared within 20 s" >&2
    kill $app
    exit 1
  fi
  # Until the model has loaded and the first translation is drawn (at most 20 s).
  for _ in $(seq 20); do
    sleep 1
    import -window "$wid" "$out"
    awk "BEGIN { exit !($(heatmap_share "$out") > 0.02) }" && break
  done
  kill $app
  [ -n "$wid" ]
'
colors=$(convert "$out" -format %k info:)
share=$(heatmap_share "$out")
echo "screenshot $out: $(identify -format "%wx%h" "$out"), $colors colours, heatmap share $share"
[ "$colors" -gt 50 ]
awk "BEGIN { exit !($share > 0.02) }"
