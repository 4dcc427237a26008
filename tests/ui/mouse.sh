#!/bin/sh
# The mouse (on unless --no-mouse, docs/tui.md "Mouse"): xterm SGR reports fed
# to the real binary in tmux.  A click is press + release at column X, row Y
# (1-based): ESC [ < 0 ; X ; Y M, then ... m; the wheel is button 64 (up) or 65
# (down), +16 with Ctrl.  tmux hands these bytes to the UI, which only decodes
# them when it asked for mouse reports (tmux's mouse_any_flag says it did).
NAME=mouse
. "$(dirname "$0")/../support/tmux.sh"
E=$(printf '\033')
click() { keys -l "$E[<0;$1;$2M$E[<0;$1;$2m"; }
wheel() { keys -l "$E[<$1;$2;$3M"; }
flag() {   # flag NAME VALUE: the UI has (1) or has not (0) asked for mouse reports
	got=$($T display -p -t m '#{mouse_any_flag}')
	if [ "$got" = "$2" ]; then echo "ok $1"; else echo "not ok $1: mouse_any_flag=$got, want $2"; fi
}

# 100x30: title, view strip, then the logical view's axis at row 3; the data
# rows start at row 4 (1-based), rank labels take 3 columns (32 ranks)
start 100 30 "$UTF" "$ST"
wait_for "?:help"
flag mouse-reporting-on 1
screen >"$tmp/rows"
click 40 10   # row 10 = the 7th data row, column 40 = a step in the middle
row_rank=$(sed -n 10p "$tmp/rows" | awk '{print $1}')
check click-logical-rank "logical | rank $row_rank/31"
check_not click-logical-step "step 0/40"
wheel 65 40 10
check wheel-down "rank $(sed -n 13p "$tmp/rows" | awk '{print $1}')/31"
wheel 64 40 10
check wheel-up "logical | rank $row_rank/31"
wheel 81 40 10   # Ctrl + wheel down: zoom out
check ctrl-wheel-zoom "2 steps per column"
keys 0

keys 2
wait_for "physical |"
click 50 8   # row 8: the 5th rank row below the axis (row 3), rank 4 at the top of the list
check click-physical-rank "physical | rank 4/31"

keys 3
wait_for "overview |"
click 50 6   # a column in the middle of the bars: its step
check_not click-overview "step 0/40"
check click-overview-view "overview | rank 4/31"

keys 7
wait_for "Rank time"
click 10 8   # the 4th table row under the header: MPI_Waitall (by exclusive time)
check click-profile "MPI_Waitall: 32 ranks"

keys 6
wait_for "Ranks that made others wait"
screen >"$tmp/ws"
y=$(grep -n "^  rank 16 " "$tmp/ws" | cut -d: -f1)
click 10 "$y"
check click-waitstates "selected: rank 16;"
check_not click-waitstates-not-pattern "selected: wait_at_barrier"

keys 4
wait_for "members"
screen >"$tmp/rg"
id=$(sed -n 7p "$tmp/rg" | awk '{print $1}')   # the table's second row (the first is selected)
click 5 7
check click-regions "region $id: "

keys 8
wait_for "Verdicts for"
screen >"$tmp/vd"
line=$(sed -n 6p "$tmp/vd" | cut -c3-40)
click 5 6
check click-verdicts "> $line"

# --no-mouse: no reports asked for; the same bytes do not move the cursor
start 100 30 "$UTF" "$ST --no-mouse"
wait_for "?:help"
flag no-mouse-reporting-off 0
click 40 10
sleep 0.3
check no-mouse-click "rank 0/31 | step 0/40"
wheel 65 40 10
sleep 0.3
check no-mouse-wheel "rank 0/31 | step 0/40"
