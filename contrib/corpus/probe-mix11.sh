# contrib/corpus/probe-mix11.sh — a probe table (CORPUS_SET=probe-mix11), not
# part of make check, written in session 14 before any change it might
# suggest: parameters no other table uses — a long halo (150 iterations of
# 1 ms) with a delay of 20 ms late in the run, a nonblocking ring of 1 ms
# compute under 800 us of jitter, a delay in the last iteration of a chain, a
# slow rank only 20 % slower, collectives only on 8 ranks, the root of a
# 4-ary tree of 13 ranks late at the start, the middle one of 3 groups, two
# delays of one rank in a 4-rank Sendrecv ring, a master/worker ramp on 8
# ranks; clean twins; seeds 271-280.
HL="halo2d --iters 150 --bytes 2048 --allreduce-every 10 --compute-ms 1"
RN="ring --iters 40 --compute-ms 1 --mode nb --jitter-us 800"
C="chain --iters 30 --compute-ms 2"
H="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
DC="degen --mode coll --compute-ms 4 --iters 30"
T4="tree --arity 4 --iters 20 --compute-ms 3"
G3="groups --groups 3 --iters 30 --sync-every 6 --compute-ms 3"
RS="ring --iters 30 --compute-ms 3 --mode sendrecv"
M="masterworker --tasks 80 --task-ms 2 --slow-every 0"
cases() {
	cat <<CASES
m11-halo-9p-long-late-s271|halo|imbalance|imbalance|5|9|271||$HL --delay-rank 5 --delay-iter 120 --delay-ms 20
m11-halo-9p-long-clean-s271|halo|none|none||9|271||$HL
m11-ring-nb-8p-jit-mid-s272|ring|imbalance|imbalance|3|8|272||$RN --delay-rank 3 --delay-iter 25 --delay-ms 15
m11-ring-nb-8p-jit-clean-s272|ring|none|none||8|272||$RN
m11-chain-7p-lastiter-s273|chain|imbalance|imbalance|2|7|273||$C --delay-rank 2 --delay-iter 29 --delay-ms 30
m11-chain-7p-clean-s273|chain|none|none||7|273||$C
m11-halo-8p-slow20-s274|halo|imbalance|imbalance|6|8|274||$H --slow-rank 6 --slow-ms 1
m11-halo-8p-clean-s274|halo|none|none||8|274||$H
m11-coll-8p-mid-s275|degenerate|imbalance|imbalance|5|8|275||$DC --delay-rank 5 --delay-iter 14 --delay-ms 30
m11-coll-8p-clean-s275|degenerate|none|none||8|275||$DC
m11-tree4-13p-root0-s276|tree|imbalance|imbalance|0|13|276||$T4 --delay-rank 0 --delay-iter 0 --delay-ms 40
m11-tree4-13p-clean-s276|tree|none|none||13|276||$T4
m11-groups3-9p-mid-s277|groups|imbalance|imbalance|4|9|277||$G3 --delay-rank 4 --delay-iter 16 --delay-ms 40
m11-groups3-9p-clean-s277|groups|none|none||9|277||$G3
m11-ring-sr-4p-two-s278|ring|imbalance|imbalance|1|4|278||$RS --delay-rank 1 --delay-iter 8 --delay-ms 30 --delay2-rank 1 --delay2-iter 22 --delay2-ms 30
m11-ring-sr-4p-clean-s278|ring|none|none||4|278||$RS
m11-mw-8p-ramp-s279|mw|imbalance|imbalance|7|8|279||$M --ramp-ms 1
m11-mw-8p-clean-s279|mw|none|none||8|279||$M
CASES
}
