# contrib/corpus/probe-link2.sh — a probe table (CORPUS_SET=probe-link2), not
# part of make check, written in session 17 after the per-link stall rate
# (docs/verdicts.md, "Background on a link") was built on probe-link: shapes
# and plants it was not made on.  One link whose sends stall in 15 to 40 % of
# its messages, 1.5 to 5 ms, under a binary tree (an inner link), a 3-ary
# tree (a link of the root), a master/worker run (a master's link), 4 groups
# of 3 (a link inside a group), a 4 x 4 halo (20 %), a nonblocking ring of 16
# (40 %, 1.5 ms), a chain (15 %, 4 ms), a parity ring on nodes of 2 (an
# inter-node link), and a halo on 3 nodes whose node 1 has the background
# (every link of its ranks); clean twins of every shape; seeds 701-709.
T15="tree --arity 2 --iters 24 --compute-ms 3"
T13="tree --arity 3 --iters 24 --compute-ms 3"
MW="masterworker --tasks 80 --task-ms 2 --slow-every 0"
G4="groups --groups 4 --iters 30 --sync-every 3 --compute-ms 3"
H16="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RN16="ring --iters 30 --compute-ms 3 --mode nb"
C10="chain --iters 30 --compute-ms 3"
RP8="ring --iters 30 --compute-ms 3 --mode parity"
H12="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
cases() {
	cat <<CASES
k-tree2-15p-link30-s701|background|background|background||15|701|EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_PAIR=1:3|$T15
k-tree3-13p-link25-s702|background|background|background||13|702|EMU_BG_US=3000 EMU_BG_PCT=25 EMU_BG_PAIR=0:2|$T13
k-mw-9p-link30-s703|background|background|background||9|703|EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_PAIR=0:4|$MW
k-groups-12p-link30-s704|background|background|background||12|704|EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_PAIR=4:5|$G4
k-halo-16p-link20-s705|background|background|background||16|705|EMU_BG_US=2500 EMU_BG_PCT=20 EMU_BG_PAIR=5:6|$H16
k-ring-nb-16p-link40-s706|background|background|background||16|706|EMU_BG_US=1500 EMU_BG_PCT=40 EMU_BG_PAIR=9:10|$RN16
k-chain-10p-link15-s707|background|background|background||10|707|EMU_BG_US=4000 EMU_BG_PCT=15 EMU_BG_PAIR=2:3|$C10
k-ring-par-8p-inter-link30-s708|background|background|background||8|708|RANKS_PER_NODE=2 EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_PAIR=3:4|$RP8
k-halo-12p-node1-s709|background|background|background||12|709|RANKS_PER_NODE=4 EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_NODE=1|$H12
k-tree2-15p-clean-s701|tree|none|none||15|701||$T15
k-tree3-13p-clean-s702|tree|none|none||13|702||$T13
k-mw-9p-clean-s703|mw|none|none||9|703||$MW
k-groups-12p-clean-s704|groups|none|none||12|704||$G4
k-halo-16p-clean-s705|halo|none|none||16|705||$H16
k-ring-nb-16p-clean-s706|ring|none|none||16|706||$RN16
k-chain-10p-clean-s707|chain|none|none||10|707||$C10
k-ring-par-8p-inter-clean-s708|ring|none|none||8|708|RANKS_PER_NODE=2|$RP8
k-halo-12p-nodes-clean-s709|halo|none|none||12|709|RANKS_PER_NODE=4|$H12
CASES
}
