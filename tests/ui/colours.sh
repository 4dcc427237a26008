#!/bin/sh
# Issue 14's colour roles and filter scope in the real binary: the MPI colour
# is not a lateness red, NO_COLOR keeps intermediate lateness levels (dim for
# the low ones), a view that ignores the rank filter says "(all ranks here)".  A private tmux server (tests/support/tmux.sh).
NAME=tui-colours
. "$(dirname "$0")/../support/tmux.sh"
# the physical view's legend swatch for MPI: teal (xterm-256 index 73), not salmon (167)
"$BIN" render "$ST" --view physical --size 100x24 --color >"$tmp/p.txt" 2>&1
if grep -q "48;5;73m $(printf '\033')\[0;38;5;250;49m MPI" "$tmp/p.txt"; then echo "ok mpi-colour"
else echo "not ok mpi-colour"; fi
# NO_COLOR: low lateness levels are dim, so they differ from the plain middle levels
start 80 24 "$UTF NO_COLOR=1" "$ST"
wait_for "?:help" >/dev/null
sleep 0.2
if $T capture-pane -p -e -t m | grep -q "$(printf '\033')\[2m[▶◀◆✶]"; then echo "ok no-color-levels"
else echo "not ok no-color-levels: no dim event glyphs"; fi
keys q
restored no-color-quit 0
# a view that does not restrict itself to the filter's ranks says so (the matrix: every
# rank's row and column; the calls view counts the filter's ranks since issue 14)
"$BIN" render "$ST" --view matrix --size 100x24 --filter quartz2 >"$tmp/w.txt" 2>&1
head -n 1 "$tmp/w.txt" | grep -q 'f:quartz2 (all ranks here)' && echo "ok filter-all-ranks-note" || echo "not ok filter-all-ranks-note"
"$BIN" render "$ST" --view profile --size 100x24 --filter quartz2 >"$tmp/w.txt" 2>&1
head -n 1 "$tmp/w.txt" | grep -q 'f:quartz2 |' && echo "ok filter-profile-applied" || echo "not ok filter-profile-applied"
# the light theme paints its background everywhere: render gives every cell a
# colour (no terminal-default 39/49), and the UI paints a label row white (231)
"$BIN" render "$ST" --view profile --size 80x24 --theme light --color >"$tmp/l.txt" 2>&1
if grep -q ';49m\|;39;' "$tmp/l.txt"; then echo "not ok light-render-background"; else echo "ok light-render-background"; fi
start 80 24 "$UTF" "--theme light $ST"
wait_for "?:help" >/dev/null
keys 7
sleep 0.5
if $T capture-pane -p -e -t m | grep -q '48;5;231m  128.0 KiB'; then echo "ok light-tui-background"
else echo "not ok light-tui-background"; $T capture-pane -p -e -t m | cat -v | sed 's/^/    /' | head -n 30; fi
keys q
