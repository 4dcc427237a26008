# contrib/corpus/probe-mix2.sh — a second mixed probe table (CORPUS_SET=probe-mix2),
# not part of make check, written in session 8 after probe-mix's fixes: the
# mapping, background and noise causes and the oversubscribed clean runs with
# other parameters — 4 ranks per emulated node, latency 0.6 and 4 ms in the
# send, the Isend and the Wait under block and cyclic placement, background at
# 5 % intra-only and 30 % inter-only, an episode over the middle third, a slow
# node, compute noise on a halo and a tree, busy-polling oversubscribed clean
# twins (OVER=1), and delays of 60 ms on 10-rank rings and halos; seeds 61-68.
RN="ring --iters 26 --compute-ms 3"
HN="halo2d --iters 26 --bytes 4096 --allreduce-every 5 --compute-ms 3"
TN="tree --arity 2 --iters 18 --bytes 2048 --compute-ms 3"
BN="RANKS_PER_NODE=4 EMU_BG_US=2000"
cases() {
	cat <<CASES
n-inter-send-cyclic4-s61|inter|mapping|mapping||8|61|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=4000 EMU_INTER_IN=send|$RN --mode parity
n-inter-send-block4-s61|inter|none|none||8|61|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=4000 EMU_INTER_IN=send|$RN --mode parity
n-inter-isend-cyclic4-s62|inter|mapping|mapping||8|62|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=600 EMU_INTER_IN=isend|$RN --mode nb
n-inter-isend-block4-s62|inter|none|none||8|62|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=600 EMU_INTER_IN=isend|$RN --mode nb
n-inter-wait-cyclic4-s63|inter|mapping|mapping||8|63|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=4000 EMU_INTER_IN=wait|$RN --mode nb
n-inter-wait-block4-s63|inter|none|none||8|63|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=4000 EMU_INTER_IN=wait|$RN --mode nb
n-inter-clean-cyclic4-s63|inter|none|none||8|63|RANKS_PER_NODE=4 NODE_MAP=cyclic|$RN --mode nb
n-bg-5-intra-s64|background|background|background||8|64|$BN EMU_BG_PCT=5 EMU_BG_SCOPE=intra|$HN
n-bg-30-inter-s64|background|background|background||8|64|$BN EMU_BG_PCT=30 EMU_BG_SCOPE=inter|$HN
n-bg-episode-s65|background|background|background||8|65|RANKS_PER_NODE=4 EMU_BG_US=1500 EMU_BG_PCT=100 EMU_BG_WINDOW_MS=60:110|$HN
n-bg-node-s65|background|background|background|2,3|8|65|RANKS_PER_NODE=2 EMU_BG_US=2500 EMU_BG_PCT=100 EMU_BG_NODE=1|$HN
n-bg-clean-s64|background|none|none||8|64|RANKS_PER_NODE=4|$HN
n-noise-halo-s66|noise|noise|noise,none||8|66||$HN --jitter-us 2000
n-noise-tree-s66|noise|noise|noise,none||7|66||$TN --jitter-us 2000
n-ring-sr-10p-mid-s67|ring|imbalance|imbalance|6|10|67|OVER=yield|$RN --mode sendrecv --delay-rank 6 --delay-iter 13 --delay-ms 60
n-ring-sr-10p-clean-s67|ring|none|none,noise||10|67|OVER=yield|$RN --mode sendrecv
n-halo-10p-s68|halo|imbalance|imbalance|8|10|68|OVER=yield|$HN --delay-rank 8 --delay-iter 20 --delay-ms 60
n-halo-10p-clean-s68|halo|none|none,noise||10|68|OVER=yield|$HN
n-ring-par-clean-over-s61|ring_parity|none|none,noise||6|61|OVER=1|$RN --mode parity
n-tree2-clean-over-s62|tree2|none|none,noise||7|62|OVER=1|$TN
n-mw-clean-over-s63|mw|none|none,noise||6|63|OVER=1|masterworker --tasks 40 --task-ms 3 --slow-every 0
n-tree2-root-s63|tree2|imbalance|imbalance|0|7|63||$TN --delay-rank 0 --delay-iter 15 --delay-ms 60
n-tree2-clean-s63|tree2|none|none||7|63||$TN
CASES
}
