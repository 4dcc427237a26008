#!/bin/sh
# tracecomb report --section steps: the JSON contract and the text output on
# real traces.  Prints "ok NAME" / "not ok NAME" per case.
# Environment: BIN (tracecomb binary), TRACES (directory of the shared traces).
BIN=${BIN:-./tracecomb}
# the Makefile passes BIN=tracecomb (a path relative to the checkout)
case $BIN in */*) ;; *) [ -x "./$BIN" ] && BIN=./$BIN ;; esac
TRACES=${TRACES:-/work/shared/traces}
# tests/run.sh derives TRACES from the checkout, one level off in a worktree
[ -f "$TRACES/MANIFEST.md" ] || TRACES=/work/shared/traces
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# check NAME TRACE PYTHON-EXPR [--opt ...]: the expression sees the steps object as s
check() {
	name=$1; trace=$2; expr=$3; shift 3
	if [ ! -d "$TRACES/$trace" ]; then echo "skip $name: no $TRACES/$trace"; return; fi
	if "$BIN" report "$TRACES/$trace" --section steps --json "$@" >"$out" 2>/dev/null &&
	   python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["steps"]
ev = ("rank", "step", "partition", "region", "enter_s", "exit_s", "lateness_s", "diff_lateness_s")
for k in ("partitions", "max_step", "events", "hotspots", "origins"):
    assert k in s, k
for lst in (s["hotspots"], s["origins"]):
    assert len(lst) <= 20
    for e in lst:
        for k in ev:
            assert k in e, k
        assert e["exit_s"] >= e["enter_s"]
assert all(a["lateness_s"] >= b["lateness_s"] for a, b in zip(s["hotspots"], s["hotspots"][1:]))
# origins: root causes ranked by delay cost + excess on the critical path (docs/rootcause.md)
score = lambda o: o["delay_cost_s"] + o["path_excess_s"]
assert all(score(a) >= score(b) for a, b in zip(s["origins"], s["origins"][1:]))
assert all(o["excess_s"] > 0 and o["activity"] in ("compute", "mpi_own") for o in s["origins"])
assert eval(sys.argv[2]), sys.argv[2]
' "$out" "$expr"; then echo "ok $name"; else echo "not ok $name"; fi
}

# the top origin: rank 1's MPI_Send of step 52 (163 us above its context);
# until session 10 the compute before a send at step 57, which grows with the
# doubling message and is a trend now, not an outlier (docs/rootcause.md §3)
check pingpong-default pipit-ping-pong-2p \
	's["partitions"] == 16 and s["max_step"] == 62 and s["events"] == 32 and s["hotspots"] == [] and s["origins"][0]["rank"] == 1 and s["origins"][0]["step"] == 52 and s["origins"][0]["activity"] == "mpi_own" and not s["options"]["caller_merge"]'
check pingpong-caller-merge pipit-ping-pong-2p \
	's["partitions"] == 1 and s["max_step"] == 62 and s["options"]["caller_merge"]' --opt caller_merge=on
check stencil32 tracer-stencil4d-32p \
	's["partitions"] == 5 and s["events"] == 672 and s["max_step"] == 40 and len(s["hotspots"]) == 20 and [p["first_step"] for p in s["partition_list"]] == [0, 18, 20, 38, 40] and [(x["count"], x["events"], x["ranks"], x["steps"]) for x in s["phase_shapes"]] == [(3, 32, 32, 1), (2, 288, 32, 9)]'
check stencil64-lamport tracer-stencil4d-64p \
	's["options"]["lamport"] and s["events"] == 1344' --opt lamport=on
check stencil32-origin tracer-stencil4d-32p 's["origins"][0]["excess_s"] > 0 and s["origins"][0]["delay_cost_s"] > 0'
check late-sender-barrier casita-late-sender-barrier-4p \
	'(s["hotspots"][0]["rank"], s["hotspots"][0]["step"], s["hotspots"][0]["aggregate"], s["hotspots"][0]["region"]) == (0, 11, True, "MPI_Barrier") and (s["origins"][0]["rank"], s["origins"][0]["step"]) == (0, -1) and s["origins"][0]["excess_s"] > 9 and (s["origins"][1]["rank"], s["origins"][1]["step"]) == (0, 11) and s["origins"][1]["diff_lateness_s"] > 7.8 and s["partitions"] == 4'
check sstmacro sstmacro-mpi-coverage-10p 's["events"] > 0 and s["partitions"] > 1'

# text output: the summary lines
if [ -d "$TRACES/pipit-ping-pong-2p" ]; then
	if "$BIN" report "$TRACES/pipit-ping-pong-2p" --section steps >"$out" 2>&1 &&
	   grep -q '^events *32 communication events on 2 ranks' "$out" &&
	   grep -q '^partitions *16, global steps 0-62' "$out" &&
	   grep -q 'caller_merge=off' "$out"; then echo "ok text-summary"; else echo "not ok text-summary"; fi
fi

# the whole report still parses as one JSON document with a steps section
if [ -d "$TRACES/casita-late-sender-barrier-4p" ]; then
	if "$BIN" report "$TRACES/casita-late-sender-barrier-4p" --json >"$out" 2>/dev/null &&
	   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "steps" in d and "info" in d' "$out"
	then echo "ok full-report-json"; else echo "not ok full-report-json"; fi
fi
# the block before step 0 is "init" in the text report, never -1; JSON keeps the
# number and says so in step_label (issue 14: no "step -1" where a person reads)
check late-sender-barrier-init casita-late-sender-barrier-4p \
	'(s["origins"][0]["step"], s["origins"][0]["step_label"], s["origins"][1]["step_label"]) == (-1, "init", "11")'
if [ -d "$TRACES/casita-late-sender-barrier-4p" ]; then
	if "$BIN" report "$TRACES/casita-late-sender-barrier-4p" --section steps >"$out" 2>&1 &&
	   grep -q '^       0    init     0  compute' "$out" && ! grep -qE '^ +[0-9]+ +-1 ' "$out"; then
		echo "ok text-init"
	else echo "not ok text-init"; fi
fi
