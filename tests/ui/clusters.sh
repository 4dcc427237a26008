#!/bin/sh
# The cluster view in the real binary, in a private tmux server: open it with
# its number key, move across phases, close and open dendrogram nodes, select
# a cluster and see the selection in the logical view, Esc, a small terminal,
# LANG=C.  Screens against tests/golden/tui/clusters*.txt (UPDATE=1 rewrites
# them; tests/golden/update.sh does that) or markers.
NAME=clusters-tui
. "$(dirname "$0")/../support/tmux.sh"
# the view's number key: its place among the views --help lists (the registry's order)
K=$("$BIN" --help 2>&1 | sed -n 's/^VIEW is one of \(.*\)\./\1/p' | tr ',' '\n' | sed 's/ //g' | grep -n '^clusters$' | cut -d: -f1)
K=${K:-9}

# --- UTF-8, colour, 80x24 ----------------------------------------------------------
start 80 24 "$UTF" "$ST"
wait_for "?:help" >/dev/null
keys $K
golden clusters "phase 0/5"
check clusters-open "clusters | rank 0/31"
# render draws the same screen (but for the legend's colour map: shade glyphs without colour)
screen | sed 's/ *$//' | sed '23d' >"$tmp/tui"
"$BIN" render "$ST" --view clusters --size 80x24 | sed 's/ *$//' | sed '23d' >"$tmp/render"
if cmp -s "$tmp/tui" "$tmp/render"; then echo "ok clusters-render-matches"
else echo "not ok clusters-render-matches"; diff "$tmp/tui" "$tmp/render" | head -n 10; fi
check clusters-exchange "exchange_waitall"
keys l l
check clusters-move "step 2/40"
# phase 1 (step 18): ranks 0 and 16 leave the allreduce 0.3 us (RMS) later than the
# others in a 394 us phase: under the least separation (0.1 %), one cluster (issue 14)
keys : 'step 18' Enter
check clusters-phase-noise "phase 1/5 steps 18-18 | no exchange | lateness | 1 cluster |"
# phase 3 (step 38): even and odd ranks 4.7 us apart in 176 us: two clusters
keys : 'step 38' Enter
check clusters-phase "phase 3/5 steps 38-38"
check clusters-cut "2 clusters"
keys g Enter
check clusters-close "1 cluster |"
keys Enter
check clusters-reopen "2 clusters |"
keys j
check clusters-select "#1 16 ranks: 0,2,…"   # the list cut with an ellipsis at 80 columns
check clusters-sel-title "| sel 16"
keys -
check clusters-level-close "1 cluster |"
keys +
check clusters-level-open "2 clusters |"
keys c
check clusters-refocus "focus: "
keys 1
check clusters-logical "logical | rank 0/31"
check clusters-logical-sel "| sel 16"
# the selected ranks' labels are drawn in the selection role (#5f5faf: xterm-256 colour 61)
sleep 0.2
if $T capture-pane -p -e -t m | grep -q '48;5;61m'; then echo "ok clusters-logical-highlight"
else echo "not ok clusters-logical-highlight: no selection colour"; fi
keys Escape
check clusters-esc "rank selection cleared"
check_not clusters-esc-title "| sel 16"
keys $K '?'
check clusters-help "Keys in the clusters view"
keys q y   # y: q asks after a jump
check clusters-help-back "clusters | rank"
keys m
check clusters-metric "metric: global_lateness"
$T resize-window -t m -x 30 -y 6
check clusters-too-small "terminal too small"
$T resize-window -t m -x 80 -y 24
check clusters-resize-back "dendrogram"
keys q y   # y: q asks after a jump
restored clusters-quit 0

# --- LANG=C: ASCII only --------------------------------------------------------------
start 80 24 "TERM=xterm-256color LANG=C LC_ALL=C" "$ST"
wait_for "?:help" >/dev/null
keys $K
golden clusters-ascii "phase 0/5"
if screen | LC_ALL=C grep -q '[^ -~]'; then echo "not ok clusters-ascii-only: non-ASCII bytes on screen"; else echo "ok clusters-ascii-only"; fi
keys : 'step 38' Enter
# a phase not clustered yet is clustered in the worker ("computing clusters of phase 3");
# keys typed meanwhile go to the computing screen, so wait for it
check clusters-ascii-phase "phase 3/5 steps 38-38"
keys j
check clusters-ascii-select "| sel 16"
keys Tab
check clusters-ascii-tab "calls | rank"
keys q y   # y: q asks after a jump
restored clusters-ascii-quit 0
