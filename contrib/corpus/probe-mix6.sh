# contrib/corpus/probe-mix6.sh — a probe table (CORPUS_SET=probe-mix6), not
# part of make check, written in session 11 after the parallel-delays rule
# and never used to tune it: a busy-polling oversubscribed halo with a delay,
# the head of a 10-rank chain delayed, a 3-ary tree's root delayed in the last
# iteration, a collective-heavy halo (an Allreduce every iteration) with a
# delay, a slow node under a binary tree, a slow link on a parity ring,
# background on 10 % of the intra-node sends of a halo, a 9-rank
# master/worker ramp, collectives only with two delays in different
# iterations, a small delay (10 ms) under 1 ms of jitter on a Sendrecv ring;
# clean twins; seeds 141-150.
HM="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
HA="halo2d --iters 25 --bytes 4096 --allreduce-every 1 --compute-ms 3"
C10="chain --iters 20 --compute-ms 2"
T3="tree --arity 3 --iters 20 --bytes 2048 --compute-ms 3"
T2="tree --arity 2 --iters 20 --bytes 4096 --compute-ms 3"
RP="ring --iters 30 --compute-ms 2 --mode parity"
MR="masterworker --tasks 60 --task-ms 3 --slow-every 0"
DC="degen --mode coll --iters 30 --compute-ms 3"
RS="ring --iters 30 --compute-ms 3 --mode sendrecv --jitter-us 1000"
cases() {
	cat <<CASES
q-halo-6p-over1-s141|halo|imbalance|imbalance|3|6|141|OVER=1|$HM --delay-rank 3 --delay-iter 12 --delay-ms 60
q-halo-6p-over1-clean-s141|halo|none|none,noise||6|141|OVER=1|$HM
q-chain-10p-head-s142|chain|imbalance|imbalance|0|10|142|OVER=yield|$C10 --delay-rank 0 --delay-iter 7 --delay-ms 40
q-chain-10p-clean-s142|chain|none|none,noise||10|142|OVER=yield|$C10
q-tree3-13p-root-last-s143|tree3|imbalance|imbalance|0|13|143|OVER=yield|$T3 --delay-rank 0 --delay-iter 19 --delay-ms 40
q-tree3-13p-clean-s143|tree3|none|none,noise||13|143|OVER=yield|$T3
q-halo-8p-coll-s144|halo|imbalance|imbalance|5|8|144||$HA --delay-rank 5 --delay-iter 9 --delay-ms 30
q-halo-8p-coll-clean-s144|halo|none|none||8|144||$HA
q-tree2-7p-node-s145|background|background|background|2,3|7|145|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=1|$T2
q-tree2-7p-node-clean-s145|tree2|none|none||7|145|RANKS_PER_NODE=2|$T2
q-ring-par-8p-link-s146|background|background|background|5,6|8|146|RANKS_PER_NODE=4 EMU_BG_US=2500 EMU_BG_PCT=100 EMU_BG_PAIR=5:6|$RP
q-ring-par-8p-link-clean-s146|ring_parity|none|none||8|146|RANKS_PER_NODE=4|$RP
q-halo-8p-bg10-s147|background|background|background||8|147|RANKS_PER_NODE=4 EMU_BG_US=2500 EMU_BG_PCT=10 EMU_BG_SCOPE=intra|$HM
q-halo-8p-bg10-clean-s147|halo|none|none||8|147|RANKS_PER_NODE=4|$HM
q-mw-9p-ramp-s148|mw|imbalance|imbalance|8|9|148||$MR --ramp-ms 1
q-mw-9p-clean-s148|mw|none|none||9|148||$MR
q-coll-6p-two-s149|degenerate|imbalance|imbalance|1,4|6|149||$DC --delay-rank 1 --delay-iter 6 --delay-ms 40 --delay2-rank 4 --delay2-iter 21 --delay2-ms 40
q-coll-6p-clean-s149|degenerate|none|none||6|149||$DC
q-ring-sr-6p-small-s150|ring|imbalance|imbalance|2|6|150||$RS --delay-rank 2 --delay-iter 14 --delay-ms 10
q-ring-sr-6p-clean-s150|ring|none|none,noise||6|150||$RS
CASES
}
