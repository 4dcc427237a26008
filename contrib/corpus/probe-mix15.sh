# contrib/corpus/probe-mix15.sh — a probe table (CORPUS_SET=probe-mix15), not
# part of make check, written in session 15 before any change it might
# suggest: mixes no table uses — a 5 x 4 halo whose rank 13 does extra work
# every 4th iteration, a 3-ary tree of 13 with two persistently slow ranks,
# a 10-rank parity ring with background on one slow link, a chain of 6
# placed cyclically on nodes of 2 with latency in its sends (and placed in
# blocks, already the best placement: none), 4 groups of 3 with 3 user
# regions and a delayed rank, collectives only on 9 ranks with a slow rank,
# a 16-rank nonblocking ring on 4 nodes with an inter-node background
# episode, a 3 x 3 halo with compute jitter; clean twins; seeds 341-348.
H20="halo2d --iters 28 --bytes 4096 --allreduce-every 7 --compute-ms 3"
T13="tree --arity 3 --iters 24 --compute-ms 3"
RP="ring --iters 30 --compute-ms 3 --mode parity"
C6="chain --iters 30 --bytes 4096 --compute-ms 3"
G4="groups --groups 4 --iters 30 --sync-every 3 --compute-ms 3 --regions 3"
DC="degen --mode coll --iters 30 --compute-ms 3"
RN="ring --iters 40 --compute-ms 3 --mode nb"
H9="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
cases() {
	cat <<CASES
m15-halo-20p-extra-s341|halo|imbalance|imbalance|13|20|341||$H20 --extra-rank 13 --extra-every 4 --extra-ms 8
m15-halo-20p-clean-s341|halo|none|none||20|341||$H20
m15-tree3-13p-slow2-s342|tree|imbalance|imbalance|4,9|13|342||$T13 --slow-ranks 4,9 --slow-ms 1
m15-tree3-13p-clean-s342|tree|none|none||13|342||$T13
m15-ring-par-10p-link-s343|background|background|background||10|343|EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_PAIR=3:4|$RP
m15-ring-par-10p-clean-s343|ring|none|none||10|343||$RP
m15-chain-6p-send-cyclic-s344|inter|mapping|mapping||6|344|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$C6
m15-chain-6p-send-block-s344|inter|none|none||6|344|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=send|$C6
m15-groups-12p-reg3-s345|groups|imbalance|imbalance|10|12|345||$G4 --delay-rank 10 --delay-iter 14 --delay-ms 40
m15-groups-12p-reg3-clean-s345|groups|none|none||12|345||$G4
m15-coll-9p-slow-s346|degenerate|imbalance|imbalance|5|9|346||$DC --slow-rank 5 --slow-ms 1
m15-coll-9p-clean-s346|degenerate|none|none||9|346||$DC
m15-ring-nb-16p-episode-s347|background|background|background||16|347|RANKS_PER_NODE=4 EMU_BG_US=2500 EMU_BG_PCT=40 EMU_BG_SCOPE=inter EMU_BG_WINDOW_MS=40:100|$RN
m15-ring-nb-16p-clean-s347|ring|none|none||16|347|RANKS_PER_NODE=4|$RN
m15-halo-9p-noise-s348|noise|noise|noise,none||9|348||$H9 --jitter-us 2500
m15-halo-9p-clean-s348|halo|none|none||9|348||$H9
CASES
}
