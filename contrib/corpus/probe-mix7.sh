# contrib/corpus/probe-mix7.sh — a probe table (CORPUS_SET=probe-mix7), not
# part of make check, written in session 12 before any change it might
# suggest: placements and background in structures the other tables test
# them little in — a chain and groups placed cyclically with emulated
# inter-node latency (and their block twins, which no remap improves),
# background on 15-25 % of the sends of a chain, groups and a binary tree, a
# slow node under a chain, a halo's bad placement with a delay, background
# beside a delay on a Sendrecv ring, background after a 1 s MPI_Init; clean
# twins; seeds 201-212.
C="chain --iters 25 --compute-ms 2"
G="groups --groups 2 --iters 25 --bytes 8192 --sync-every 5 --compute-ms 3"
T="tree --arity 2 --iters 20 --bytes 4096 --compute-ms 3"
H="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
R="ring --iters 30 --compute-ms 3 --mode sendrecv"
cases() {
	cat <<CASES
m7-chain-8p-map-cyclic-s201|inter|mapping|mapping||8|201|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2500 EMU_INTER_IN=send|$C
m7-chain-8p-map-block-s201|inter|none|none||8|201|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=2500 EMU_INTER_IN=send|$C
m7-chain-8p-clean-cyclic-s201|inter|none|none||8|201|RANKS_PER_NODE=2 NODE_MAP=cyclic|$C
m7-groups-8p-map-cyclic-s202|inter|mapping|mapping||8|202|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=isend|$G
m7-groups-8p-map-block-s202|inter|none|none||8|202|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=isend|$G
m7-chain-8p-bg20-s203|background|background|background||8|203|RANKS_PER_NODE=4 EMU_BG_US=2500 EMU_BG_PCT=20 EMU_BG_SCOPE=both|$C
m7-chain-8p-bg-clean-s203|chain|none|none||8|203|RANKS_PER_NODE=4|$C
m7-groups-8p-bg15-s204|background|background|background||8|204|RANKS_PER_NODE=4 EMU_BG_US=2500 EMU_BG_PCT=15 EMU_BG_SCOPE=both|$G
m7-groups-8p-bg-clean-s204|groups|none|none||8|204|RANKS_PER_NODE=4|$G
m7-tree2-7p-bg25-intra-s205|background|background|background||7|205|RANKS_PER_NODE=4 EMU_BG_US=2000 EMU_BG_PCT=25 EMU_BG_SCOPE=intra|$T
m7-tree2-7p-bg-clean-s205|tree2|none|none||7|205|RANKS_PER_NODE=4|$T
m7-chain-8p-node-s206|background|background|background|2,3|8|206|RANKS_PER_NODE=2 EMU_BG_US=2500 EMU_BG_PCT=100 EMU_BG_NODE=1|$C
m7-halo-8p-map-delay-s207|mixed|mapping|mapping,imbalance|5|8|207|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2500 EMU_INTER_IN=isend|$H --delay-rank 5 --delay-iter 14 --delay-ms 60
m7-ring-8p-bg-delay-s208|mixed|imbalance|imbalance,background|3|8|208|RANKS_PER_NODE=4 EMU_BG_US=2000 EMU_BG_PCT=10 EMU_BG_SCOPE=both|$R --delay-rank 3 --delay-iter 17 --delay-ms 80
m7-halo-8p-pad-bg10-s209|background|background|background||8|209|INIT_PAD_MS=1000 RANKS_PER_NODE=4 EMU_BG_US=2500 EMU_BG_PCT=10 EMU_BG_SCOPE=both|$H
m7-halo-8p-pad-clean-s209|halo|none|none||8|209|INIT_PAD_MS=1000 RANKS_PER_NODE=4|$H
CASES
}
