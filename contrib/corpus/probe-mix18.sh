# contrib/corpus/probe-mix18.sh — a probe table (CORPUS_SET=probe-mix18), not
# part of make check, written in session 15 after the rule for a place of
# one rank's own (docs/rootcause.md §3), before any change for this table:
# ranks whose place is theirs alone or shared by few — the centre of a 3 x 3
# halo (4 neighbours; the others 2 or 3) with extra work every 3rd iteration
# or slow throughout, a corner of it with the same extra work, a 3-ary
# tree's root with extra work, a chain's head and tail slow throughout;
# clean twins (the halo with 3 user regions); seeds 391-397.
H9="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
T13="tree --arity 3 --iters 24 --compute-ms 3"
C6="chain --iters 30 --compute-ms 3"
cases() {
	cat <<CASES
m18-halo-9p-centre-extra-s391|halo|imbalance|imbalance|4|9|391||$H9 --extra-rank 4 --extra-every 3 --extra-ms 6
m18-halo-9p-corner-extra-s392|halo|imbalance|imbalance|0|9|392||$H9 --extra-rank 0 --extra-every 3 --extra-ms 6
m18-halo-9p-centre-slow-s393|halo|imbalance|imbalance|4|9|393||$H9 --slow-rank 4 --slow-ms 1
m18-tree3-13p-root-extra-s394|tree|imbalance|imbalance|0|13|394||$T13 --extra-rank 0 --extra-every 3 --extra-ms 6
m18-chain-6p-head-slow-s395|chain|imbalance|imbalance|0|6|395||$C6 --slow-rank 0 --slow-ms 1
m18-chain-6p-tail-slow-s396|chain|imbalance|imbalance|5|6|396||$C6 --slow-rank 5 --slow-ms 1
m18-halo-9p-reg3-clean-s397|halo|none|none||9|397||$H9 --regions 3
m18-halo-9p-clean-s391|halo|none|none||9|391||$H9
m18-tree3-13p-clean-s394|tree|none|none||13|394||$T13
m18-chain-6p-clean-s395|chain|none|none||6|395||$C6
CASES
}
