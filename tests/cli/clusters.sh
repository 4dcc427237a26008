#!/bin/sh
# `tracecomb report --section clusters` on shared traces: the JSON contract
# (phases[]: partition, first_step, last_step, pattern, focus, clusters[]:
# ranks, size, mean, max, medoid), member ranks covering each phase exactly
# once, known verdicts, and the text form.
. "$(dirname "$0")/../lib.sh"
[ -d "$TRACES" ] || { echo "skip clusters: no traces at $TRACES"; exit 0; }
command -v python3 >/dev/null || { echo "skip clusters: python3 needed to read the JSON"; exit 0; }

for name in pipit-ping-pong-2p casita-late-sender-barrier-4p sstelements-ember-bcast-4p tracer-stencil4d-32p tracer-stencil4d-64p sstmacro-mpi-coverage-10p; do
	j="$TMPD/$name.json"
	if ! "$BIN" report "$TRACES/$name" --section clusters --json >"$j" 2>"$TMPD/err"; then
		notok "clusters-json-$name" "$(cat "$TMPD/err")"; continue
	fi
	ok "clusters-json-$name"
	if python3 - "$j" >"$TMPD/why" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["clusters"]
assert d["metric"] == "lateness", d["metric"]
assert d["phases"], "no phases"
for p in d["phases"]:
    for k in ("partition", "first_step", "last_step", "pattern", "focus", "clusters"):
        assert k in p, k
    assert p["first_step"] <= p["last_step"]
    assert p["pattern"] in ("none", "exchange", "exchange_alternating", "exchange_sends_receives", "exchange_waitall")
    ranks = []
    for c in p["clusters"]:
        for k in ("ranks", "size", "mean", "max", "medoid"):
            assert k in c, k
        assert c["size"] == len(c["ranks"]) > 0
        assert c["ranks"] == sorted(c["ranks"])
        assert c["medoid"] in c["ranks"]
        assert c["mean"] <= c["max"] + 1e-15
        ranks += c["ranks"]
    assert len(ranks) == len(set(ranks)) == p["nranks"], (p["partition"], len(ranks))
    assert p["max_rank"] in ranks and p["max_rank"] in p["focus"]
    assert all(r in ranks for r in p["focus"])
    assert max(c["max"] for c in p["clusters"]) == p["max"]
EOF
	then ok "clusters-contract-$name"; else notok "clusters-contract-$name" "$(tail -n 1 "$TMPD/why")"; fi
done

# verdicts: ping-pong has no lateness (one cluster per phase, no exchange);
# the late-sender barrier phase splits {0,1} {2} {3}; stencil halos are Waitall exchanges
v=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["clusters"]["phases"]
print(len(d), all(len(p["clusters"]) == 1 and p["pattern"] == "none" for p in d))' "$TMPD/pipit-ping-pong-2p.json")
check clusters-pingpong-16-single test "$v" = "16 True"
v=$(python3 -c '
import json, sys
p = [p for p in json.load(open(sys.argv[1]))["clusters"]["phases"] if p["partition"] == 3][0]
print([c["ranks"] for c in p["clusters"]], p["focus"])' "$TMPD/casita-late-sender-barrier-4p.json")
# the barrier's exits differ by 0.4-57 us in a phase lasting 7.8 s: noise, one cluster
# (the default cut's least separation is 0.1 % of the phase's duration, issue 14)
check clusters-barrier-noise test "$v" = "[[0, 1, 2, 3]] [3]"
# --opt cluster_min_sep=0 splits it as before: {0,1}, {2}, {3}
"$BIN" report "$TRACES/casita-late-sender-barrier-4p" --section clusters --json --opt cluster_min_sep=0 >"$TMPD/nosep.json"
v=$(python3 -c '
import json, sys
p = [p for p in json.load(open(sys.argv[1]))["clusters"]["phases"] if p["partition"] == 3][0]
print([c["ranks"] for c in p["clusters"]], p["focus"], p["min_separation_s"])' "$TMPD/nosep.json")
check clusters-barrier-split-nosep test "$v" = "[[0, 1], [2], [3]] [3] 0"
# sst-elements bcast: 4 ranks 35 ns apart in a 1.1 s phase were 3 clusters; now one
v=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["clusters"]["phases"][0]
print(len(p["clusters"]), p["min_separation_s"] > 0.001)' "$TMPD/sstelements-ember-bcast-4p.json")
check clusters-noise-one test "$v" = "1 True"
v=$(python3 -c '
import json, sys
print(" ".join(p["pattern"] for p in json.load(open(sys.argv[1]))["clusters"]["phases"]))' "$TMPD/tracer-stencil4d-32p.json")
check clusters-stencil-waitall test "$v" = "exchange_waitall none exchange_waitall none none"

# text form: ranges, one table per phase; the same clusters as the JSON
"$BIN" report "$TRACES/casita-late-sender-barrier-4p" --section clusters >"$TMPD/text" 2>&1
check clusters-text-table grep -q '^  0  *4 .* 2  0-3$' "$TMPD/text"
check clusters-text-ranges grep -q '  0-3$' "$TMPD/text"
# options: another metric and seed are accepted and reported
"$BIN" report "$TRACES/tracer-stencil4d-32p" --section clusters --json --opt cluster_metric=duration --opt cluster_seed=7 >"$TMPD/dur.json"
check clusters-opt-metric grep -q '"metric": "duration"' "$TMPD/dur.json"
check clusters-opt-seed grep -q '"seed": 7' "$TMPD/dur.json"

# A generated trace (bench/gen): 256 ranks in a 2-D halo where every 4th rank
# computes 3x longer.  In every halo phase one cluster is exactly the slow
# ranks, through CLARA (direct path lowered to 64 ranks) and directly.
GEN=$BUILD/bench/gen
if [ -x "$GEN" ]; then
	"$GEN" -o "$TMPD/slow" --ranks 256 --iters 6 --pattern halo2d --slow-every 4:3 --allreduce-every 0 >/dev/null 2>&1
	"$BIN" report "$TMPD/slow" --section clusters --json --opt cluster_direct_max=64 >"$TMPD/slow.json" 2>/dev/null
	"$BIN" report "$TMPD/slow" --section clusters --json >"$TMPD/slow-direct.json" 2>/dev/null
	slowcheck='
import json, sys
ph = json.load(open(sys.argv[1]))["clusters"]["phases"]
slow = list(range(0, 256, 4))
print(len(ph), all(p["clara"] == (sys.argv[2] == "clara") and p["nranks"] == 256 and any(c["ranks"] == slow for c in p["clusters"]) for p in ph))'
	v=$(python3 -c "$slowcheck" "$TMPD/slow.json" clara 2>&1)
	check clusters-clara-slow-ranks test "$v" = "6 True"
	v=$(python3 -c "$slowcheck" "$TMPD/slow-direct.json" direct 2>&1)
	check clusters-direct-slow-ranks test "$v" = "6 True"
else
	echo "skip clusters-clara-slow-ranks: $GEN not built"
fi
