# contrib/corpus/probe-mix16.sh — a probe table (CORPUS_SET=probe-mix16), not
# part of make check, written in session 15 before any change it might
# suggest: a 24-rank Sendrecv ring delayed late in the run, a slow node of 3
# ranks under a 4 x 3 halo, a binary tree of 31 whose root is delayed early,
# master/worker on 11 ranks with every 5th worker 3x slower, a chain of 8
# whose tail does extra work every 3rd iteration, 3 groups of 5 on nodes of
# 5 with background in 10 % of the sends, a nonblocking ring of 14 on two
# nodes placed cyclically with latency in its Isends (and in blocks: none),
# a 2-rank pair delayed mid-run; clean twins; seeds 351-358.
RS="ring --iters 30 --compute-ms 3 --mode sendrecv"
H12="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
T31="tree --arity 2 --iters 20 --compute-ms 3"
C8="chain --iters 30 --compute-ms 3"
G3="groups --groups 3 --iters 30 --sync-every 2 --compute-ms 3"
RN="ring --iters 30 --compute-ms 3 --mode nb --bytes 4096"
DP="degen --mode pair --iters 40 --compute-ms 3"
cases() {
	cat <<CASES
m16-ring-sr-24p-late-s351|ring|imbalance|imbalance|17|24|351||$RS --delay-rank 17 --delay-iter 26 --delay-ms 40
m16-ring-sr-24p-clean-s351|ring|none|none||24|351||$RS
m16-halo-12p-node-s352|background|background|background|6,7,8|12|352|RANKS_PER_NODE=3 EMU_BG_US=1500 EMU_BG_PCT=100 EMU_BG_NODE=2|$H12
m16-halo-12p-clean-s352|halo|none|none||12|352|RANKS_PER_NODE=3|$H12
m16-tree2-31p-root-s353|tree|imbalance|imbalance|0|31|353||$T31 --delay-rank 0 --delay-iter 5 --delay-ms 40
m16-tree2-31p-clean-s353|tree|none|none||31|353||$T31
m16-mw-11p-slow5x3-s354|mw|imbalance|imbalance|5,10|11|354||masterworker --tasks 100 --task-ms 2 --slow-every 5 --slow-factor 3
m16-mw-11p-clean-s354|mw|none|none||11|354||masterworker --tasks 100 --task-ms 2 --slow-every 0
m16-chain-8p-tail-s355|chain|imbalance|imbalance|7|8|355||$C8 --extra-rank 7 --extra-every 3 --extra-ms 6
m16-chain-8p-clean-s355|chain|none|none||8|355||$C8
m16-groups-15p-bg10-s356|background|background|background||15|356|RANKS_PER_NODE=5 EMU_BG_US=2500 EMU_BG_PCT=10 EMU_BG_SCOPE=both|$G3
m16-groups-15p-clean-s356|groups|none|none||15|356|RANKS_PER_NODE=5|$G3
m16-ring-nb-14p-cyclic-s357|inter|mapping|mapping||14|357|RANKS_PER_NODE=7 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=isend|$RN
m16-ring-nb-14p-block-s357|inter|none|none||14|357|RANKS_PER_NODE=7 NODE_MAP=block EMU_INTER_US=1500 EMU_INTER_IN=isend|$RN
m16-pair-2p-mid-s358|degenerate|imbalance|imbalance|1|2|358||$DP --delay-rank 1 --delay-iter 20 --delay-ms 40
m16-pair-2p-clean-s358|degenerate|none|none||2|358||$DP
CASES
}
