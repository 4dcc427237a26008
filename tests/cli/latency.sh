#!/bin/sh
# latency.sh — `tracecomb report --section regions|latency|evolution [--json]`
# on real traces: the JSON contract fields and the text tables.
# Prints "ok NAME" / "not ok NAME" per case.  Env: BIN (tracecomb), TRACES.
BIN=${BIN:-./tracecomb}
case $BIN in */*) ;; *) command -v "$BIN" >/dev/null 2>&1 || BIN=./$BIN ;; esac
TRACES=${TRACES:-/work/shared/traces}
[ -d "$TRACES" ] || TRACES=/work/shared/traces
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

check() { # name, then a command whose success means ok
	name=$1; shift
	if "$@" >/dev/null 2>&1; then echo "ok $name"; else echo "not ok $name"; fi
}

have_jq=no
command -v jq >/dev/null 2>&1 && have_jq=yes

for tr in tracer-stencil4d-64p sstmacro-mpi-coverage-10p pipit-ping-pong-2p; do
	p="$TRACES/$tr"
	if [ ! -d "$p" ]; then echo "skip $tr: no trace"; continue; fi
	if ! "$BIN" report "$p" --json --section regions,latency,evolution >"$out" 2>"$err"; then
		echo "not ok $tr json exit"; continue
	fi
	echo "ok $tr json exit"
	if [ $have_jq = yes ]; then
		check "$tr regions contract" jq -e '
			(.regions.regions | type == "array" and length > 0) and
			all(.regions.regions[]; (.id | type == "number") and (.ranks | type == "array" and length > 0)
			    and has("rl") and (.messages_inside | type == "number")
			    and (.messages_crossing | type == "number") and (.delayed | type == "number"))' "$out"
		check "$tr regions cover ranks once" jq -e \
			'([.regions.regions[].ranks[]] | sort) == ([range(0; (.regions.rank_region | length))])' "$out"
		check "$tr criteria contract" jq -e '
			(.latency.criteria | type == "array" and length > 0) and
			all(.latency.criteria[]; (.class == "intra" or .class == "inter") and (.lo <= .hi)
			    and (.count > 0) and (.median | type == "number") and (.criterion | type == "number"))' "$out"
		check "$tr criteria count all messages" jq -e \
			'([.latency.criteria[].count] | add) == .latency.messages' "$out"
		check "$tr evolution contract" jq -e '
			(.evolution.evolution | type == "array") and
			all(.evolution.evolution[];
			    (.region | type == "number") and (.windows | length) == $w and
			    all(.windows[]; has("start") and has("end") and has("mean_l") and (.delayed | type == "number")) and
			    (.periods | length > 0) and
			    all(.periods[]; (.kind == "other" or .kind == "growth" or .kind == "steady_high")
			        and (.start <= .end) and (.first <= .last)))' --argjson w \
			"$(jq '.evolution.nwindows' "$out")" "$out"
		check "$tr evolution windows hold all messages" jq -e \
			'([.evolution.all.windows[].messages] | add) == .latency.messages' "$out"
	else
		for f in '"regions": \[' '"ranks": \[' '"rl":' '"messages_inside":' '"messages_crossing":' '"delayed":' \
			 '"criteria": \[' '"median":' '"count":' '"evolution": \[' '"windows": \[' '"periods": \[' '"kind":' \
			 '"start":' '"end":' '"mean_l":'; do
			check "$tr field $f" grep -q "$f" "$out"
		done
	fi
	for s in regions latency evolution; do
		check "$tr text $s" sh -c "'$BIN' report '$p' --section $s | grep -q '^== $s =='"
	done
done

# the stencil's regions: 16 blocks of 4 ranks, printed as ranges
p="$TRACES/tracer-stencil4d-64p"
if [ -d "$p" ]; then
	"$BIN" report "$p" --section regions >"$out" 2>&1
	check "stencil64 text 16 regions" grep -q '^16 regions' "$out"
	check "stencil64 text ranges" grep -q ' 60-63$' "$out"
	# options reach the analysis
	"$BIN" report "$p" --section regions --opt region_threshold=100 >"$out" 2>&1
	check "stencil64 threshold option" grep -q '^1 region ' "$out"
	"$BIN" report "$p" --json --section latency --opt latency_buckets=linear --opt latency_bucket_bytes=50 >"$out" 2>&1
	check "stencil64 linear buckets" grep -q '"buckets": "linear"' "$out"
fi
# issue 14: the windows cover the application span (docs/span.md) on every trace:
# the first starts where `info --json` says the span starts, the last ends at its
# end (the window width rounds up to a tick); --opt span=all and latency_span=off
# put them over the whole trace again
if [ $have_jq = yes ]; then
	bad=""
	for d in "$TRACES"/*/; do
		s=$("$BIN" info "$d" --json | jq '.application_span.start_s')
		e=$("$BIN" info "$d" --json | jq '.application_span.end_s')
		"$BIN" report "$d" --json --section evolution >"$out" 2>/dev/null || { bad="$bad $(basename "$d")"; continue; }
		jq -e --argjson s "$s" --argjson e "$e" '.evolution.all.windows as $w |
			(($w[0].start - $s) | fabs) < 1e-6 and $w[-1].end >= $e - 1e-6 and
			$w[-1].end - $e < .evolution.window_s' "$out" >/dev/null || bad="$bad $(basename "$d")"
	done
	[ -z "$bad" ] && echo "ok windows over the application span" || echo "not ok windows over the application span:$bad"
	d=$TRACES/casita-jacobi-mpi-omp-cuda-cpu015-2p
	for o in span=all latency_span=off; do
		"$BIN" report "$d" --json --section evolution --opt $o >"$out" 2>&1
		check "windows over the whole trace with $o" jq -e '.evolution.all.windows[0].start < 0.5' "$out"
	done
fi
