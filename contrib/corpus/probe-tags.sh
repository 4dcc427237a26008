# contrib/corpus/probe-tags.sh — a probe table (CORPUS_SET=probe-tags), not
# part of make check, written in session 14 before the change it was made to
# check: every app that sends point-to-point with the iteration number in
# its tags (`--tags iter`, contrib/apps/common.h: a tag per message between
# two ranks, as many real codes tag), which no other table uses — delays in a
# halo, a nonblocking ring, a chain and at an inner node of a tree, two slow
# ranks of a halo, background on a halo, a parity ring and groups placed
# cyclically with inter-node latency (and their block twins), a slow Sendrecv
# ring; clean twins; seeds 251-260.
H="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3 --tags iter"
RN="ring --iters 30 --compute-ms 3 --mode nb --tags iter"
RP="ring --iters 30 --compute-ms 3 --mode parity --tags iter"
RS="ring --iters 30 --compute-ms 3 --mode sendrecv --tags iter"
C="chain --iters 25 --compute-ms 2 --tags iter"
T2="tree --arity 2 --iters 25 --compute-ms 3 --tags iter"
G="groups --groups 2 --iters 25 --sync-every 5 --compute-ms 3 --tags iter"
cases() {
	cat <<CASES
t-halo-9p-mid-s251|halo|imbalance|imbalance|4|9|251||$H --delay-rank 4 --delay-iter 12 --delay-ms 40
t-halo-9p-clean-s251|halo|none|none||9|251||$H
t-ring-nb-8p-mid-s252|ring|imbalance|imbalance|5|8|252||$RN --delay-rank 5 --delay-iter 15 --delay-ms 40
t-ring-nb-8p-clean-s252|ring|none|none||8|252||$RN
t-chain-6p-mid-s253|chain|imbalance|imbalance|3|6|253||$C --delay-rank 3 --delay-iter 10 --delay-ms 40
t-chain-6p-clean-s253|chain|none|none||6|253||$C
t-tree2-7p-inner-s254|tree|imbalance|imbalance|1|7|254||$T2 --delay-rank 1 --delay-iter 8 --delay-ms 40
t-tree2-7p-clean-s254|tree|none|none||7|254||$T2
t-halo-8p-slow2-s255|halo|imbalance|imbalance|2,5|8|255||$H --slow-ranks 2,5 --slow-ms 2
t-halo-8p-bg10-s256|background|background|background||8|256|RANKS_PER_NODE=4 EMU_BG_US=2500 EMU_BG_PCT=10 EMU_BG_SCOPE=both|$H
t-halo-8p-clean-s256|halo|none|none||8|256|RANKS_PER_NODE=4|$H
t-ring-par-8p-map-cyclic-s257|inter|mapping|mapping||8|257|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=3000 EMU_INTER_IN=send|$RP
t-ring-par-8p-map-block-s257|inter|none|none||8|257|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=3000 EMU_INTER_IN=send|$RP
t-groups-8p-map-cyclic-s258|inter|mapping|mapping||8|258|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=isend|$G
t-groups-8p-map-block-s258|inter|none|none||8|258|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=isend|$G
t-ring-sr-6p-slow-s259|ring|imbalance|imbalance|2|6|259||$RS --slow-rank 2 --slow-ms 2
t-ring-sr-6p-clean-s259|ring|none|none||6|259||$RS
t-groups-8p-delay-s260|groups|imbalance|imbalance|6|8|260||$G --delay-rank 6 --delay-iter 12 --delay-ms 40
CASES
}
