# contrib/corpus/probe-map.sh — a probe table (CORPUS_SET=probe-map), not part
# of make check, written in session 15 before any change it might suggest:
# placements at sizes the other tables do not use — a nonblocking ring of 16
# and a chain of 12 placed cyclically with latency in their Isends / sends
# (mapping) and in blocks (already the best placement: none), 3 groups of 4
# placed cyclically (mapping) and in blocks (every group on its node: none),
# a 4 x 4 halo placed cyclically with latency in its Isends (each node holds
# a column of the periodic grid: half the messages cross nodes, as with 2 x 2
# squares or rows, so the placement is already the best: none; first written
# as mapping for a grid without wrap-around, the table was wrong and the tool
# said so), a parity ring of 9 on nodes of 3 placed cyclically,
# and the cyclic ring without latency (none); seeds 411-416.
RN="ring --iters 30 --compute-ms 3 --mode nb --bytes 4096"
C12="chain --iters 30 --bytes 4096 --compute-ms 3"
G12="groups --groups 3 --iters 30 --sync-every 5 --compute-ms 3 --bytes 4096"
H16="halo2d --iters 30 --bytes 8192 --allreduce-every 5 --compute-ms 3"
RP="ring --iters 30 --compute-ms 3 --mode parity --bytes 4096"
cases() {
	cat <<CASES
p-ring-nb-16p-cyclic-s411|inter|mapping|mapping||16|411|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=isend|$RN
p-ring-nb-16p-block-s411|inter|none|none||16|411|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=1500 EMU_INTER_IN=isend|$RN
p-chain-12p-cyclic-s412|inter|mapping|mapping||12|412|RANKS_PER_NODE=3 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$C12
p-chain-12p-block-s412|inter|none|none||12|412|RANKS_PER_NODE=3 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=send|$C12
p-groups-12p-cyclic-s413|inter|mapping|mapping||12|413|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=send,isend|$G12
p-groups-12p-block-s413|inter|none|none||12|413|RANKS_PER_NODE=4 NODE_MAP=block EMU_INTER_US=1500 EMU_INTER_IN=send,isend|$G12
p-halo-16p-cyclic-s414|inter|none|none||16|414|RANKS_PER_NODE=4 NODE_MAP=cyclic EMU_INTER_US=1500 EMU_INTER_IN=isend|$H16
p-ring-par-9p-cyclic-s415|inter|mapping|mapping||9|415|RANKS_PER_NODE=3 NODE_MAP=cyclic EMU_INTER_US=2000 EMU_INTER_IN=send|$RP
p-ring-par-9p-block-s415|inter|none|none||9|415|RANKS_PER_NODE=3 NODE_MAP=block EMU_INTER_US=2000 EMU_INTER_IN=send|$RP
p-ring-nb-16p-clean-cyclic-s416|inter|none|none||16|416|RANKS_PER_NODE=4 NODE_MAP=cyclic|$RN
CASES
}
