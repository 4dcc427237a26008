# contrib/corpus/main.sh — the planted-cause corpus's main table (CORPUS_SET=main,
# the default; sourced by contrib/run-corpus.sh, which documents the line format).
# The set the method was designed on: 6-9 ranks, 80 ms delays against 3 ms of
# compute per iteration, seeds 1-3, background stalls 1-3 ms.
D="--delay-ms 80"
R="ring --iters 30"
RB="ring --iters 30 --bytes 262144"
T2="tree --arity 2 --iters 20 --bytes 2048 --compute-ms 3"
T4="tree --arity 4 --iters 20 --bytes 2048 --compute-ms 3"
H="halo2d --iters 40 --bytes 4096 --allreduce-every 8 --compute-ms 3"
MW="masterworker --tasks 50 --task-ms 3 --slow-every 0"
G="groups --groups 2 --iters 30 --bytes 8192 --sync-every 10 --compute-ms 3"
BG="RANKS_PER_NODE=4 EMU_BG_US=3000"
cases() {
	cat <<CASES
ring-sr-mid-s1|ring|imbalance|imbalance|3|8|1||$R --mode sendrecv --delay-rank 3 --delay-iter 12 $D
ring-sr-mid-s2|ring|imbalance|imbalance|4|8|2||$R --mode sendrecv --delay-rank 4 --delay-iter 17 $D
ring-sr-last-s1|ring|imbalance|imbalance|7|8|1||$R --mode sendrecv --delay-rank 7 --delay-iter 12 $D
ring-sr-r0-s1|ring|imbalance|imbalance|0|8|1||$R --mode sendrecv --delay-rank 0 --delay-iter 12 $D
ring-sr-clean-s1|ring|none|none||8|1||$R --mode sendrecv
ring-sr-clean-s2|ring|none|none||8|2||$R --mode sendrecv
ring-sr-clean-over|ring|none|none,noise||8|3|OVER=1|$R --mode sendrecv
ring-sr-big-mid-s1|ring|imbalance|imbalance|3|8|1||$RB --mode sendrecv --delay-rank 3 --delay-iter 12 $D
ring-sr-big-mid-s2|ring|imbalance|imbalance|5|8|2||$RB --mode sendrecv --delay-rank 5 --delay-iter 20 $D
ring-sr-big-last-s1|ring|imbalance|imbalance|7|8|1||$RB --mode sendrecv --delay-rank 7 --delay-iter 12 $D
ring-sr-big-r0-s1|ring|imbalance|imbalance|0|8|1||$RB --mode sendrecv --delay-rank 0 --delay-iter 12 $D
ring-sr-big-clean-s1|ring|none|none||8|1||$RB --mode sendrecv
ring-sr-big-clean-s2|ring|none|none||8|2||$RB --mode sendrecv
ring-sr-big-clean-over|ring|none|none,noise||8|3|OVER=1|$RB --mode sendrecv
ring-par-mid-s1|ring_parity|imbalance|imbalance|3|8|1||$R --mode parity --delay-rank 3 --delay-iter 12 $D
ring-par-mid-s2|ring_parity|imbalance|imbalance|4|8|2||$R --mode parity --delay-rank 4 --delay-iter 17 $D
ring-par-big-mid-s1|ring_parity|imbalance|imbalance|3|8|1||$RB --mode parity --delay-rank 3 --delay-iter 12 $D
ring-par-clean-s1|ring_parity|none|none||8|1||$R --mode parity
ring-par-clean-s2|ring_parity|none|none||8|2||$R --mode parity
ring-par-clean-over|ring_parity|none|none,noise||8|3|OVER=1|$R --mode parity
ring-nb-mid-s1|ring_nb|imbalance|imbalance|3|8|1||$R --mode nb --delay-rank 3 --delay-iter 12 $D
ring-nb-mid-s2|ring_nb|imbalance|imbalance|4|8|2||$R --mode nb --delay-rank 4 --delay-iter 17 $D
ring-nb-big-mid-s1|ring_nb|imbalance|imbalance|3|8|1||$RB --mode nb --delay-rank 3 --delay-iter 12 $D
ring-nb-clean-s1|ring_nb|none|none||8|1||$R --mode nb
ring-nb-clean-s2|ring_nb|none|none||8|2||$R --mode nb
ring-nb-clean-over|ring_nb|none|none,noise||8|3|OVER=1|$R --mode nb
chain-mid-s1|chain|imbalance|imbalance|3|8|1||chain --iters 30 --delay-rank 3 --delay-iter 12 $D
chain-mid-s2|chain|imbalance|imbalance|4|8|2||chain --iters 30 --delay-rank 4 --delay-iter 17 $D
chain-clean-s1|chain|none|none||8|1||chain --iters 30
chain-clean-s2|chain|none|none||8|2||chain --iters 30
chain-clean-over|chain|none|none,noise||8|3|OVER=1|chain --iters 30
tree2-leaf-s1|tree2|imbalance|imbalance|5|7|1||$T2 --delay-rank 5 --delay-iter 8 $D
tree2-leaf-s2|tree2|imbalance|imbalance|4|7|2||$T2 --delay-rank 4 --delay-iter 13 $D
tree2-inner-s1|tree2|imbalance|imbalance|1|7|1||$T2 --delay-rank 1 --delay-iter 8 $D
tree2-root-s1|tree2|imbalance|imbalance|0|7|1||$T2 --delay-rank 0 --delay-iter 8 $D
tree2-clean-s1|tree2|none|none||7|1||$T2
tree2-clean-s2|tree2|none|none||7|2||$T2
tree2-clean-over|tree2|none|none,noise||7|3|OVER=1|$T2
tree4-leaf-s1|tree4|imbalance|imbalance|6|9|1||$T4 --delay-rank 6 --delay-iter 8 $D
tree4-leaf-s2|tree4|imbalance|imbalance|3|9|2||$T4 --delay-rank 3 --delay-iter 13 $D
tree4-inner-s1|tree4|imbalance|imbalance|1|9|1||$T4 --delay-rank 1 --delay-iter 8 $D
tree4-root-s1|tree4|imbalance|imbalance|0|9|1||$T4 --delay-rank 0 --delay-iter 8 $D
tree4-clean-s1|tree4|none|none||9|1||$T4
tree4-clean-s2|tree4|none|none||9|2||$T4
tree4-clean-over|tree4|none|none,noise||9|3|OVER=1|$T4
halo-once-s1|halo|imbalance|imbalance|5|8|1||$H --delay-rank 5 --delay-iter 10 $D
halo-once-s2|halo|imbalance|imbalance|2|8|2||$H --delay-rank 2 --delay-iter 15 $D
halo-two-s1|halo|imbalance|imbalance|1,6|8|1||$H --delay-rank 1 --delay-iter 6 --delay2-rank 6 --delay2-iter 20 $D --delay2-ms 80
halo-two-s2|halo|imbalance|imbalance|3,4|8|2||$H --delay-rank 3 --delay-iter 9 --delay2-rank 4 --delay2-iter 22 $D --delay2-ms 80
halo-slow-s1|halo|imbalance|imbalance|3|8|1||$H --slow-rank 3 --slow-ms 6
halo-slow-s2|halo|imbalance|imbalance|6|8|2||$H --slow-rank 6 --slow-ms 6
halo-clean-s1|halo|none|none||8|1||$H
halo-clean-s2|halo|none|none||8|2||$H
halo-clean-over|halo|none|none,noise||12|3|OVER=1|$H
mw-ramp-s1|mw|imbalance|imbalance|5|6|1||$MW --ramp-ms 2
mw-ramp-s2|mw|imbalance|imbalance|5|6|2||$MW --ramp-ms 2
mw-once-s1|mw|imbalance|imbalance|2|6|1||$MW --delay-rank 2 --delay-iter 3 $D
mw-once-s2|mw|imbalance|imbalance|4|6|2||$MW --delay-rank 4 --delay-iter 5 $D
mw-flat-s1|mw|none|none||6|1||$MW
mw-flat-s2|mw|none|none||6|2||$MW
mw-flat-over|mw|none|none,noise||8|3|OVER=1|$MW
groups-delay-s1|groups|imbalance|imbalance|5|8|1||$G --delay-rank 5 --delay-iter 12 $D
groups-delay-s2|groups|imbalance|imbalance|2|8|2||$G --delay-rank 2 --delay-iter 4 $D
groups-clean-s1|groups|none|none||8|1||$G
groups-clean-s2|groups|none|none||8|2||$G
groups-clean-over|groups|none|none,noise||8|3|OVER=1|$G
inter-send-block-s1|inter|none|none||8|1|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=3000 EMU_INTER_IN=send|$R --mode parity
inter-send-cyclic-s1|inter|mapping|mapping||8|1|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000 EMU_INTER_IN=send|$R --mode parity
inter-send-cyclic-s2|inter|mapping|mapping||8|2|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000 EMU_INTER_IN=send|$R --mode parity
inter-isend-block-s1|inter|none|none||8|1|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=3000 EMU_INTER_IN=isend|$R --mode nb
inter-isend-cyclic-s1|inter|mapping|mapping||8|1|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000 EMU_INTER_IN=isend|$R --mode nb
inter-wait-block-s1|inter|none|none||8|1|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=3000 EMU_INTER_IN=wait|$R --mode nb
inter-wait-cyclic-s1|inter|mapping|mapping||8|1|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000 EMU_INTER_IN=wait|$R --mode nb
inter-clean-block-s1|inter|none|none||8|1|RANKS_PER_NODE=2 NODE_MAP=block|$R --mode nb
inter-clean-cyclic-s1|inter|none|none||8|1|RANKS_PER_NODE=2 NODE_MAP=cyclic|$R --mode nb
inter-clean-cyclic-s2|inter|none|none||8|2|RANKS_PER_NODE=2 NODE_MAP=cyclic|$R --mode parity
bg-2-both-s1|background|background|background||8|1|$BG EMU_BG_PCT=2 EMU_BG_SCOPE=both|$H
bg-10-intra-s1|background|background|background||8|1|$BG EMU_BG_PCT=10 EMU_BG_SCOPE=intra|$H
bg-10-inter-s1|background|background|background||8|1|$BG EMU_BG_PCT=10 EMU_BG_SCOPE=inter|$H
bg-10-both-s1|background|background|background||8|1|$BG EMU_BG_PCT=10 EMU_BG_SCOPE=both|$H
bg-10-both-s2|background|background|background||8|2|$BG EMU_BG_PCT=10 EMU_BG_SCOPE=both|$H
bg-25-both-s1|background|background|background||8|1|$BG EMU_BG_PCT=25 EMU_BG_SCOPE=both|$H
bg-25-inter-s2|background|background|background||8|2|$BG EMU_BG_PCT=25 EMU_BG_SCOPE=inter|$H
bg-episode-s1|background|background|background||8|1|RANKS_PER_NODE=4 EMU_BG_US=1000 EMU_BG_PCT=100 EMU_BG_WINDOW_MS=50:95|$H
bg-link-s1|background|background|background|2,3|8|1|RANKS_PER_NODE=4 EMU_BG_US=3000 EMU_BG_PCT=100 EMU_BG_PAIR=2:3|$H
bg-node-s1|background|background|background|4,5|8|1|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=2|$H
bg-clean-s1|background|none|none||8|1|RANKS_PER_NODE=4|$H
bg-clean-s2|background|none|none||8|2|RANKS_PER_NODE=4|$H
noise-s1|noise|noise|noise,none||8|1||$H --jitter-us 2500
noise-s2|noise|noise|noise,none||8|2||$R --mode nb --jitter-us 2500
mixed-s1|mixed|mapping|mapping,imbalance|3|8|1|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000 EMU_INTER_IN=isend|$R --mode nb --delay-rank 3 --delay-iter 12 $D
mixed-s2|mixed|mapping|mapping,imbalance|5|8|2|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000 EMU_INTER_IN=send|$R --mode parity --delay-rank 5 --delay-iter 17 $D
degen-pair-delay|degenerate|imbalance|imbalance|0|2|1||degen --mode pair --iters 1 --delay-rank 0 --delay-iter 0 $D
degen-pair-clean|degenerate|none|none||2|1||degen --mode pair --iters 1
degen-noregions-delay|degenerate|imbalance|imbalance|2|6|1||$R --mode sendrecv --regions 0 --delay-rank 2 --delay-iter 12 $D
degen-noregions-clean|degenerate|none|none||6|1||$R --mode sendrecv --regions 0
degen-anysrc-delay|degenerate|imbalance|imbalance|3|6|1||degen --mode anysrc --delay-rank 3 --delay-iter 8 $D
degen-anysrc-delay-s2|degenerate|imbalance|imbalance|5|6|2||degen --mode anysrc --delay-rank 5 --delay-iter 13 $D
degen-anysrc-clean|degenerate|none|none||6|1||degen --mode anysrc
degen-coll-delay|degenerate|imbalance|imbalance|4|6|1||degen --mode coll --delay-rank 4 --delay-iter 9 $D
degen-coll-delay-s2|degenerate|imbalance|imbalance|1|6|2||degen --mode coll --delay-rank 1 --delay-iter 14 $D
degen-coll-clean|degenerate|none|none||6|1||degen --mode coll
pad-ring-sr-mid|ring|imbalance|imbalance|3|8|1|INIT_PAD_MS=1500|$R --mode sendrecv --delay-rank 3 --delay-iter 12 $D
pad-ring-sr-clean|ring|none|none||8|1|INIT_PAD_MS=1500|$R --mode sendrecv
pad-tree2-inner|tree2|imbalance|imbalance|1|7|1|INIT_PAD_MS=1500|$T2 --delay-rank 1 --delay-iter 8 $D
pad-halo-once|halo|imbalance|imbalance|5|8|1|INIT_PAD_MS=1500|$H --delay-rank 5 --delay-iter 10 $D
CASES
}
