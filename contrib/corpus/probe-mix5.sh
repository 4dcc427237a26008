# contrib/corpus/probe-mix5.sh — a probe table (CORPUS_SET=probe-mix5), not
# part of make check, written in session 11 before any change to the rules:
# what no other table combines — a delay only ~2.7x one compute block, a delay
# in the last iteration, heavy jitter beside a delay, an oversubscribed tree,
# MPI_ANY_SOURCE with a slow rank, a rendezvous Sendrecv ring with a slow
# rank, a chain without user regions, two delays in the same iteration,
# groups joined by their leaders, a 9-rank master/worker delayed once, a long
# MPI_Init beside a slow 4-ary tree node, a parity ring of odd size — each
# with its clean twin; seeds 111-124.
HM="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RN="ring --iters 30 --compute-ms 2 --mode nb"
T2="tree --arity 2 --iters 20 --bytes 2048 --compute-ms 3"
AS="degen --mode anysrc --iters 25 --compute-ms 3"
RB="ring --iters 25 --compute-ms 3 --mode sendrecv --bytes 262144"
CN="chain --iters 25 --compute-ms 3 --regions 0"
GL="groups --groups 2 --iters 24 --bytes 4096 --compute-ms 3"
MM="masterworker --tasks 60 --task-ms 3 --slow-every 0"
T4="tree --arity 4 --iters 20 --bytes 2048 --compute-ms 3"
RP="ring --iters 25 --compute-ms 3 --mode parity"
cases() {
	cat <<CASES
z-halo-8p-small-s111|halo|imbalance|imbalance|5|8|111||$HM --delay-rank 5 --delay-iter 12 --delay-ms 8
z-halo-8p-clean-s111|halo|none|none||8|111||$HM
z-ring-nb-6p-last-s112|ring_nb|imbalance|imbalance|2|6|112||$RN --delay-rank 2 --delay-iter 29 --delay-ms 30
z-ring-nb-6p-clean-s112|ring_nb|none|none||6|112||$RN
z-halo-8p-jit-s113|halo|imbalance|imbalance|6|8|113||$HM --jitter-us 1500 --delay-rank 6 --delay-iter 10 --delay-ms 30
z-halo-8p-jit-clean-s113|halo|none|none,noise||8|113||$HM --jitter-us 1500
z-tree2-7p-over-s114|tree2|imbalance|imbalance|3|7|114|OVER=yield|$T2 --delay-rank 3 --delay-iter 7 --delay-ms 40
z-tree2-7p-over-clean-s114|tree2|none|none,noise||7|114|OVER=yield|$T2
z-anysrc-6p-slow-s115|degenerate|imbalance|imbalance|3|6|115||$AS --slow-rank 3 --slow-ms 3
z-anysrc-6p-clean-s115|degenerate|none|none||6|115||$AS
z-ring-big-6p-slow-s116|ring|imbalance|imbalance|4|6|116||$RB --slow-rank 4 --slow-ms 3
z-ring-big-6p-clean-s116|ring|none|none||6|116||$RB
z-chain-6p-noreg-s117|chain|imbalance|imbalance|3|6|117||$CN --delay-rank 3 --delay-iter 10 --delay-ms 40
z-chain-6p-noreg-clean-s117|chain|none|none||6|117||$CN
z-halo-9p-same-s118|halo|imbalance|imbalance|2,7|9|118||$HM --delay-rank 2 --delay-iter 10 --delay-ms 30 --delay2-rank 7 --delay2-iter 10 --delay2-ms 30
z-halo-9p-clean-s118|halo|none|none||9|118||$HM
z-groups-8p-lead-s119|groups|imbalance|imbalance|5|8|119||$GL --delay-rank 5 --delay-iter 6 --delay-ms 40
z-groups-8p-lead-clean-s119|groups|none|none||8|119||$GL
z-mw-9p-once-s120|mw|imbalance|imbalance|2|9|120||$MM --delay-rank 2 --delay-iter 5 --delay-ms 40
z-mw-9p-clean-s120|mw|none|none||9|120||$MM
z-pad-tree4-9p-slow-s121|tree4|imbalance|imbalance|6|9|121|INIT_PAD_MS=2000|$T4 --slow-rank 6 --slow-ms 3
z-pad-tree4-9p-clean-s121|tree4|none|none||9|121|INIT_PAD_MS=2000|$T4
z-ring-par-7p-s122|ring_parity|imbalance|imbalance|3|7|122||$RP --delay-rank 3 --delay-iter 11 --delay-ms 40
z-ring-par-7p-clean-s122|ring_parity|none|none||7|122||$RP
CASES
}
