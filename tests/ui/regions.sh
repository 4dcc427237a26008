#!/bin/sh
# The regions and evolution views in the real binary, in a private tmux
# server (tests/ui/tui.sh style): switch with the number keys and Tab, move,
# latency mode, Enter on a region restricts the logical view's ranks and Esc
# restores them, Enter on a window moves the physical view; 80x24, LANG=C,
# a terminal too small.  The tmux server is always killed at the end.
NAME=regions-tui
. "$(dirname "$0")/../support/tmux.sh"
ST=$TRACES/tracer-stencil4d-64p
if [ ! -d "$ST" ]; then echo "skip regions-tui: no traces in $TRACES"; exit 0; fi

# --- regions: number key, move, latency mode, Enter restricts, Esc restores ------------
start 80 24 "$UTF" "$ST"
wait_for "?:help" >/dev/null
keys 4
check regions-view "regions | rank 0/63"
check regions-table "16 regions by RL"
check regions-first "region 4: 16-19 (4 ranks, 2 nodes)"
keys j
check regions-move "region 2: 8-11"
keys L
check regions-latency "latency mode on"
keys Enter
check regions-enter "the other views show its 4 ranks"
check regions-title "f:region 2"
keys 1
check regions-logical "logical | rank 8/63"
keys G
check regions-restricted "logical | rank 11/63"
keys g
check regions-restricted-top "logical | rank 8/63"
keys Escape
check regions-esc "filter cleared"
keys G
check regions-restored "logical | rank 63/63"
keys g

# --- Tab to both views; evolution: move, Enter sets the physical window ---------------------
keys 3 Tab
check tab-regions "regions |"
keys Tab
check tab-evolution "evolution |"
check evolution-shared ">r2 8-11"   # the region selected in the regions view
keys g
check evolution-all "all messages, window 0"
keys j
check evolution-move "region 4, window 0"
keys l l
check evolution-window "window 2:"
keys Enter
check evolution-enter "the physical view shows it"
t0=$(screen | sed -n 's/.*window 2: \([0-9.]* [mun]*s\) - .*/\1/p' | head -n 1)
keys 2
check evolution-physical "physical | rank 0/63 | step"
if [ -n "$t0" ] && wait_for "| $t0 |"; then echo "ok evolution-physical-time"
else echo "not ok evolution-physical-time: '$t0' not in the title"; screen | head -n 3; fi
keys 5
check number-5 "evolution |"
keys '?'
check evolution-help "Keys in the evolution view"
keys Escape
check evolution-help-back "evolution |"
$T resize-window -t m -x 24 -y 8
check evolution-too-small "terminal too small"
$T resize-window -t m -x 80 -y 24
check evolution-resize-back "evolution |"
keys q y   # y: q asks after a jump
check quit "EXIT=0"

# --- LANG=C: ASCII only -------------------------------------------------------------------------
start 80 24 "TERM=xterm-256color LANG=C LC_ALL=C" "$TRACES/sstmacro-mpi-coverage-10p"
wait_for "?:help" >/dev/null
keys 4
check ascii-regions "2 regions by RL"
ascii_only ascii-regions-only
keys L
check ascii-latency "latency mode on"
ascii_only ascii-latency-only
keys Enter
check ascii-enter "f:region"
keys 5
check ascii-evolution "evolution |"
check ascii-evolution-marks "/growth ^steady high"
ascii_only ascii-evolution-only
keys q y   # y: q asks after a jump
check ascii-quit "EXIT=0"
