#!/bin/sh
# `tracecomb render` for the wait states, profile and calls views: goldens
# (tests/golden/render/*.txt, cases in tests/golden/render-extra-cases.txt;
# regenerate with tests/golden/update.sh), the same bytes twice, every shared
# trace at three sizes without error, and "too small" below the minimum.
NAME=render-extra
. tests/support/render.sh
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.2"' EXIT
grep -v '^#' $G/render-extra-cases.txt | while IFS='|' read -r name trace opts; do
	[ -n "$name" ] || continue
	if [ ! -d "$TRACES/$trace" ]; then echo "skip render-$name: no $trace"; continue; fi
	# shellcheck disable=SC2086
	"$BIN" render "$TRACES/$trace" $opts >"$tmp" 2>/dev/null
	if cmp -s "$tmp" "$G/render/$name.txt"; then echo "ok render-$name"
	else echo "not ok render-$name"; diff "$G/render/$name.txt" "$tmp" | head -n 10; fi
done
for v in waitstates profile calls; do
	"$BIN" render "$TRACES/tracer-stencil4d-64p" --view $v --size 120x40 --color >"$tmp" 2>&1
	"$BIN" render "$TRACES/tracer-stencil4d-64p" --view $v --size 120x40 --color >"$tmp.2" 2>&1
	if cmp -s "$tmp" "$tmp.2"; then echo "ok render-deterministic-$v"; else echo "not ok render-deterministic-$v"; fi
	# below the view's minimum: says so, draws nothing else
	"$BIN" render "$TRACES/casita-late-sender-barrier-4p" --view $v --size 20x6 >"$tmp" 2>&1
	if grep -q '^area too small' "$tmp" && grep -q 'need ' "$tmp"; then echo "ok render-too-small-$v"
	else echo "not ok render-too-small-$v"; head -n 3 "$tmp"; fi
	# ASCII output has only ASCII bytes
	"$BIN" render "$TRACES/tracer-stencil4d-32p" --view $v --size 100x30 --ascii >"$tmp" 2>&1
	if LC_ALL=C grep -q '[^ -~]' "$tmp"; then echo "not ok render-ascii-$v"; else echo "ok render-ascii-$v"; fi
done
for d in "$TRACES"/*/; do
	tr=$(basename "$d")
	okall=1
	for v in waitstates profile calls; do
		for sz in 80x24 20x6 200x60 40x10; do
			"$BIN" render "$d" --view $v --size $sz >/dev/null 2>"$tmp" || { okall=0; echo "  $v $sz: $(head -c 200 "$tmp")"; }
		done
	done
	[ $okall = 1 ] && echo "ok render-extra-views-$tr" || echo "not ok render-extra-views-$tr"
done
# the views are named in the usage of a bad --view
out=$("$BIN" render "$TRACES/pipit-ping-pong-2p" --view nope --size 80x24 2>&1)
case "$out" in *waitstates*profile*calls*) echo "ok render-extra-names";; *) echo "not ok render-extra-names: $out";; esac
