# contrib/corpus/probe-mix9.sh — a probe table (CORPUS_SET=probe-mix9), not
# part of make check, written in session 13 after the hidden-transfer rule
# (docs/rootcause.md §3) on shapes it was not made on: emulated inter-node
# latency inside blocking sends on a 6-rank chain, a 10-rank parity ring and
# a binary tree placed cyclically, with their block and clean twins; a slow
# node under a chain (the counter-example the rule must leave alone); a
# chain's mapping beside a delay; another latency; seeds 221-229.
C="chain --iters 25 --compute-ms 2"
R="ring --iters 30 --compute-ms 3 --mode parity"
T="tree --arity 2 --iters 20 --bytes 4096 --compute-ms 3"
cases() {
	cat <<CASES
n9-chain-6p-map-cyclic-s221|inter|mapping|mapping||6|221|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$C
n9-chain-6p-map-block-s221|inter|none|none||6|221|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=send|$C
n9-chain-6p-clean-cyclic-s221|inter|none|none||6|221|RANKS_PER_NODE=2 NODE_MAP=cyclic|$C
n9-chain-6p-node1-s222|background|background|background|2,3|6|222|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=1|$C
n9-ring-10p-map-cyclic-s223|inter|mapping|mapping||10|223|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2500 EMU_INTER_IN=send|$R
n9-ring-10p-map-block-s223|inter|none|none||10|223|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=2500 EMU_INTER_IN=send|$R
n9-tree2-7p-map-cyclic-s224|inter|mapping|mapping||7|224|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$T
n9-tree2-7p-clean-cyclic-s224|inter|none|none||7|224|RANKS_PER_NODE=2 NODE_MAP=cyclic|$T
n9-chain-8p-map-delay-s225|mixed|mapping|mapping,imbalance|4|8|225|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$C --delay-rank 4 --delay-iter 12 --delay-ms 40
n9-ring-8p-map-cyclic-1500-s226|inter|mapping|mapping||8|226|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=send|$R
n9-ring-8p-node2-s227|background|background|background|4,5|8|227|RANKS_PER_NODE=2 EMU_BG_US=2000 EMU_BG_PCT=100 EMU_BG_NODE=2|$R
n9-ring-8p-clean-s227|ring|none|none||8|227|RANKS_PER_NODE=2|$R
CASES
}
