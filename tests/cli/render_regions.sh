#!/bin/sh
# `tracecomb render --view regions|evolution` against golden files
# (tests/golden/render/*.txt, cases in tests/golden/render-regions-cases.txt;
# UPDATE=1 rewrites them, tests/golden/update.sh does that), the same bytes
# twice, and both views of every shared trace at three sizes without error.
NAME=render-regions
. tests/support/render.sh
tmp=$(mktemp)
grep -v '^#' $G/render-regions-cases.txt | while IFS='|' read -r name trace opts; do
	[ -n "$name" ] || continue
	if [ ! -d "$TRACES/$trace" ]; then echo "skip render-$name: no $trace"; continue; fi
	# shellcheck disable=SC2086
	"$BIN" render "$TRACES/$trace" $opts >"$tmp" 2>/dev/null
	if [ -n "$UPDATE" ]; then cp "$tmp" "$G/render/$name.txt"; echo "ok render-$name (updated)"; continue; fi
	if cmp -s "$tmp" "$G/render/$name.txt"; then echo "ok render-$name"
	else echo "not ok render-$name"; diff "$G/render/$name.txt" "$tmp" | head -n 10; fi
done
# the same call twice gives the same bytes (colours included)
for v in regions evolution; do
	"$BIN" render "$TRACES/tracer-stencil4d-64p" --view $v --size 120x40 --color >"$tmp" 2>&1
	if "$BIN" render "$TRACES/tracer-stencil4d-64p" --view $v --size 120x40 --color | cmp -s - "$tmp"
	then echo "ok render-$v-deterministic"; else echo "not ok render-$v-deterministic"; fi
done
# ASCII output is 7-bit
if "$BIN" render "$TRACES/sstmacro-mpi-coverage-10p" --view evolution --size 80x24 --ascii | LC_ALL=C grep -q '[^ -~]'
then echo "not ok render-evolution-ascii-only"; else echo "ok render-evolution-ascii-only"; fi
for d in "$TRACES"/*/; do
	tr=$(basename "$d")
	okall=1
	for v in regions evolution; do
		for sz in 80x24 20x6 200x60; do
			"$BIN" render "$d" --view $v --size $sz >/dev/null 2>"$tmp" || { okall=0; echo "  $v $sz: $(head -c 200 "$tmp")"; }
		done
	done
	[ $okall = 1 ] && echo "ok render-latency-views-$tr" || echo "not ok render-latency-views-$tr"
done
# no growth arrow over a flat series (issue 14): under every strip, a run of ↗ covers
# bars that are not all the same height
flat=""
for d in "$TRACES"/*/; do
	"$BIN" render "$d" --view evolution --size 120x36 >"$tmp" 2>&1
	python3 - "$tmp" <<'PY' || flat="$flat $(basename "$d")"
import sys
L = open(sys.argv[1], encoding="utf-8").read().split("\n")
bad = False
for bars, marks in zip(L, L[1:]):
    runs, cur = [], []
    for i, ch in enumerate(marks):
        if ch == "\u2197": cur.append(i)
        elif cur: runs.append(cur); cur = []
    if cur: runs.append(cur)
    for r in runs:
        hs = {bars[i] for i in r if i < len(bars)}
        if len(hs) <= 1 and not marks.lstrip().startswith(("\u2197growth",)) and "growth" not in marks:
            bad = True
sys.exit(1 if bad else 0)
PY
done
[ -z "$flat" ] && echo "ok render-evolution-no-flat-growth" || echo "not ok render-evolution-no-flat-growth:$flat"
rm -f "$tmp"
