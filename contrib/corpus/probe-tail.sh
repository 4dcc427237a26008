# contrib/corpus/probe-tail.sh — a probe table (CORPUS_SET=probe-tail), not
# part of make check, written in session 15 with the place rule for a rank's
# own place (docs/rootcause.md §3, "Places"): extra work in a user region of
# a rank whose place no other rank has — a chain's tail every 2nd or 5th
# iteration, the same without user regions, a chain's head, a binary tree's
# root; a chain whose compute is split into 3 user regions and a plain
# chain, clean; seeds 361-368.
C8="chain --iters 30 --compute-ms 3"
C5="chain --iters 30 --compute-ms 3"
T15="tree --arity 2 --iters 24 --compute-ms 3"
cases() {
	cat <<CASES
t-chain-8p-tail-every2-s361|chain|imbalance|imbalance|7|8|361||$C8 --extra-rank 7 --extra-every 2 --extra-ms 4
t-chain-5p-tail-every5-s362|chain|imbalance|imbalance|4|5|362||$C5 --extra-rank 4 --extra-every 5 --extra-ms 10
t-chain-8p-tail-noreg-s363|chain|imbalance|imbalance|7|8|363||$C8 --extra-rank 7 --extra-every 3 --extra-ms 6 --regions 0
t-chain-8p-head-s364|chain|imbalance|imbalance|0|8|364||$C8 --extra-rank 0 --extra-every 3 --extra-ms 6
t-tree2-15p-root-s365|tree|imbalance|imbalance|0|15|365||$T15 --extra-rank 0 --extra-every 4 --extra-ms 8
t-chain-8p-reg3-clean-s366|chain|none|none||8|366||$C8 --regions 3
t-chain-8p-clean-s367|chain|none|none||8|367||$C8
t-chain-5p-clean-s368|chain|none|none||5|368||$C5
CASES
}
