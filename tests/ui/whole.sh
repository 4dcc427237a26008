#!/bin/sh
# Issue 15 in the real binary, in a private tmux server: the physical view
# opens a hybrid rank into its OpenMP threads and CUDA stream (e, E), the
# cursor walks onto a thread row and the event line names it; # picks the
# PAPI counter of the ping-pong trace and draws its strip, Enter shows its
# value and rate in the detail pane; the profile's per-rank table (t), per
# location (w), statistics (t) and sorting by a column (l, s); LANG=C draws
# the counter strip in 7-bit characters.
NAME=whole-tui
. "$(dirname "$0")/../support/tmux.sh"
HY=$TRACES/casita-jacobi-mpi-omp-cuda-cpu015-2p
PP=$TRACES/pipit-ping-pong-papi-2p
if [ ! -d "$HY" ] || [ ! -d "$PP" ]; then echo "skip whole-tui: no hybrid or PAPI trace in $TRACES"; exit 0; fi

# --- threads and streams as rows ------------------------------------------------------
start 120 36 "$UTF" "$HY"
wait_for "?:help" >/dev/null
keys 2
check whole-physical "physical | rank 0/1"
check whole-plus "+ 0 "
keys e
check whole-open "rank 0 opened: 3 threads, 1 stream (e: close)"
check whole-t3 " t3"
check whole-g0 " g0"
keys j
check whole-thread-row "rank 0 OMP thread 1 (t1):"
keys E
check whole-open-all "every rank opened: 6 threads, 2 streams as rows (E: close all)"
keys E
check whole-close-all "every rank closed"
check_not whole-closed-rows " t1"
keys '?'
check whole-help "e E              open / close the cursor rank into its threads and streams"
keys q
# --- the profile's per-rank x function table --------------------------------------------
keys 7
check whole-flat "Master threads only (t: every thread and stream)"
keys t
check whole-table "Per rank (its threads and streams summed)"
check whole-table-row "!\$omp for @jacobi_cuda.c:175"
keys m
check whole-inclusive "Per rank (its threads and streams summed): inclusive time"
keys m m
check whole-exclusive "Per rank (its threads and streams summed): exclusive time"
keys w
check whole-locations "Per location (each thread and stream)"
check whole-loc-col "0:g0"
keys t
check whole-stats "median"
keys l l l l s
check whole-sort "sorted by imbal, descending"
keys s
check whole-sort-rev "sorted by imbal, ascending"
keys t
check whole-back-flat "Master threads only"
keys q
restored whole-quit 0

# --- a counter ------------------------------------------------------------------------------
start 80 24 "$UTF" "$PP"
wait_for "?:help" >/dev/null
keys 2 '#'
check whole-counter "counter PAPI_TOT_CYC [#], accumulated: drawn as rate, 84 samples"
check whole-strip "PAPI_TOT_CYC rate [#/s]"
golden whole-counter "PAPI_TOT_CYC rate"
keys Enter
check whole-detail "Counter PAPI_TOT_CYC = "
keys q '#'
check whole-next "counter PAPI_L2_TCM"
keys '#' '#'
check whole-off "counter off"
check_not whole-off-strip "rate [#/s]"
keys q
restored whole-quit2 0

start 80 24 "TERM=xterm LANG=C LC_ALL=C" "$PP"
wait_for "?:help" >/dev/null
keys 2 '#'
check whole-ascii-strip "PAPI_TOT_CYC rate [#/s]"
ascii_only whole-ascii-only
keys q
restored whole-ascii-quit 0
