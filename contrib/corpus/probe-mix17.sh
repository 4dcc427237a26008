# contrib/corpus/probe-mix17.sh — a probe table (CORPUS_SET=probe-mix17), not
# part of make check, written in session 15 before any change it might
# suggest: a 2 x 2 halo delayed once, a 4-ary tree of 21 with a slow inner
# rank, two delays of a nonblocking ring in different iterations, 4 groups
# of 4 with a slow node under one group, a chain of 12 tagged by iteration
# delayed mid-run, a Sendrecv ring of rendezvous messages with a slow rank,
# master/worker whose worker 3 does extra work every 4th task, a parity ring
# of 12 on nodes of 3 placed cyclically with latency in its sends (and in
# blocks: none); clean twins; seeds 371-378.
H4="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
T21="tree --arity 4 --iters 24 --compute-ms 3"
RN="ring --iters 30 --compute-ms 3 --mode nb"
G16="groups --groups 4 --iters 30 --sync-every 5 --compute-ms 3"
CT="chain --iters 30 --compute-ms 2 --tags iter"
RB="ring --iters 25 --compute-ms 3 --mode sendrecv --bytes 262144"
MW="masterworker --tasks 60 --task-ms 2 --slow-every 0"
RP="ring --iters 30 --compute-ms 3 --mode parity --bytes 4096"
cases() {
	cat <<CASES
m17-halo-4p-once-s371|halo|imbalance|imbalance|3|4|371||$H4 --delay-rank 3 --delay-iter 20 --delay-ms 40
m17-halo-4p-clean-s371|halo|none|none||4|371||$H4
m17-tree4-21p-inner-s372|tree|imbalance|imbalance|2|21|372||$T21 --slow-rank 2 --slow-ms 1
m17-tree4-21p-clean-s372|tree|none|none||21|372||$T21
m17-ring-nb-6p-two-s373|ring|imbalance|imbalance|1|6|373||$RN --delay-rank 1 --delay-iter 8 --delay-ms 40 --delay2-rank 4 --delay2-iter 20 --delay2-ms 40
m17-ring-nb-6p-clean-s373|ring|none|none||6|373||$RN
m17-groups-16p-node-s374|background|background|background|4,5,6,7|16|374|RANKS_PER_NODE=4 EMU_BG_US=1500 EMU_BG_PCT=100 EMU_BG_NODE=1|$G16
m17-groups-16p-clean-s374|groups|none|none||16|374|RANKS_PER_NODE=4|$G16
m17-chain-12p-tags-s375|chain|imbalance|imbalance|6|12|375||$CT --delay-rank 6 --delay-iter 15 --delay-ms 40
m17-chain-12p-tags-clean-s375|chain|none|none||12|375||$CT
m17-ring-big-8p-slow-s376|ring|imbalance|imbalance|2|8|376||$RB --slow-rank 2 --slow-ms 1
m17-ring-big-8p-clean-s376|ring|none|none||8|376||$RB
m17-mw-6p-worker-s377|mw|imbalance|imbalance|3|6|377||$MW --extra-rank 3 --extra-every 4 --extra-ms 6
m17-mw-6p-clean-s377|mw|none|none||6|377||$MW
m17-ring-par-12p-cyclic-s378|inter|mapping|mapping||12|378|RANKS_PER_NODE=3 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$RP
m17-ring-par-12p-block-s378|inter|none|none||12|378|RANKS_PER_NODE=3 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=send|$RP
CASES
}
