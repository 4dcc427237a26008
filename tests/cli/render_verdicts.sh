#!/bin/sh
# `tracecomb render --view dag|verdicts` against golden files
# (tests/golden/render/*.txt, cases in tests/golden/render-verdicts-cases.txt;
# UPDATE=1 rewrites them, tests/golden/update.sh does that) on two shared
# traces and one generated here (16 ranks on 4 nodes round robin, 60
# iterations, rank 5 delayed once); then: both views of every shared trace
# render at three sizes, a small terminal says the view does not fit, and the
# same call gives the same bytes.
BUILD=${BUILD:-build}
NAME=render-verdicts
. tests/support/render.sh
if [ ! -x "$BUILD/bench/gen" ]; then echo "skip render-verdicts: no $BUILD/bench/gen"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
GEN=$tmp/gen-16r-60i
if "$BUILD/bench/gen" -o "$GEN" --ranks 16 --ranks-per-node 4 --iters 60 --mapping roundrobin --delay 5:30:0.002 \
	>/dev/null 2>&1; then echo "ok render-verdicts-gen"; else echo "not ok render-verdicts-gen"; exit 1; fi
grep -v '^#' $G/render-verdicts-cases.txt | while IFS='|' read -r name trace opts; do
	[ -n "$name" ] || continue
	if [ "$trace" = @gen ]; then dir=$GEN
	elif [ -d "$TRACES/$trace" ]; then dir=$TRACES/$trace
	else echo "skip render-$name: no $trace"; continue; fi
	# shellcheck disable=SC2086
	"$BIN" render "$dir" $opts >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 0 ]; then echo "not ok render-$name: exit $rc $(head -c 200 "$tmp/err")"; continue; fi
	if [ -n "$UPDATE" ]; then cp "$tmp/out" "$G/render/$name.txt"; echo "ok render-$name (updated)"; continue; fi
	if cmp -s "$tmp/out" "$G/render/$name.txt"; then echo "ok render-$name"
	else echo "not ok render-$name"; diff "$G/render/$name.txt" "$tmp/out" | head -n 10; fi
done
# a terminal too small for the view: it says so
for v in dag verdicts; do
	out=$("$BIN" render "$TRACES/tracer-stencil4d-32p" --view $v --size 30x5 2>&1)
	case "$out" in "area too small"*"need 40x7"*) echo "ok render-$v-too-small";; *) echo "not ok render-$v-too-small: $out";; esac
done
# the same call twice gives the same bytes (colour output too)
for v in dag verdicts; do
	"$BIN" render "$GEN" --view $v --size 120x40 --color >"$tmp/a" 2>&1
	"$BIN" render "$GEN" --view $v --size 120x40 --color >"$tmp/b" 2>&1
	if cmp -s "$tmp/a" "$tmp/b"; then echo "ok render-$v-deterministic"; else echo "not ok render-$v-deterministic"; fi
done
# both views of every shared trace, three sizes, ASCII too
for d in "$TRACES"/*/; do
	tr=$(basename "$d")
	okall=1
	for v in dag verdicts; do
		for sz in 80x24 20x6 200x60; do
			"$BIN" render "$d" --view $v --size $sz >/dev/null 2>"$tmp/err" || { okall=0; echo "  $v $sz: $(head -c 200 "$tmp/err")"; }
		done
		"$BIN" render "$d" --view $v --size 100x30 --ascii >"$tmp/out" 2>"$tmp/err" || okall=0
		if LC_ALL=C grep -q '[^ -~]' "$tmp/out"; then okall=0; echo "  $v --ascii: non-ASCII output"; fi
	done
	[ $okall = 1 ] && echo "ok render-verdicts-views-$tr" || echo "not ok render-verdicts-views-$tr"
done
