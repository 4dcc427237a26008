#!/bin/sh
# `tracecomb render` against golden files (tests/golden/render/*.txt; cases in
# tests/golden/render-cases.txt; regenerate with tests/golden/update.sh), then
# every view of every shared trace must render without error.
NAME=render
. tests/support/render.sh
tmp=$(mktemp)
grep -v '^#' $G/render-cases.txt | while IFS='|' read -r name trace opts; do
	[ -n "$name" ] || continue
	if [ ! -d "$TRACES/$trace" ]; then echo "skip render-$name: no $trace"; continue; fi
	# shellcheck disable=SC2086
	"$BIN" render "$TRACES/$trace" $opts >"$tmp" 2>/dev/null
	if cmp -s "$tmp" "$G/render/$name.txt"; then echo "ok render-$name"
	else echo "not ok render-$name"; diff "$G/render/$name.txt" "$tmp" | head -n 10; fi
done
# the same call twice gives the same bytes
"$BIN" render "$TRACES/tracer-stencil4d-64p" --view logical --size 120x40 --color >"$tmp" 2>&1
if "$BIN" render "$TRACES/tracer-stencil4d-64p" --view logical --size 120x40 --color | cmp -s - "$tmp"
then echo "ok render-deterministic"; else echo "not ok render-deterministic"; fi
for d in "$TRACES"/*/; do
	tr=$(basename "$d")
	okall=1
	for v in logical physical overview detail; do
		for sz in 80x24 20x6 200x60; do
			"$BIN" render "$d" --view $v --size $sz >/dev/null 2>"$tmp" || { okall=0; echo "  $v $sz: $(head -c 200 "$tmp")"; }
		done
	done
	[ $okall = 1 ] && echo "ok render-all-views-$tr" || echo "not ok render-all-views-$tr"
done
# bad input: one clear line, exit code, nothing else
out=$("$BIN" render "$TRACES/pipit-ping-pong-2p" --view nope --size 80x24 2>&1); rc=$?
case "$out" in "tracecomb render: unknown view 'nope'"*) [ $rc = 1 ] && echo "ok render-bad-view" || echo "not ok render-bad-view";; *) echo "not ok render-bad-view: $out";; esac
out=$("$BIN" render "$TRACES/pipit-ping-pong-2p" --filter 'MPI_(Send' --size 80x24 2>&1); rc=$?
case "$out" in *"regex error at offset 9: missing closing parenthesis"*"^"*) [ $rc = 1 ] && echo "ok render-bad-regex" || echo "not ok render-bad-regex";; *) echo "not ok render-bad-regex: $out";; esac
printf 'name: x\ncolors:\n  cursor: { fg: "#12345" }\n' >"$tmp.yaml"
out=$("$BIN" render "$TRACES/pipit-ping-pong-2p" --theme "$tmp.yaml" --size 80x24 --color 2>&1 >/dev/null); rc=$?
case "$out" in *"$tmp.yaml:3:17: bad colour '#12345'"*"using the built-in theme") [ $rc = 0 ] && echo "ok render-bad-theme" || echo "not ok render-bad-theme";; *) echo "not ok render-bad-theme: $out";; esac
out=$("$BIN" render /nonexistent --size 80x24 2>&1); rc=$?
[ $rc = 2 ] && echo "ok render-missing-trace" || echo "not ok render-missing-trace: $rc $out"
rm -f "$tmp" "$tmp.yaml"
