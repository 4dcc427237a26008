# contrib/corpus/probe-extra.sh — a probe table (CORPUS_SET=probe-extra), not
# part of make check, written at the end of session 11 for the next one: work
# in code only one rank runs (--extra-rank/--extra-every/--extra-ms, common.h:
# a user region "extra_work", as a checkpoint written by rank 0 or a boundary
# routine), which is typical of its own context and so never excess
# (docs/verdicts.md, Limits).  The same plants without user regions
# (--regions 0: the extra work is part of the compute block, found as excess
# today) are the control.  Seeds 171-176.
HM="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RN="ring --iters 30 --compute-ms 3 --mode nb"
T2="tree --arity 2 --iters 20 --bytes 2048 --compute-ms 3"
CM="chain --iters 25 --compute-ms 3"
cases() {
	cat <<CASES
e-halo-8p-extra-s171|halo|imbalance|imbalance|3|8|171||$HM --extra-rank 3 --extra-every 5 --extra-ms 15
e-halo-8p-extra-noreg-s171|halo|imbalance|imbalance|3|8|171||$HM --extra-rank 3 --extra-every 5 --extra-ms 15 --regions 0
e-ring-nb-6p-ckpt0-s172|ring_nb|imbalance|imbalance|0|6|172||$RN --extra-rank 0 --extra-every 6 --extra-ms 20
e-ring-nb-6p-ckpt0-noreg-s172|ring_nb|imbalance|imbalance|0|6|172||$RN --extra-rank 0 --extra-every 6 --extra-ms 20 --regions 0
e-tree2-7p-root-s173|tree2|imbalance|imbalance|0|7|173||$T2 --extra-rank 0 --extra-every 4 --extra-ms 15
e-tree2-7p-leaf-s174|tree2|imbalance|imbalance|5|7|174||$T2 --extra-rank 5 --extra-every 4 --extra-ms 15
e-chain-6p-mid-s175|chain|imbalance|imbalance|2|6|175||$CM --extra-rank 2 --extra-every 5 --extra-ms 15
e-halo-8p-every-s176|halo|imbalance|imbalance|6|8|176||$HM --extra-rank 6 --extra-every 1 --extra-ms 3
CASES
}
