#!/usr/bin/env bash
# Starts the real attnscope binary in a virtual X display, waits for its window, and saves a
# screenshot; fails when no window appears or the picture is blank.
# usage: screenshot_test.sh ATTNSCOPE_BINARY OUTPUT.png [SENTENCE [APP OPTIONS...]]
set -euo pipefail
binary=$1 out=$2 sentence=${3:-A man in an orange hat is looking at something.}
shift 3 2>/dev/null || shift $#
options="$*"
export binary out sentence options
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  "$binary" $options "$sentence" &
  app=$!
  wid=$(timeout 20 xdotool search --sync --onlyvisible --name "^attnscope$" | head -n 1)
  sleep 3  # let the model load and the first translation draw
  import -window "$wid" "$out"
  kill $app
  [ -n "$wid" ]
'
colors=$(convert "$out" -format %k info:)
echo "screenshot $out: $(identify -format "%wx%h" "$out"), $colors colours"
[ "$colors" -gt 50 ]
