#!/bin/sh
# The trace generator (bench/gen) writes exactly the events its patterns
# define, consistently (bench/gencheck: causality, matching, nesting), and
# deterministically.  Prints "ok NAME" / "not ok NAME" per case.
BUILD=${BUILD:-build}
GEN=$BUILD/bench/gen
RAW=$BUILD/bench/rawdecode
CHECK=$BUILD/bench/gencheck
tmp=$(mktemp -d /tmp/tc-gen-test.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok $1"; }
notok() { echo "not ok $1${2:+: $2}"; }

# case NAME "EXPECTED kinds (space separated k=v)" GEN-ARGS...
kinds_case() {
	name=$1; want=$2; shift 2
	dir=$tmp/$name
	if ! "$GEN" -o "$dir" "$@" >"$tmp/$name.out" 2>&1; then notok "$name" "gen failed: $(cat "$tmp/$name.out")"; return; fi
	got=$("$RAW" --kinds "$dir" | grep -v '=0$' | grep -v '^locations=' | sed 's/ seconds=.*//' | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then ok "$name counts"; else notok "$name counts" "got '$got' want '$want'"; fi
	c=$("$CHECK" "$dir" 2>&1)
	case $c in ok*) ok "$name consistent";; *) notok "$name consistent" "$(echo "$c" | head -n 3)";; esac
}

# Expected counts per rank: main, MPI_Init, MPI_Finalize = 6 events; per
# exchange iteration compute 2 + per direction Irecv 3 + Isend 3 + Waitall 2 + 2
# per direction; MPI_Allreduce 4; blocking Send/Recv 3 each.
# halo2d 4x4: 6 + 5*36 + 2*4 = 194 per rank.
kinds_case halo2d "events=3104 enter=880 leave=880 mpi_isend=320 mpi_isend_complete=320 mpi_irecv_request=320 mpi_irecv=320 coll_begin=32 coll_end=32" \
	--ranks 16 --iters 5 --ranks-per-node 4 --allreduce-every 2
# halo1d: 6 + 2*20 = 46 per rank.
kinds_case halo1d "events=368 enter=120 leave=120 mpi_isend=32 mpi_isend_complete=32 mpi_irecv_request=32 mpi_irecv=32" \
	--ranks 8 --iters 2 --pattern halo1d --allreduce-every 0
# groups of 4: iteration 0 also crosses groups (6 directions: 52), then 4 directions (36).
kinds_case groups "events=2080 enter=592 leave=592 mpi_isend=224 mpi_isend_complete=224 mpi_irecv_request=224 mpi_irecv=224" \
	--ranks 16 --iters 3 --pattern groups --groups 4 --allreduce-every 0
# masterworker: master 7*(3+3) + each worker 3+2+3 per iteration.
kinds_case masterworker "events=342 enter=129 leave=129 mpi_send=42 mpi_recv=42" \
	--ranks 8 --iters 3 --pattern masterworker --imbalance --allreduce-every 0
# binary tree of 7: 6 edges, each a Send + Recv in the gather and in the scatter.
kinds_case tree "events=214 enter=83 leave=83 mpi_send=24 mpi_recv=24" \
	--ranks 7 --iters 2 --pattern tree --fanout 2 --allreduce-every 0
# ring: compute 2 + Sendrecv 4 per iteration.
kinds_case ring "events=304 enter=104 leave=104 mpi_send=32 mpi_recv=32 coll_begin=16 coll_end=16" \
	--ranks 8 --iters 4 --pattern ring --allreduce-every 2 --mapping roundrobin --ranks-per-node 2
kinds_case planted "events=14048 enter=3920 leave=3920 mpi_isend=1536 mpi_isend_complete=1536 mpi_irecv_request=1536 mpi_irecv=1536 coll_begin=32 coll_end=32" \
	--ranks 16 --iters 24 --ranks-per-node 4 --mapping roundrobin --allreduce-every 12 \
	--delay 3:10:0.01 --slow-every 4:1.3 --slow-inter 0.5:5 --noise-inter 0.2:0.4:20e-6 --jitter 0.1

# Same seed, same archive; another seed, another archive.
"$GEN" -o "$tmp/s1" --ranks 16 --iters 20 --ranks-per-node 4 --seed 7 >/dev/null 2>&1
"$GEN" -o "$tmp/s2" --ranks 16 --iters 20 --ranks-per-node 4 --seed 7 >/dev/null 2>&1
"$GEN" -o "$tmp/s3" --ranks 16 --iters 20 --ranks-per-node 4 --seed 8 >/dev/null 2>&1
same=yes
for f in "$tmp"/s1/traces/*.evt "$tmp"/s1/traces.def; do
	cmp -s "$f" "$tmp/s2/${f#"$tmp"/s1/}" || same=no
done
[ -f "$tmp/s1/traces/0.evt" ] && [ $same = yes ] && ok "deterministic for a seed" || notok "deterministic for a seed"
cmp -s "$tmp/s1/traces/0.evt" "$tmp/s3/traces/0.evt" && notok "seed changes the trace" || ok "seed changes the trace"

# A planted delay of 20 ms on one rank lengthens the whole run by about 20 ms.
base=$("$GEN" -o "$tmp/d0" --ranks 16 --iters 40 --ranks-per-node 4 | sed 's/.*simulated=\([0-9.e-]*\)s.*/\1/')
delayed=$("$GEN" -o "$tmp/d1" --ranks 16 --iters 40 --ranks-per-node 4 --delay 5:20:0.02 | sed 's/.*simulated=\([0-9.e-]*\)s.*/\1/')
if awk -v a="$base" -v b="$delayed" 'BEGIN { d = b - a; exit !(d > 0.0199 && d < 0.0205) }'; then
	ok "planted delay lengthens the run"
else
	notok "planted delay lengthens the run" "base $base delayed $delayed"
fi

# Mapping: roundrobin puts rank r on node r % nnodes; block on r / K.
"$GEN" -o "$tmp/rr" --ranks 8 --iters 1 --ranks-per-node 4 --mapping roundrobin >/dev/null 2>&1
n=$(otf2-print -G "$tmp/rr/traces.otf2" | grep -c 'LOCATION_GROUP .*"MPI Rank [1357]".*Parent: "node::node1"')
[ "$n" = 4 ] && ok "roundrobin mapping" || notok "roundrobin mapping" "odd ranks on node1: $n"
n=$(otf2-print -G "$tmp/s1/traces.otf2" | grep -c 'LOCATION_GROUP .*"MPI Rank \(4\|5\|6\|7\)".*Parent: "node::node1"')
[ "$n" = 4 ] && ok "block mapping" || notok "block mapping" "ranks 4-7 on node1: $n"

# The archive is never silently overwritten; --force replaces it.
if "$GEN" -o "$tmp/s1" --ranks 4 --iters 1 >/dev/null 2>&1; then notok "refuses to overwrite"; else ok "refuses to overwrite"; fi
"$GEN" -o "$tmp/s1" --ranks 4 --iters 1 --force >/dev/null 2>&1 &&
	[ "$("$RAW" "$tmp/s1" | sed 's/ seconds=.*//')" = "events=$((4 * (6 + 36 + 0)))" ] && ok "--force replaces" || notok "--force replaces"

# Bad options are rejected with status 2.
"$GEN" -o "$tmp/bad" --pattern nosuch >/dev/null 2>&1; [ $? = 2 ] && ok "bad pattern rejected" || notok "bad pattern rejected"
"$GEN" -o "$tmp/bad" --delay 99:1:0.1 --ranks 8 >/dev/null 2>&1; [ $? = 2 ] && ok "bad delay rejected" || notok "bad delay rejected"
for v in 3:3:0.5:0.001 3:4:0:0.001 3:4:1.5:0.001 3:4:0.5:-1 3.5:4:0.5:0.001 3:4:0.5; do
	"$GEN" -o "$tmp/bad" --noise-link "$v" >/dev/null 2>&1; [ $? = 2 ] && ok "bad noise-link $v rejected" || notok "bad noise-link $v rejected"
done
# --noise-link changes the run, the same way for the same seed
"$GEN" -o "$tmp/l1" --ranks 16 --iters 20 --ranks-per-node 4 --seed 7 --noise-link 5:6:0.5:0.001 >/dev/null 2>&1
"$GEN" -o "$tmp/l2" --ranks 16 --iters 20 --ranks-per-node 4 --seed 7 --noise-link 5:6:0.5:0.001 >/dev/null 2>&1
[ -f "$tmp/l1/traces/6.evt" ] && ! cmp -s "$tmp/l1/traces/6.evt" "$tmp/s1/traces/6.evt" &&
	cmp -s "$tmp/l1/traces/6.evt" "$tmp/l2/traces/6.evt" && ok "noise-link changes the run, deterministically" ||
	notok "noise-link changes the run, deterministically"
