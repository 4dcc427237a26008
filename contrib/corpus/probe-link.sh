# contrib/corpus/probe-link.sh — a probe table (CORPUS_SET=probe-link), not
# part of make check, written in session 15 after probe-mix15's slow link
# read none on a busy machine (+1000), before any change: one link whose
# sends stall 2.5-3 ms in 20 to 50 % of its messages (not every one, as the
# other tables' slow links) under parity and Sendrecv rings, a chain, a
# 4 x 3 halo and a nonblocking ring; clean twins; seeds 381-386.  Meant to
# be run idle and with BUSY=2 (contrib/run-corpus.sh).
RP="ring --iters 30 --compute-ms 3 --mode parity"
RS="ring --iters 30 --compute-ms 3 --mode sendrecv"
C8="chain --iters 30 --compute-ms 3"
H12="halo2d --iters 30 --bytes 4096 --allreduce-every 5 --compute-ms 3"
RN="ring --iters 30 --compute-ms 3 --mode nb"
cases() {
	cat <<CASES
l-ring-par-10p-link30-s381|background|background|background||10|381|EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_PAIR=3:4|$RP
l-ring-par-10p-link20-s382|background|background|background||10|382|EMU_BG_US=3000 EMU_BG_PCT=20 EMU_BG_PAIR=6:7|$RP
l-ring-sr-8p-link30-s383|background|background|background||8|383|EMU_BG_US=2500 EMU_BG_PCT=30 EMU_BG_PAIR=2:3|$RS
l-chain-8p-link50-s384|background|background|background||8|384|EMU_BG_US=3000 EMU_BG_PCT=50 EMU_BG_PAIR=4:5|$C8
l-halo-12p-link30-s385|background|background|background||12|385|EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_PAIR=5:6|$H12
l-ring-nb-8p-link30-s386|background|background|background||8|386|EMU_BG_US=3000 EMU_BG_PCT=30 EMU_BG_PAIR=1:2|$RN
l-ring-par-10p-clean-s381|ring|none|none||10|381||$RP
l-ring-sr-8p-clean-s383|ring|none|none||8|383||$RS
l-chain-8p-clean-s384|chain|none|none||8|384||$C8
l-halo-12p-clean-s385|halo|none|none||12|385||$H12
l-ring-nb-8p-clean-s386|ring|none|none||8|386||$RN
CASES
}
