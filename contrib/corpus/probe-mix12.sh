# contrib/corpus/probe-mix12.sh — a probe table (CORPUS_SET=probe-mix12), not
# part of make check, written in session 14 before any change it might
# suggest: a halo of 12 ranks (4 x 3), 4 per node, placed cyclically with inter-node
# latency in its Isends (and its block twin), background in 5 % of a chain's
# sends, a slow node under a halo of 2 ranks per node, a delay in a halo's
# first iteration, groups that meet every 3 iterations with one rank
# delayed, a leaf of a 3-ary tree of 10 ranks delayed, a parity ring of 6
# ranks delayed, two slow ranks of a 10-rank nonblocking ring, a chain tagged
# by iteration with latency inside its sends placed cyclically (and its
# block twin); clean twins; seeds 301-312.
H12="halo2d --iters 30 --bytes 8192 --allreduce-every 5 --compute-ms 3"
C="chain --iters 30 --compute-ms 2"
H8="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
G="groups --groups 2 --iters 30 --sync-every 3 --compute-ms 3"
T3="tree --arity 3 --iters 20 --compute-ms 3"
RP="ring --iters 30 --compute-ms 3 --mode parity"
RN="ring --iters 30 --compute-ms 3 --mode nb"
CT="chain --iters 30 --compute-ms 2 --tags iter"
cases() {
	cat <<CASES
m12-halo-12p-map-cyclic-s301|inter|mapping|mapping||12|301|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=isend|$H12
m12-halo-12p-map-block-s301|inter|none|none||12|301|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=isend|$H12
m12-chain-8p-bg5-s302|background|background|background||8|302|RANKS_PER_NODE=2 EMU_BG_US=3000 EMU_BG_PCT=5 EMU_BG_SCOPE=both|$C
m12-chain-8p-clean-s302|chain|none|none||8|302|RANKS_PER_NODE=2|$C
m12-halo-8p-node2-s303|background|background|background|4,5|8|303|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=2|$H8
m12-halo-8p-clean-s303|halo|none|none||8|303|RANKS_PER_NODE=2|$H8
m12-halo-8p-first-s304|halo|imbalance|imbalance|3|8|304||$H8 --delay-rank 3 --delay-iter 0 --delay-ms 40
m12-groups-8p-sync3-s305|groups|imbalance|imbalance|2|8|305||$G --delay-rank 2 --delay-iter 13 --delay-ms 40
m12-groups-8p-clean-s305|groups|none|none||8|305||$G
m12-tree3-10p-leaf-s306|tree|imbalance|imbalance|7|10|306||$T3 --delay-rank 7 --delay-iter 9 --delay-ms 40
m12-tree3-10p-clean-s306|tree|none|none||10|306||$T3
m12-ring-par-6p-mid-s307|ring|imbalance|imbalance|3|6|307||$RP --delay-rank 3 --delay-iter 15 --delay-ms 40
m12-ring-par-6p-clean-s307|ring|none|none||6|307||$RP
m12-ring-nb-10p-slow2-s308|ring|imbalance|imbalance|2,7|10|308||$RN --slow-ranks 2,7 --slow-ms 2
m12-ring-nb-10p-clean-s308|ring|none|none||10|308||$RN
m12-chain-8p-tags-map-cyclic-s309|inter|mapping|mapping||8|309|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000 EMU_INTER_IN=send|$CT
m12-chain-8p-tags-map-block-s309|inter|none|none||8|309|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=3000 EMU_INTER_IN=send|$CT
CASES
}
# (The halo's mapping first had 3 ranks per node: placed cyclically, each
# node then holds a column of the 4 x 3 grid, which is the best placement,
# and the tool said so — "the trace's placement is already as good", none;
# the table was wrong, not the tool.  With 4 per node the cyclic placement
# puts every neighbour on another node and rows on nodes halve that.)
