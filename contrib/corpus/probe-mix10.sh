# contrib/corpus/probe-mix10.sh — a probe table (CORPUS_SET=probe-mix10), not
# part of make check, written in session 13 before any change it might
# suggest: the planted causes with large (rendezvous) messages, which the
# other tables use little — a Sendrecv ring of 256 KiB placed cyclically with
# latency inside the sends (and its block twin), background on a halo of
# 64 KiB messages, delays in a chain of 128 KiB messages and at an inner rank
# of a 4-ary tree of 64 KiB, a master/worker (small messages: it has no --bytes) with one worker
# delayed once, groups of 64 KiB placed cyclically; then compute jitter beside
# a delay in a nonblocking ring, two slow ranks of a halo, a chain without user
# regions; clean twins; seeds 231-242.
RS="ring --iters 25 --compute-ms 3 --mode sendrecv --bytes 262144"
H="halo2d --iters 30 --bytes 65536 --allreduce-every 5 --compute-ms 3"
C="chain --iters 25 --compute-ms 2 --bytes 131072"
T4="tree --arity 4 --iters 20 --bytes 65536 --compute-ms 3"
M="masterworker --tasks 60 --task-ms 3 --slow-every 0"
G="groups --groups 2 --iters 25 --bytes 65536 --sync-every 5 --compute-ms 3"
RN="ring --iters 30 --compute-ms 3 --mode nb"
cases() {
	cat <<CASES
x-ring-sr-8p-big-map-cyclic-s231|inter|mapping|mapping||8|231|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$RS
x-ring-sr-8p-big-map-block-s231|inter|none|none||8|231|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=send|$RS
x-halo-8p-big-bg10-s232|background|background|background||8|232|RANKS_PER_NODE=4 EMU_BG_US=2500 EMU_BG_PCT=10 EMU_BG_SCOPE=both|$H
x-halo-8p-big-clean-s232|halo|none|none||8|232|RANKS_PER_NODE=4|$H
x-chain-6p-big-mid-s233|chain|imbalance|imbalance|3|6|233||$C --delay-rank 3 --delay-iter 10 --delay-ms 40
x-chain-6p-big-clean-s233|chain|none|none||6|233||$C
x-tree4-9p-big-inner-s234|tree|imbalance|imbalance|1|9|234||$T4 --delay-rank 1 --delay-iter 8 --delay-ms 40
x-tree4-9p-big-clean-s234|tree|none|none||9|234||$T4
x-mw-6p-once-s235|mw|imbalance|imbalance|3|6|235||$M --delay-rank 3 --delay-iter 5 --delay-ms 40
x-groups-8p-big-map-cyclic-s236|inter|mapping|mapping||8|236|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=isend|$G
x-groups-8p-big-map-block-s236|inter|none|none||8|236|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=isend|$G
x-ring-nb-8p-jitter-mid-s237|ring|imbalance|imbalance|5|8|237||$RN --jitter-us 600 --delay-rank 5 --delay-iter 15 --delay-ms 30
x-ring-nb-8p-jitter-clean-s237|ring|none|none||8|237||$RN --jitter-us 600
x-halo-9p-slow2-s238|halo|imbalance|imbalance|2,6|9|238||halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3 --slow-ranks 2,6 --slow-ms 2
x-chain-6p-noreg-mid-s239|chain|imbalance|imbalance|2|6|239||chain --iters 25 --compute-ms 2 --regions 0 --delay-rank 2 --delay-iter 12 --delay-ms 30
CASES
}
