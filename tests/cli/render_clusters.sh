#!/bin/sh
# `tracecomb render --view clusters` on every shared trace at three sizes and
# at steps spread over each trace (every phase it lands in draws), without
# errors; the same call twice gives the same bytes.  (The goldens are in
# tests/golden/render-cases.txt, checked by render.sh.)
NAME=render-clusters
. tests/support/render.sh
tmp=$(mktemp)
for d in "$TRACES"/*/; do
	tr=$(basename "$d")
	okall=1
	for sz in 80x24 40x8 20x6 200x60; do
		"$BIN" render "$d" --view clusters --size $sz >"$tmp" 2>&1 || { okall=0; echo "  $sz: $(head -c 200 "$tmp")"; }
	done
	max=$("$BIN" render "$d" --view clusters --size 80x24 --step 999999999 | sed -n '1s/.*step \([0-9]*\)\/\([0-9]*\).*/\2/p')
	max=${max:-0}
	for k in 0 1 2 3 4 5 6 7 8 9 10; do
		st=$((max * k / 10))
		"$BIN" render "$d" --view clusters --size 100x30 --step $st --ascii >"$tmp" 2>&1 || { okall=0; echo "  step $st: $(head -c 200 "$tmp")"; }
		grep -q "step $st/" "$tmp" || grep -q "no communication events" "$tmp" || { okall=0; echo "  step $st: not shown"; }
	done
	[ $okall = 1 ] && echo "ok render-clusters-$tr" || echo "not ok render-clusters-$tr"
done
a=$("$BIN" render "$TRACES/sstmacro-mpi-coverage-10p" --view clusters --size 120x40 --step 301 --color | cksum)
b=$("$BIN" render "$TRACES/sstmacro-mpi-coverage-10p" --view clusters --size 120x40 --step 301 --color | cksum)
[ "$a" = "$b" ] && echo "ok render-clusters-deterministic" || echo "not ok render-clusters-deterministic"
out=$("$BIN" render "$TRACES/sstmacro-mpi-coverage-10p" --view nope --size 80x24 2>&1)
case "$out" in *"clusters"*) echo "ok render-clusters-listed";; *) echo "not ok render-clusters-listed: $out";; esac
# the axis never says step -1: the block before step 0 is "init" (issue 14)
"$BIN" render "$TRACES/tracer-stencil4d-64p" --view clusters --size 100x20 --step 0 >"$tmp" 2>&1
if grep 'dendrogram' "$tmp" | grep -q -- '-1' || ! grep 'dendrogram' "$tmp" | grep -q 'init'; then
	echo "not ok render-clusters-axis-init"; grep dendrogram "$tmp"
else echo "ok render-clusters-axis-init"; fi
# a one-step phase does not leave the pane blank (issue 14): the columns around it
# show the neighbouring steps (focus rows: their events; bands: the medoid's, grey)
"$BIN" render "$TRACES/tracer-stencil4d-32p" --view clusters --size 100x24 --step 38 --ascii >"$tmp" 2>&1
n=$(sed -n 's/.*|#1 //p' "$tmp" | head -n 1 | tr -d ' ' | wc -c)
if [ "${n:-0}" -gt 40 ]; then echo "ok render-clusters-neighbours"
else echo "not ok render-clusters-neighbours: $n glyphs in band #1"; grep '|#1' "$tmp"; fi
# a trace narrower than the pane stretches its steps over the whole width
"$BIN" render "$TRACES/casita-late-sender-barrier-4p" --view clusters --size 80x24 --step 12 --rank 3 --ascii >"$tmp" 2>&1
w=$(sed -n 4p "$tmp" | sed 's/ *$//' | wc -c)
if [ "${w:-0}" -ge 78 ]; then echo "ok render-clusters-stretch"
else echo "not ok render-clusters-stretch: the focus row ends at column $w"; sed -n 4p "$tmp"; fi
rm -f "$tmp"
