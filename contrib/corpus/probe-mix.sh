# contrib/corpus/probe-mix.sh — a probe table (CORPUS_SET=probe-mix), not part
# of make check, written in session 8 after the method of that session was
# fixed: every structure and cause of the main table once more with parameters
# no other table uses — 5, 6 and 12 ranks, 4 and 6 ms compute, 25 and 150 ms
# delays, early and last iterations, a 3-ary tree, 3 groups of 4, a 3x2 halo,
# 3 ranks per emulated node with 1.5 ms latency in the Wait, background at 15 %
# and 40 %, seeds 51-58; each planted case beside a clean twin.
RM="ring --iters 24 --compute-ms 4"
CM="chain --iters 24 --compute-ms 4"
T3="tree --arity 3 --iters 18 --bytes 1024 --compute-ms 4"
HM="halo2d --iters 24 --bytes 2048 --allreduce-every 6 --compute-ms 4"
MM="masterworker --tasks 40 --task-ms 6 --slow-every 0"
GM="groups --groups 3 --iters 24 --bytes 4096 --sync-every 8 --compute-ms 4"
BM="RANKS_PER_NODE=3 EMU_BG_US=2500"
cases() {
	cat <<CASES
m-ring-sr-6p-early-s51|ring|imbalance|imbalance|2|6|51||$RM --mode sendrecv --delay-rank 2 --delay-iter 2 --delay-ms 25
m-ring-sr-6p-clean-s51|ring|none|none||6|51||$RM --mode sendrecv
m-ring-nb-12p-last-s52|ring_nb|imbalance|imbalance|11|12|52|OVER=yield|$RM --mode nb --delay-rank 11 --delay-iter 22 --delay-ms 150
m-ring-nb-12p-clean-s52|ring_nb|none|none,noise||12|52|OVER=yield|$RM --mode nb
m-ring-par-5p-s53|ring_parity|imbalance|imbalance|1|5|53||$RM --mode parity --delay-rank 1 --delay-iter 9 --delay-ms 25
m-ring-par-5p-clean-s53|ring_parity|none|none||5|53||$RM --mode parity
m-chain-5p-last-s54|chain|imbalance|imbalance|4|5|54||$CM --delay-rank 4 --delay-iter 15 --delay-ms 25
m-chain-5p-clean-s54|chain|none|none||5|54||$CM
m-tree3-inner-13p-s55|tree3|imbalance|imbalance|2|13|55|OVER=yield|$T3 --delay-rank 2 --delay-iter 6 --delay-ms 150
m-tree3-leaf-13p-s55|tree3|imbalance|imbalance|11|13|55|OVER=yield|$T3 --delay-rank 11 --delay-iter 12 --delay-ms 150
m-tree3-13p-clean-s55|tree3|none|none,noise||13|55|OVER=yield|$T3
m-halo-6p-two-s56|halo|imbalance|imbalance|0,5|6|56||$HM --delay-rank 0 --delay-iter 4 --delay2-rank 5 --delay2-iter 18 --delay-ms 25 --delay2-ms 25
m-halo-6p-slow-s56|halo|imbalance|imbalance|4|6|56||$HM --slow-rank 4 --slow-ms 2
m-halo-6p-clean-s56|halo|none|none||6|56||$HM
m-mw-6p-once-s57|mw|imbalance|imbalance|3|6|57||$MM --delay-rank 3 --delay-iter 2 --delay-ms 150
m-mw-6p-clean-s57|mw|none|none||6|57||$MM
m-groups-12p-s58|groups|imbalance|imbalance|7|12|58|OVER=yield|$GM --delay-rank 7 --delay-iter 10 --delay-ms 150
m-groups-12p-clean-s58|groups|none|none,noise||12|58|OVER=yield|$GM
m-inter-wait-cyclic3-s51|inter|mapping|mapping||6|51|RANKS_PER_NODE=3 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=wait|$RM --mode nb
m-inter-wait-block3-s51|inter|none|none||6|51|RANKS_PER_NODE=3 NODE_MAP=block EMU_INTER_US=1500 EMU_INTER_IN=wait|$RM --mode nb
m-inter-clean-cyclic3-s51|inter|none|none||6|51|RANKS_PER_NODE=3 NODE_MAP=cyclic|$RM --mode nb
m-bg-15-both-s52|background|background|background||6|52|$BM EMU_BG_PCT=15 EMU_BG_SCOPE=both|$HM
m-bg-40-intra-s53|background|background|background||6|53|$BM EMU_BG_PCT=40 EMU_BG_SCOPE=intra|$HM
m-bg-clean-s52|background|none|none||6|52|RANKS_PER_NODE=3|$HM
m-noise-chain-s54|noise|noise|noise,none||6|54||$CM --jitter-us 2000
m-mixed-isend-s55|mixed|mapping|mapping,imbalance|2|6|55|RANKS_PER_NODE=3 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=isend|$RM --mode nb --delay-rank 2 --delay-iter 14 --delay-ms 150
m-degen-coll-4p-s56|degenerate|imbalance|imbalance|3|4|56||degen --mode coll --delay-rank 3 --delay-iter 5 --delay-ms 25
m-degen-coll-4p-clean-s56|degenerate|none|none||4|56||degen --mode coll
m-degen-anysrc-3p-s57|degenerate|imbalance|imbalance|2|3|57||degen --mode anysrc --delay-rank 2 --delay-iter 4 --delay-ms 25
m-pad-chain-5p-s58|chain|imbalance|imbalance|2|5|58|INIT_PAD_MS=800|$CM --delay-rank 2 --delay-iter 8 --delay-ms 25
m-pad-chain-5p-clean-s58|chain|none|none||5|58|INIT_PAD_MS=800|$CM
CASES
}
