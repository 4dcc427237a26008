#!/bin/sh
# Long work is never silent and never freezes the keys (issue 14): `o` (the
# origins) and `c` in the physical view (the critical path) need the root
# causes, seconds of work on a big trace.  They are computed off the UI
# thread: the status line says so at once, the cursor keys still move, and
# the first origin follows by itself when they are there.  A generated trace
# of ~9 M events (256 ranks x 1000 iterations, rank 77 delayed 50 ms at
# iteration 500) makes the work long enough to be seen.
# A private tmux server (tests/support/tmux.sh), killed at the end.
NAME=tui-offthread
. "$(dirname "$0")/../support/tmux.sh"
GEN=${BUILD:-build}/bench/gen
[ -x "$GEN" ] || { echo "skip tui-offthread: no $GEN"; exit 0; }
BIG=$tmp/big
"$GEN" -o "$BIG" --ranks 256 --iters 1000 --delay 77:500:0.05 >/dev/null 2>&1 || { echo "not ok offthread-gen"; exit 0; }
title() { screen | head -n 1; }

start 120 30 "$UTF" "$BIG"
WAIT_S=60 wait_for "?:help" >/dev/null
keys o
check origin-computing-said "computing the root causes"
before=$(title)
keys j
WAIT_S=2 wait_for "rank 1/255" >/dev/null
after=$(title)
if [ "$before" != "$after" ]; then echo "ok origin-keys-answer-meanwhile"
else echo "not ok origin-keys-answer-meanwhile: the title stayed '$before' after j"; fi
WAIT_S=60 check origin-follows "origin 1/"
check origin-on-delayed-rank "rank 77 step"

start 120 30 "$UTF" "$BIG"
WAIT_S=60 wait_for "?:help" >/dev/null
keys 2
wait_for "physical |" >/dev/null
keys c
check path-computing-said "computing the critical path"
keys c
check path-off "critical path off"

# o from the verdicts view: the origin is shown in the logical view; Esc returns
start 120 30 "$UTF" "$BIG"
WAIT_S=60 wait_for "?:help" >/dev/null
keys 8
WAIT_S=60 wait_for "Verdicts for the run" >/dev/null
keys o
check verdicts-o-shows-logical " logical | rank 77/255"
check verdicts-o-origin "origin 1/"
keys Escape
check verdicts-o-esc-back " verdicts | "
