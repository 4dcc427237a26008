#!/bin/sh
# The wait states, profile and calls views in the real binary (a private tmux
# server, as tests/ui/tui.sh): open each view, move, Enter on a waiting rank
# lands the logical cursor on it, sort, search from the profile, `o` toggles
# the opacity scaling, zoom/pan/Enter in the calls view, help; under LANG=C
# and NO_COLOR; too small.  Screens are compared with tests/golden/tui/*.txt
# (UPDATE=1 rewrites them; tests/golden/update.sh does that) or searched for
# a marker.  The tmux server is always killed at the end.
NAME=tui-extra
. "$(dirname "$0")/../support/tmux.sh"
LS=$TRACES/casita-late-sender-barrier-4p
no_colour() {
	sleep 0.1
	if $T capture-pane -p -e -t m | grep -qE '\[(3[0-7]|38|4[0-7]|48|9[0-7]|10[0-7])[;m]'; then
		echo "not ok $1: colour escapes with NO_COLOR"; else echo "ok $1"; fi
}

# --- wait states (UTF-8, colour) ------------------------------------------------------
start 80 24 "$UTF" "$LS"
wait_for "?:help" >/dev/null
keys 6
golden waitstates "Waiting "
keys j
check ws-move "selected: wait_at_barrier"
keys l
check ws-section "the largest wait it caused:"
keys l
check ws-section-2 "its largest wait: late_sender 10.99 s in MPI_Recv on rank 3"
# Enter on the rank that waited most: the logical view, cursor on rank 3 at its wait
keys Enter
check ws-enter-view "logical | rank 3/3"
check ws-enter-msg "rank 3 step 10: late_sender 10.99 s in MPI_Recv on rank 3 (rank 2 late)"
check ws-enter-cursor "logical | rank 3/3 | step 10/12"
check ws-enter-event "MPI_Recv 10.99 s"
keys 6 h
check ws-back-section "the largest wait it caused:"
keys Enter
check ws-enter-cause "logical | rank 0/3"
keys 6 '?'
check ws-help "Keys in the waitstates view"
check ws-help-enter "largest wait"
keys Escape

# --- profile ---------------------------------------------------------------------------
keys 7
golden profile "Rank time"
keys j
check pf-move "foo: 4 ranks"
keys s
check pf-sort ", by inclusive"
check pf-sort-kept "foo: 4 ranks"
keys g Enter
check pf-search-lower "/(?-i)^main\$: main on rank"
keys s s s
check pf-sort-cycle ", by exclusive"
keys g Enter
check pf-search "/^MPI_Recv\$: MPI_Recv on rank"
keys 1
check pf-to-logical "logical |"
keys 7 '?'
check pf-help "Keys in the profile view"
keys Escape

# --- calls -------------------------------------------------------------------------------
keys ':view calls' Enter
golden calls "calls |"
keys o
check cv-linear "opacity: linear"
check cv-linear-head "linear opacity (o)"
keys o
check cv-log "log opacity (o)"
keys +
check cv-zoom "window 10.04 s"
# h/l pan by an eighth of the window: the time axis moves, and back
axis() { sleep 0.2; screen | grep '^start'; }
a0=$(axis)
keys l
a1=$(axis)
keys h
a2=$(axis)
if [ -n "$a0" ] && [ "$a0" != "$a1" ] && [ "$a0" = "$a2" ]; then echo "ok cv-pan"
else echo "not ok cv-pan: '$a0' / '$a1' / '$a2'"; fi
keys 0
check cv-fit "over 20.09 s"
keys + Enter
check cv-enter "physical |"
keys ':view calls' Enter '?'
check cv-help "Keys in the calls view"
check cv-help-o "log / linear opacity"
keys Escape
$T resize-window -t m -x 20 -y 6
check cv-too-small "terminal too"
$T resize-window -t m -x 80 -y 24
check cv-resize-back "calls |"
keys q y   # y: q asks after a jump
restored quit 0

# --- the TUI draws what `tracecomb render` prints ------------------------------------
for name in waitstates profile calls; do
	start 80 24 "$UTF" "$LS"
	wait_for "?:help" >/dev/null
	keys ":view $name" Enter
	wait_for "$name |" >/dev/null
	sleep 0.2
	screen | sed 's/ *$//' >"$tmp/tui"
	"$BIN" render "$LS" --view "$name" --size 80x24 | sed 's/ *$//' >"$tmp/render"
	# the screen has all 24 rows; render trims trailing empty ones
	while [ "$(wc -l <"$tmp/render")" -lt 24 ]; do echo >>"$tmp/render"; done
	if cmp -s "$tmp/tui" "$tmp/render"; then echo "ok render-matches-tui-$name"
	else echo "not ok render-matches-tui-$name"; diff "$tmp/render" "$tmp/tui" | head -n 10; fi
	keys q y   # y: q asks after a jump
done

# --- ASCII (LANG=C) ------------------------------------------------------------------------
start 80 24 "TERM=xterm-256color LANG=C LC_ALL=C" "$LS"
wait_for "?:help" >/dev/null
keys 6
check ascii-ws "waitstates |"
ascii_only ascii-ws-only
keys 7
check ascii-pf "profile |"
ascii_only ascii-pf-only
keys ':view calls' Enter
golden calls-ascii "calls |"
ascii_only ascii-cv-only
keys o
check ascii-cv-linear "linear opacity"
keys 6 l l Enter
check ascii-ws-enter "logical | rank 3/3 | step 10/12"
keys q y   # y: q asks after a jump
restored quit-ascii 0

# --- NO_COLOR --------------------------------------------------------------------------------
start 80 24 "$UTF NO_COLOR=1" "$LS"
wait_for "?:help" >/dev/null
keys 6
check nocolor-ws "waitstates |"
no_colour nocolor-ws-plain
keys 7
check nocolor-pf "profile |"
no_colour nocolor-pf-plain
keys ':view calls' Enter
check nocolor-cv "calls |"
no_colour nocolor-cv-plain
keys o
check nocolor-cv-linear "opacity: linear"
keys 6 l l Enter
check nocolor-ws-enter "logical | rank 3/3 | step 10/12"
keys q y   # y: q asks after a jump
restored quit-no-color 0

# --- a terminal too small for the views ---------------------------------------------------------
start 20 6 "$UTF" "$LS"
wait_for "logical | rank" >/dev/null
for v in waitstates profile calls; do
	keys ":view $v" Enter
	check too-small-$v "terminal too"
done
keys q y   # y: q asks after a jump
restored quit-small 0
