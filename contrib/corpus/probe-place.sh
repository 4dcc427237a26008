# contrib/corpus/probe-place.sh — a probe table (CORPUS_SET=probe-place), not
# part of make check, written in session 11 to test the slow-place rule
# (verdict_place.c) on what it was not made on: a slow node (every send to
# or from it stalls 2-3 ms) under the leaves of a binary tree, in a chain, a
# nonblocking ring, groups, a 4-ary tree and a halo with 3 ranks per node; a
# slow link between a tree's root and an inner rank; the inter-node latency of
# a bad mapping on a tree (every inter-node send slow: mapping, not a place);
# clean twins; seeds 151-158.  Then, after the one-slow-node test of the
# mapping claim (verdict.c), other seeds and sizes of the binary tree's slow
# node and mapping and a 4-ary tree's mapping; seeds 161-165.  (A
# master/worker with inter-node latency was tried and left out: no
# placement helps a star, the remap keeps 97 of 97 inter-node messages, so
# it is no mapping case; it reads the master as a hot spot, 0.49.)
T2="tree --arity 2 --iters 20 --bytes 4096 --compute-ms 3"
T4="tree --arity 4 --iters 20 --bytes 4096 --compute-ms 3"
CM="chain --iters 20 --compute-ms 3"
RN="ring --iters 30 --compute-ms 3 --mode nb"
GL="groups --groups 2 --iters 24 --bytes 4096 --compute-ms 3"
HM="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
cases() {
	cat <<CASES
r-tree2-7p-node2-s151|background|background|background|4,5|7|151|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=2|$T2
r-tree2-7p-link-s152|background|background|background|0,2|7|152|RANKS_PER_NODE=2 EMU_BG_US=3000 EMU_BG_PCT=100 EMU_BG_PAIR=0:2|$T2
r-chain-8p-node1-s153|background|background|background|2,3|8|153|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=1|$CM
r-chain-8p-clean-s153|chain|none|none||8|153|RANKS_PER_NODE=2|$CM
r-ring-nb-8p-node3-s154|background|background|background|6,7|8|154|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=3|$RN
r-ring-nb-8p-clean-s154|ring_nb|none|none||8|154|RANKS_PER_NODE=2|$RN
r-groups-8p-node0-s155|background|background|background|0,1|8|155|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=0|$GL
r-groups-8p-clean-s155|groups|none|none||8|155|RANKS_PER_NODE=2|$GL
r-tree4-9p-node1-s156|background|background|background|3,4,5|9|156|RANKS_PER_NODE=3 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=1|$T4
r-tree4-9p-clean-s156|tree4|none|none||9|156|RANKS_PER_NODE=3|$T4
r-halo-9p-node2-s157|background|background|background|6,7,8|9|157|RANKS_PER_NODE=3 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=2|$HM
r-halo-9p-clean-s157|halo|none|none||9|157|RANKS_PER_NODE=3|$HM
r-tree2-7p-map-s158|inter|mapping|mapping||7|158|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2000|$T2
r-tree2-7p-map-clean-s158|tree2|none|none||7|158|RANKS_PER_NODE=2 NODE_MAP=cyclic|$T2
r-tree2-7p-node1-s161|background|background|background|2,3|7|161|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=1|$T2
r-tree2-7p-node1-s162|background|background|background|2,3|7|162|RANKS_PER_NODE=2 EMU_BG_US=1000 EMU_BG_PCT=100 EMU_BG_NODE=1|$T2
r-tree2-7p-map-s163|inter|mapping|mapping||7|163|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=1000|$T2
r-tree2-7p-map-s164|inter|mapping|mapping||7|164|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000|$T2
r-tree4-9p-map-s165|inter|mapping|mapping||9|165|RANKS_PER_NODE=3 NODE_MAP=cyclic EMU_INTER_US=2000|$T4
r-tree4-9p-map-clean-s165|tree4|none|none||9|165|RANKS_PER_NODE=3 NODE_MAP=cyclic|$T4
CASES
}
