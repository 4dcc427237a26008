#!/bin/sh
# Issue 14 ("the TUI a newcomer trusts") in the real binary, one case per item:
# the title's N/M convention and "init", Home, the key bar at 80 columns, the
# logical view spread over the whole area, one cursor across views, the jump
# history (Esc, Backspace, q asks), n/N by step with "match i of N", :write /
# :csv (no overwrite without !, never into the trace directory), marks that
# persist, the physical view on the application span with its legend.
# A private tmux server (tests/support/tmux.sh), killed at the end.
NAME=tui-newcomer
. "$(dirname "$0")/../support/tmux.sh"
LS=$TRACES/casita-late-sender-barrier-4p
S64=$TRACES/tracer-stencil4d-64p
first() { screen | head -n 1; }
last() { screen | tail -n 1; }
is() {   # is NAME ACTUAL EXPECTED
	if [ "$2" = "$3" ]; then echo "ok $1"; else echo "not ok $1: got '$2', want '$3'"; fi
}
export XDG_STATE_HOME="$tmp/state"

# --- title: index/last for ranks and steps, no "step -1", Home is step 0 ----------------
start 80 24 "$UTF" "$S64"
wait_for "?:help" >/dev/null
check title-convention "rank 0/63 | step 0/40"
keys h
check title-init "step init/40"
check_not title-no-minus-one "step -1"
# End and Home as xterm sends them (TERM is xterm-256color inside tmux here)
keys -l "$(printf '\033OF')"
check end-last-step "step 40/40"
keys -l "$(printf '\033OH')"
check home-step-0 "step 0/40"
# the key bar keeps ?, q, o and 8 at 80 columns
for k in "?:help" "q:quit" "o:origin" "8:verdicts"; do
	if last | grep -qF -- "$k"; then echo "ok keybar-$k"; else echo "not ok keybar-$k: $(last)"; fi
done
# 64 ranks in 18 rows (under the title, view strip and axis): every row used (3 or 4 ranks a
# row), not 16 rows of 4
rows=$(screen | sed -n '4,21p' | grep -c '^ *[0-9][0-9]* [^ ]')
is logical-rows-filled "$rows" 18
# 42 x units over 77 columns: the last column is drawn (stretched at any ratio)
w=$(screen | sed -n 4p | sed 's/ *$//' | LC_ALL=C.UTF-8 wc -m)
is logical-cols-filled "$w" 81

# --- one cursor: o, then physical and back keep the step ---------------------------------
keys o
check origin "origin 1/"
step=$(first | sed -n 's/.*| step \([^/|]*\)\/.*/\1/p')
rk=$(first | sed -n 's/.*| rank \([0-9]*\)\/.*/\1/p')
keys 2
check physical-same-step "physical | rank $rk/63 | step $step/"
keys 1
check logical-same-step "logical | rank $rk/63 | step $step/"
# Esc returns to where the jump came from
keys Escape
check esc-back "back to logical, rank 0 step 0"
# after a jump, q asks first
keys o q
check q-asks "quit? y: quit"
keys Escape
check q-esc-back "back to logical"
keys BSpace
check_not backspace-nothing-left "EXIT="
keys q
restored q-quits-without-jumps 0

# --- search: n/N by step, "match i of N" ---------------------------------------------------
start 100 24 "$UTF" "$TRACES/tracer-stencil4d-32p"
wait_for "?:help" >/dev/null
keys / MPI_Barrier Enter
check search-match "match 1 of 3"
keys n
check search-next-step "step 38: match 2 of 3"
keys n
check search-next-step-2 "step 40: match 3 of 3"
keys N
check search-prev-step "step 38: match 2 of 3"
keys Escape
check search-esc-back "back to logical, rank 18 step 40"

# --- export: :write, :csv, no overwrite without !, not into the trace directory -----------
keys 7
wait_for "profile |" >/dev/null
keys : "csv $tmp/p.csv" Enter
check csv-written "wrote the profile table to $tmp/p.csv"
if head -n 1 "$tmp/p.csv" | grep -q '^region,calls,exclusive_s,percent,inclusive_s,imbalance,slowest_rank,slowest_exclusive_s$' &&
	grep -q '^"MPI_Barrier",' "$tmp/p.csv"; then echo "ok csv-content"; else echo "not ok csv-content"; head -n 3 "$tmp/p.csv"; fi
keys : "csv $tmp/p.csv" Enter
check csv-no-overwrite "exists (add ! to overwrite)"
keys : "csv! $tmp/p.csv" Enter
check csv-force "wrote the profile table"
keys : "write $TRACES/tracer-stencil4d-32p/view.txt" Enter
check write-not-trace-dir "not written: tracecomb never writes into the trace directory"
[ -e "$TRACES/tracer-stencil4d-32p/view.txt" ] && echo "not ok write-not-trace-dir-file" || echo "ok write-not-trace-dir-file"
keys 1 : "write $tmp/v.txt" Enter
check write-written "wrote the logical view to $tmp/v.txt"
"$BIN" render "$TRACES/tracer-stencil4d-32p" --view logical --size 100x24 --step 40 --rank 18 --search MPI_Barrier >"$tmp/r.txt" 2>/dev/null
if sed -n '2,22p' "$tmp/v.txt" | cmp -s - "$(sed -n '2,22p' "$tmp/r.txt" >"$tmp/r2.txt"; echo "$tmp/r2.txt")"; then echo "ok write-is-render"
else echo "not ok write-is-render"; diff "$tmp/v.txt" "$tmp/r.txt" | head -n 8; fi
keys 6
wait_for "waitstates |" >/dev/null
keys : "csv $tmp/w.csv" Enter
check csv-waitstates "wrote the waitstates table"
head -n 1 "$tmp/w.csv" | grep -q '^section,item,seconds,percent$' && echo "ok csv-waitstates-header" || echo "not ok csv-waitstates-header"
keys 3 : "csv $tmp/o.csv" Enter
check csv-no-table "the overview view has no table"

# --- marks: M + letter saves, ' + letter returns, kept across runs ----------------------
keys 1 : "step 12" Enter : "rank 7" Enter M a
check mark-set "mark a: logical, rank 7 step 12"
keys g Home "'" a
check mark-go "mark a: logical, rank 7 step 12"
keys q y
restored mark-quit 0
start 100 24 "$UTF" "$TRACES/tracer-stencil4d-32p"
wait_for "?:help" >/dev/null
keys "'" a
check mark-persists "rank 7/31 | step 12/40"
keys "'" b
check mark-unset "no mark b"
ls "$XDG_STATE_HOME/tracecomb/" | grep -q '^marks-' && echo "ok mark-file" || echo "not ok mark-file"
keys Q

# --- the physical view opens on the application span, with a legend ----------------------
start 80 24 "$UTF" "$TRACES/tracer-stencil4d-32p"
wait_for "?:help" >/dev/null
keys 2
check physical-legend "compute"
check physical-legend-mpi "MPI"
# the axis starts at the end of MPI_Init (1.549 s), not at the start of the trace
check physical-app-span "t  1.549"
keys q
restored physical-quit 0

# --- overview: unit stated ------------------------------------------------------------------
"$BIN" render "$LS" --view overview --size 80x12 >"$tmp/o.txt" 2>&1
grep -q "mean over 4 ranks (s per rank)" "$tmp/o.txt" && echo "ok overview-unit" || { echo "not ok overview-unit"; head -n 3 "$tmp/o.txt"; }
"$BIN" render "$TRACES/tracer-stencil4d-32p" --view overview --size 80x12 --filter quartz2 >"$tmp/o.txt" 2>&1
grep -q "mean over the 16 ranks" "$tmp/o.txt" && echo "ok overview-filter" || { echo "not ok overview-filter"; head -n 3 "$tmp/o.txt"; }

# --- a slow view computes off the UI thread: "computing …", keys still answer ------------------
GEN=${GEN:-$(dirname "$BIN")/build/bench/gen}
[ -x "$GEN" ] || GEN=$(dirname "$BIN")/bench/gen
if [ -x "$GEN" ] && "$GEN" -o "$tmp/big" --ranks 1024 --iters 200 >/dev/null 2>&1; then
	WAIT_S=60 start 100 24 "$UTF" "$tmp/big"
	WAIT_S=60 wait_for "?:help" >/dev/null
	keys 8
	check slow-computing "computing verdicts"
	check slow-q-cancels "q cancels"
	keys 1
	check slow-keys-answer "logical | rank 0/1023"
	keys 8
	WAIT_S=60 check slow-done "Verdicts for the run"
	keys Q
	restored slow-quit 0
	rm -rf "$tmp/big"
else echo "skip slow-computing: no trace generator (bench/gen)"; fi

# --- the detail pane: p jumps to the message partner, Esc comes back ---------------------------
start 100 30 "$UTF" "$LS"
wait_for "?:help" >/dev/null
keys Enter
check detail-partner-hint "p:partner"
keys p
check detail-partner "partner 1 of 1: rank 1 step 2"
check detail-partner-title "detail | rank 1/3 | step 2/12"
keys Escape Escape
check detail-partner-back "back to logical, rank 0 step 0"
keys q
restored detail-quit 0

# --- p on a collective walks its peers; the filter moving the rank moves the time -------
start 120 30 "$UTF" "$LS"
wait_for "?:help" >/dev/null
keys / MPI_Barrier Enter
check coll-search "MPI_Barrier on rank 1, step 12"
keys p
check coll-peer-1 "partner 1 of 3: rank 0 step 12"
keys p
check coll-peer-2 "partner 2 of 3: rank 2 step 12"
keys p
check coll-peer-3 "partner 3 of 3: rank 3 step 12"
# rank 0 at step 11 is at 10.24 s; the filter keeps ranks 2 and 3: rank 2's event at
# step 11 is at 12.26 s (render --rank 2 --step 11 says so), and the physical view agrees
keys Escape Escape Escape Escape
keys : "step 11" Enter
keys : "rank 0" Enter
check filter-time-before "rank 0/3 | step 11/12 | 10.24 s"
keys f "^[23]$" Enter
check filter-time-follows "rank 2/3 | step 11/12 | 12.26 s"
keys 2
check filter-time-physical "physical | rank 2/3 | step 11/12 | 12.26 s"
