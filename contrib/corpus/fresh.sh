# contrib/corpus/fresh.sh — a third case table (CORPUS_SET=fresh), written
# after the method was frozen and never used to tune it: the structures and
# causes of the main table with parameters neither main nor holdout uses:
# 3, 7, 9, 10 and 11 ranks (10 and more oversubscribe a 2-core machine:
# OVER=yield, clean twins accept noise), compute of 2 and 5 ms, delays of 40,
# 60 and 120 ms, delays in the second and third quarter, seeds 11-14, a 5-ary
# tree, a 3x3 halo, 4 groups of 2 and 2 groups of 5, 128 KiB rendezvous rings,
# 2 and 5 ranks per emulated node, inter-node latency of 0.8 and 2.5 ms,
# background at 8, 20 and 30 %, a slow link between other ranks.  Every planted
# case has a clean twin of the same shape.  Line format: contrib/run-corpus.sh.

RF="ring --iters 30 --compute-ms 2"
RG="ring --iters 20 --compute-ms 5 --bytes 131072"
CF="chain --iters 30 --compute-ms 2"
T5="tree --arity 5 --iters 20 --bytes 2048 --compute-ms 2"
T2F="tree --arity 2 --iters 20 --bytes 4096 --compute-ms 5"
HF="halo2d --iters 30 --bytes 8192 --allreduce-every 7 --compute-ms 2"
HG="halo2d --iters 20 --bytes 2048 --allreduce-every 3 --compute-ms 5"
MF="masterworker --tasks 50 --task-ms 2 --slow-every 0"
GF="groups --groups 4 --iters 30 --bytes 4096 --sync-every 6 --compute-ms 2"
GG="groups --groups 2 --iters 20 --bytes 8192 --sync-every 5 --compute-ms 5"
BF="halo2d --iters 40 --bytes 4096 --allreduce-every 8 --compute-ms 2"
BRF="ring --iters 30 --compute-ms 2 --mode nb"
cases() {
	cat <<CASES
f-ring-sr-7p-mid-s11|ring|imbalance|imbalance|5|7|11||$RF --mode sendrecv --delay-rank 5 --delay-iter 12 --delay-ms 40
f-ring-sr-7p-clean-s11|ring|none|none||7|11||$RF --mode sendrecv
f-ring-big-3p-q3-s12|ring|imbalance|imbalance|2|3|12||$RG --mode sendrecv --delay-rank 2 --delay-iter 14 --delay-ms 60
f-ring-big-3p-clean-s12|ring|none|none||3|12||$RG --mode sendrecv
f-ring-par-7p-s13|ring_parity|imbalance|imbalance|6|7|13||$RF --mode parity --delay-rank 6 --delay-iter 20 --delay-ms 40
f-ring-par-7p-clean-s13|ring_parity|none|none||7|13||$RF --mode parity
f-ring-nb-10p-s14|ring_nb|imbalance|imbalance|4|10|14|OVER=yield|$RG --mode nb --delay-rank 4 --delay-iter 8 --delay-ms 120
f-ring-nb-10p-clean-s14|ring_nb|none|none,noise||10|14|OVER=yield|$RG --mode nb
f-chain-7p-s11|chain|imbalance|imbalance|4|7|11||$CF --delay-rank 4 --delay-iter 18 --delay-ms 40
f-chain-7p-clean-s11|chain|none|none||7|11||$CF
f-chain-3p-first-s12|chain|imbalance|imbalance|0|3|12||$CF --delay-rank 0 --delay-iter 9 --delay-ms 60
f-chain-3p-clean-s12|chain|none|none||3|12||$CF
f-tree5-leaf-7p-s13|tree5|imbalance|imbalance|6|7|13||$T5 --delay-rank 6 --delay-iter 11 --delay-ms 40
f-tree5-inner-7p-s14|tree5|imbalance|imbalance|1|7|14||$T5 --delay-rank 1 --delay-iter 7 --delay-ms 60
f-tree5-root-7p-s11|tree5|imbalance|imbalance|0|7|11||$T5 --delay-rank 0 --delay-iter 13 --delay-ms 40
f-tree5-7p-clean-s13|tree5|none|none||7|13||$T5
f-tree2-9p-leaf-s12|tree2|imbalance|imbalance|8|9|12||$T2F --delay-rank 8 --delay-iter 12 --delay-ms 60
f-tree2-9p-clean-s12|tree2|none|none||9|12||$T2F
f-halo-9p-once-s11|halo|imbalance|imbalance|4|9|11||$HF --delay-rank 4 --delay-iter 17 --delay-ms 40
f-halo-9p-clean-s11|halo|none|none||9|11||$HF
f-halo-7p-slow-s12|halo|imbalance|imbalance|6|7|12||$HG --slow-rank 6 --slow-ms 2
f-halo-7p-clean-s12|halo|none|none||7|12||$HG
f-halo-10p-two-s13|halo|imbalance|imbalance|3,8|10|13|OVER=yield|$HG --delay-rank 3 --delay-iter 6 --delay-ms 120 --delay2-rank 8 --delay2-iter 14 --delay2-ms 60
f-halo-10p-clean-s13|halo|none|none,noise||10|13|OVER=yield|$HG
f-mw-7p-ramp-s11|mw|imbalance|imbalance|6|7|11||$MF --ramp-ms 1
f-mw-7p-once-s12|mw|imbalance|imbalance|2|7|12||$MF --delay-rank 2 --delay-iter 3 --delay-ms 60
f-mw-7p-flat-s11|mw|none|none||7|11||$MF
f-groups2-8p-s13|groups|imbalance|imbalance|5|8|13||$GF --delay-rank 5 --delay-iter 16 --delay-ms 40
f-groups2-8p-clean-s13|groups|none|none||8|13||$GF
f-groups5-10p-s14|groups|imbalance|imbalance|7|10|14|OVER=yield|$GG --delay-rank 7 --delay-iter 11 --delay-ms 120
f-groups5-10p-clean-s14|groups|none|none,noise||10|14|OVER=yield|$GG
f-inter-send-cyclic2-s11|inter|mapping|mapping||6|11|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2500 EMU_INTER_IN=send|$RF --mode parity
f-inter-send-block2-s11|inter|none|none||6|11|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=2500 EMU_INTER_IN=send|$RF --mode parity
f-inter-isend-cyclic5-s12|inter|mapping|mapping||10|12|RANKS_PER_NODE=5 NODE_MAP=cyclic EMU_INTER_US=800 EMU_INTER_IN=isend OVER=yield|$BRF
f-inter-clean-cyclic5-s12|inter|none|none,noise||10|12|RANKS_PER_NODE=5 NODE_MAP=cyclic OVER=yield|$BRF
f-inter-wait-cyclic2-s13|inter|mapping|mapping||6|13|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2500 EMU_INTER_IN=wait|$RF --mode nb
f-inter-clean-cyclic2-s13|inter|none|none||6|13|RANKS_PER_NODE=2 NODE_MAP=cyclic|$RF --mode nb
f-bg-8-both-s11|background|background|background||9|11|RANKS_PER_NODE=3 EMU_BG_US=2500 EMU_BG_PCT=8 EMU_BG_SCOPE=both|$BF
f-bg-20-intra-s12|background|background|background||9|12|RANKS_PER_NODE=3 EMU_BG_US=1500 EMU_BG_PCT=20 EMU_BG_SCOPE=intra|$BF
f-bg-30-inter-s13|background|background|background||9|13|RANKS_PER_NODE=3 EMU_BG_US=1200 EMU_BG_PCT=30 EMU_BG_SCOPE=inter|$BF
f-bg-clean-s11|background|none|none||9|11|RANKS_PER_NODE=3|$BF
f-bg-link-s14|background|background|background|3,4|7|14|RANKS_PER_NODE=2 EMU_BG_US=3000 EMU_BG_PCT=100 EMU_BG_PAIR=3:4|$BRF
f-bg-link-clean-s14|background|none|none||7|14|RANKS_PER_NODE=2|$BRF
f-noise-ring-s12|noise|noise|noise,none||7|12||$RF --mode sendrecv --jitter-us 4000
f-noise-mw-s13|noise|noise|noise,none||7|13||$MF --jitter-us 3000
f-pad-halo-9p|halo|imbalance|imbalance|4|9|11|INIT_PAD_MS=2000|$HF --delay-rank 4 --delay-iter 17 --delay-ms 40
f-pad-halo-9p-clean|halo|none|none||9|11|INIT_PAD_MS=2000|$HF
CASES
}
