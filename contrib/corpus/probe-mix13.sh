# contrib/corpus/probe-mix13.sh — a probe table (CORPUS_SET=probe-mix13), not
# part of make check, written in session 14 after the mapping's own-time
# measure (docs/verdicts.md, A1, "Latency inside the calls"), before any
# change for this table: placements where some messages stay on a node and
# the latency sits inside the calls — a 4 x 3 halo with latency in its Waits,
# a binary tree of 7 on nodes of 2 with latency in its blocking sends, groups
# of 4 on nodes of 3 with latency in the Isends, a nonblocking ring of 12 on
# nodes of 4; each placed cyclically (mapping), in blocks (none) and
# cyclically without latency (none); seeds 321-324.  The tree's block
# placement was labelled none without checking: its remap cuts exactly 20 %
# (250 -> 200 inter-node messages), the gate (docs/verdicts.md, A1) and
# probe-place's r-tree2-7p-map-s158 case, so its truth is the mapping too
# (read "mapping 0.70" before and after the session's A1 change).
H12="halo2d --iters 30 --bytes 8192 --allreduce-every 5 --compute-ms 3"
T2="tree --arity 2 --iters 25 --bytes 4096 --compute-ms 3"
G="groups --groups 3 --iters 30 --sync-every 5 --compute-ms 3"
RN="ring --iters 30 --compute-ms 3 --mode nb"
cases() {
	cat <<CASES
m13-halo-12p-wait-cyclic-s321|inter|mapping|mapping||12|321|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=wait|$H12
m13-halo-12p-wait-block-s321|inter|none|none||12|321|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=1500 EMU_INTER_IN=wait|$H12
m13-halo-12p-clean-cyclic-s321|inter|none|none||12|321|RANKS_PER_NODE=4 NODE_MAP=cyclic|$H12
m13-tree2-7p-send-cyclic-s322|inter|mapping|mapping||7|322|RANKS_PER_NODE=2 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$T2
m13-tree2-7p-send-block-s322|inter|mapping|mapping||7|322|RANKS_PER_NODE=2 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=send|$T2
m13-tree2-7p-clean-cyclic-s322|inter|none|none||7|322|RANKS_PER_NODE=2 NODE_MAP=cyclic|$T2
m13-groups-12p-isend-cyclic-s323|inter|mapping|mapping||12|323|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=isend|$G
m13-groups-12p-isend-block-s323|inter|none|none||12|323|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=1500 EMU_INTER_IN=isend|$G
m13-groups-12p-clean-cyclic-s323|inter|none|none||12|323|RANKS_PER_NODE=4 NODE_MAP=cyclic|$G
m13-ring-nb-12p-isend-cyclic-s324|inter|mapping|mapping||12|324|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=isend|$RN
m13-ring-nb-12p-isend-block-s324|inter|none|none||12|324|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=1500 EMU_INTER_IN=isend|$RN
m13-ring-nb-12p-clean-cyclic-s324|inter|none|none||12|324|RANKS_PER_NODE=4 NODE_MAP=cyclic|$RN
CASES
}
