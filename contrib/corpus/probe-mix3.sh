# contrib/corpus/probe-mix3.sh — a probe table (CORPUS_SET=probe-mix3), not
# part of make check, written in session 10 after its rules (trends, slow
# groups, quiet periods, order-free tags) and never used to tune them: the
# structures and causes of the other tables once more with what none of them
# combines — slow groups in collective-only code, a 4-ary tree and groups,
# cyclic placement beside a slow rank, a delay in the first iteration of a
# parity ring, two delays on one chain, master/worker with slow workers by
# --slow-every 3 — each with its clean twin; seeds 91-98.
DC="degen --mode coll --iters 30 --compute-ms 3"
T4="tree --arity 4 --iters 20 --bytes 2048 --compute-ms 3"
GM="groups --groups 3 --iters 24 --bytes 4096 --sync-every 6 --compute-ms 3"
HM="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RP="ring --iters 25 --compute-ms 3 --mode parity"
CM="chain --iters 30 --compute-ms 2"
MM="masterworker --tasks 50 --task-ms 3"
cases() {
	cat <<CASES
x-coll-6p-slow2-s91|degenerate|imbalance|imbalance|1,4|6|91||$DC --slow-ranks 1,4 --slow-ms 2
x-coll-6p-clean-s91|degenerate|none|none||6|91||$DC
x-coll-5p-once-s92|degenerate|imbalance|imbalance|3|5|92||$DC --delay-rank 3 --delay-iter 14 --delay-ms 40
x-tree4-9p-slow2-s93|tree4|imbalance|imbalance|5,7|9|93||$T4 --slow-ranks 5,7 --slow-ms 3
x-tree4-9p-clean-s93|tree4|none|none||9|93||$T4
x-groups-9p-slow-s94|groups|imbalance|imbalance|4|9|94||$GM --slow-rank 4 --slow-ms 3
x-groups-9p-clean-s94|groups|none|none||9|94||$GM
x-halo-6p-cyc-slow-s95|halo|imbalance|imbalance,mapping|2|6|95|RANKS_PER_NODE=2 NODE_MAP=cyclic|$HM --slow-rank 2 --slow-ms 3
x-ring-par-6p-first-s96|ring_parity|imbalance|imbalance|3|6|96||$RP --delay-rank 3 --delay-iter 0 --delay-ms 40
x-ring-par-6p-clean-s96|ring_parity|none|none||6|96||$RP
x-chain-6p-two-s97|chain|imbalance|imbalance|2,4|6|97||$CM --delay-rank 2 --delay-iter 8 --delay-ms 40 --delay2-rank 4 --delay2-iter 20 --delay2-ms 40
x-chain-6p-clean-s97|chain|none|none||6|97||$CM
x-mw-7p-slow3-s98|mw|imbalance|imbalance|3,6|7|98||$MM --slow-every 3 --slow-factor 2
x-mw-7p-clean-s98|mw|none|none||7|98||$MM --slow-every 0
CASES
}
