# contrib/corpus/probe-mix4.sh — a probe table (CORPUS_SET=probe-mix4), not
# part of make check, written at the end of session 10 after its rules and
# never used to tune them: a slow inner node of a binary tree, a slow group
# with cyclic placement and inter-node latency, a late background episode on
# a nonblocking ring beside a delay, a slow group in two of three groups, a
# chain whose last two ranks are slow, a halo where half the ranks are slow;
# with clean twins; seeds 101-106.
T2="tree --arity 2 --iters 20 --bytes 4096 --compute-ms 3"
HM="halo2d --iters 25 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RN="ring --iters 40 --compute-ms 2 --mode nb"
GM="groups --groups 3 --iters 24 --bytes 4096 --sync-every 6 --compute-ms 3"
CM="chain --iters 25 --compute-ms 3"
cases() {
	cat <<CASES
y-tree2-7p-inner-slow-s101|tree2|imbalance|imbalance|1|7|101||$T2 --slow-rank 1 --slow-ms 3
y-tree2-7p-clean-s101|tree2|none|none||7|101||$T2
y-halo-8p-cyc-slow2-s102|halo|imbalance|imbalance,mapping|2,5|8|102|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=300|$HM --slow-ranks 2,5 --slow-ms 3
y-halo-8p-cyc-clean-s102|halo|mapping|mapping,none||8|102|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=300|$HM
y-ring-6p-late-delay-s103|background|background|background,imbalance||6|103|RANKS_PER_NODE=3 EMU_BG_US=1500 EMU_BG_PCT=100 EMU_BG_WINDOW_MS=30:100000|$RN --delay-rank 4 --delay-iter 5 --delay-ms 30
y-groups-9p-slow2-s104|groups|imbalance|imbalance|1,4|9|104||$GM --slow-ranks 1,4 --slow-ms 3
y-chain-6p-tail2-s105|chain|imbalance|imbalance|4,5|6|105||$CM --slow-ranks 4,5 --slow-ms 3
y-chain-6p-clean-s105|chain|none|none||6|105||$CM
y-halo-8p-half-s106|halo|imbalance|imbalance|0,2,4,6|8|106||$HM --slow-ranks 0,2,4,6 --slow-ms 3
y-halo-8p-clean-s106|halo|none|none||8|106||$HM
CASES
}
