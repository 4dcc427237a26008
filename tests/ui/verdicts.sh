#!/bin/sh
# The DAG and verdict views in the real binary, in a private tmux server
# (tests/ui/tui.sh style): open each view, move, fold a DAG rank, change
# window and region/scope, Enter on an imbalance step lands the logical cursor
# on the blamed rank and step, Enter on a strip opens the physical view; at
# 80x24 under UTF-8, LANG=C and NO_COLOR; a small terminal says it does not
# fit.  Screens are compared with tests/golden/tui/verdicts-*.txt (UPDATE=1
# rewrites them; tests/golden/update.sh does that) or searched for a marker.
NAME=verdicts-tui
BUILD=${BUILD:-build}
. "$(dirname "$0")/../support/tmux.sh"
if [ ! -x "$BUILD/bench/gen" ]; then echo "skip verdicts-tui: no $BUILD/bench/gen"; exit 0; fi
# rank 5 computes 2 ms longer at iteration 30: one imbalance verdict, rank 5 step 125
GEN=$tmp/gen
"$BUILD/bench/gen" -o "$GEN" --ranks 16 --ranks-per-node 4 --iters 60 --mapping roundrobin --delay 5:30:0.002 >/dev/null 2>&1 \
	|| { echo "not ok verdicts-gen"; exit 1; }
same_as_render() {   # same_as_render NAME TRACE VIEW: the screen is what `render` prints at 80x24
	"$BIN" render "$2" --view "$3" --size 80x24 >"$tmp/render" 2>&1
	screen >"$tmp/screen"
	if cmp -s "$tmp/render" "$tmp/screen"; then echo "ok $1"
	else echo "not ok $1"; diff "$tmp/render" "$tmp/screen" | head -n 10; fi
}

# --- DAG view (UTF-8, colour) -------------------------------------------------------
start 80 24 "$UTF" "$ST"
wait_for "?:help" >/dev/null
keys : 'view dag' Enter
golden verdicts-dag-open "region 1 (8 ranks) win 22/23"
same_as_render dag-render-same "$ST" dag
check dag-hints "Enter:fold"
# the windows cover the application span (docs/span.md): the DAG opens on region 0's
# window 17, where rank 1 has no message; rank 2 sends at L0 and receives at L1
keys j j
check dag-down "rank 2 on quartz1: L0"
check dag-cursor-shared "dag | rank 2/31"
keys l
check dag-right "rank 2 on quartz1: L1"
keys Enter
check dag-unfold "rank 2 unfolded"
check dag-unfold-lines "L1  recv 6 from"
keys Enter
check dag-fold "rank 2 folded"
keys ']' ']' ']' ']' ']' ']'
check dag-window-22 "win 22/23"
keys ']'
check dag-last-window "no later window"
keys '['
check dag-prev-window "window 21/23"
keys r
check dag-region "region 1 (8 ranks)"   # r: the next region (the DAG opens on region 0)
keys '?'
check dag-help "Keys in the dag view"
keys Escape
keys BTab
check dag-shift-tab "calls |"
keys q y   # y: q asks after a jump
restored dag-quit 0

# --- verdict view: imbalance evidence jumps to the blamed rank and step ------------------
start 80 24 "$UTF" "$GEN/traces.otf2"
wait_for "?:help" >/dev/null
keys : 'view verdicts' Enter
golden verdicts-open "Verdicts for the run"
same_as_render verdicts-render-same "$GEN" verdicts
check verdicts-line "imbalance"
keys G
check verdicts-last "step 125 at"
keys Enter
check verdicts-jump-step "logical | rank 5/15 | step 125/250"
keys : 'view verdicts' Enter
keys g
i=0
while [ $i -lt 30 ] && ! screen | grep -qF "> intra    "; do keys j; sleep 0.05; i=$((i + 1)); done
check verdicts-strip "> intra    "
keys l Enter
check verdicts-jump-window "physical |"
keys : 'view verdicts' Enter
keys r
check verdicts-scope "Verdicts for region 0"
keys r
check verdicts-scope-run "scope: the run"
keys '?'
check verdicts-help "Keys in the verdicts view"
keys Escape q y   # y: q asks after a jump
restored verdicts-quit 0

# --- LANG=C and NO_COLOR ----------------------------------------------------------------
start 80 24 "TERM=xterm-256color LANG=C LC_ALL=C NO_COLOR=1" "$GEN/traces.otf2"
wait_for "?:help" >/dev/null
keys : 'view dag' Enter
golden verdicts-dag-ascii "region 0 (16 ranks)"
if screen | LC_ALL=C grep -q '[^ -~]'; then echo "not ok dag-ascii-only: non-ASCII bytes on screen"; else echo "ok dag-ascii-only"; fi
if $T capture-pane -p -e -t m | grep -qE '\[(3[0-7]|38|4[0-7]|48|9[0-7]|10[0-7])[;m]'; then
	echo "not ok dag-no-color: colour escapes with NO_COLOR"; else echo "ok dag-no-color"; fi
keys j j j j j Enter
check dag-ascii-fold "rank 5 unfolded"
keys : 'view verdicts' Enter
golden verdicts-ascii "Verdicts for the run"
if screen | LC_ALL=C grep -q '[^ -~]'; then echo "not ok verdicts-ascii-only: non-ASCII bytes on screen"; else echo "ok verdicts-ascii-only"; fi
keys G Enter
check verdicts-ascii-jump "logical | rank 5/15 | step 125/250"
keys q y   # y: q asks after a jump
restored quit-ascii 0

# --- a small terminal: the views say they do not fit -----------------------------------------
start 30 6 "$UTF" "$ST"
wait_for "?:help" >/dev/null
keys : 'view dag' Enter
check dag-too-small "terminal too small"
keys : 'view verdicts' Enter
check verdicts-too-small "need 40x7"
$T resize-window -t m -x 80 -y 24
check verdicts-resize-back "Verdicts for the run"
keys q y   # y: q asks after a jump
restored quit-small 0
