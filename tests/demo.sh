#!/bin/sh
# Opens the TUI on a generated demo trace: halo2d, 64 ranks on 4 nodes with
# round-robin mapping (x-neighbours sit on different nodes), 300 iterations,
# MPI_Allreduce every 10, and one planted delay: rank 21 computes 20 ms longer
# at iteration 150.  Usage: tests/demo.sh BUILD BIN
BUILD=${1:-build}
BIN=${2:-./tracecomb}
case "$BIN" in */*) ;; *) BIN=./$BIN ;; esac   # make passes "tracecomb": not a PATH lookup
demo=$BUILD/demo
if [ ! -f "$demo/traces.otf2" ]; then
	"$BUILD/bench/gen" -o "$demo" --force --ranks 64 --iters 300 --ranks-per-node 16 \
		--mapping roundrobin --allreduce-every 10 --delay 21:150:0.02 || exit 1
fi
exec "$BIN" "$demo/traces.otf2"
