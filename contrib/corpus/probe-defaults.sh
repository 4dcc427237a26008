# contrib/corpus/probe-defaults.sh — a probe table (CORPUS_SET=probe-defaults),
# not part of make check, written in session 12 before any change it might
# suggest: every mini-app with its own default arguments (compute 1 ms, the
# apps' default iterations, sizes and modes — what a user who runs the apps
# without the corpus' tuned flags records), at rank counts no other table
# uses for that app, clean and with one 30 ms delay (a slow worker for the
# master/worker); seeds 161-184.
cases() {
	cat <<CASES
d-halo-4p-clean-s161|halo|none|none||4|161||halo2d
d-halo-9p-clean-s162|halo|none|none,noise||9|162|OVER=yield|halo2d
d-halo-16p-clean-s163|halo|none|none,noise||16|163|OVER=yield|halo2d
d-halo-6p-over1-clean-s164|halo|none|none,noise||6|164|OVER=1|halo2d
d-tree2-7p-clean-s165|tree2|none|none||7|165||tree
d-tree3-13p-clean-s166|tree3|none|none,noise||13|166|OVER=yield|tree --arity 3
d-groups-8p-clean-s167|groups|none|none||8|167||groups
d-mw-6p-clean-s168|mw|none|none||6|168||masterworker --slow-every 0
d-mw-12p-clean-s169|mw|none|none,noise||12|169|OVER=yield|masterworker --slow-every 0
d-ring-sr-5p-clean-s170|ring|none|none||5|170||ring
d-ring-par-6p-clean-s171|ring_parity|none|none||6|171||ring --mode parity
d-ring-nb-7p-big-clean-s172|ring|none|none||7|172||ring --mode nb --bytes 262144
d-chain-6p-clean-s173|chain|none|none||6|173||chain
d-degen-pair-2p-clean-s174|degenerate|none|none||2|174||degen
d-degen-anysrc-5p-clean-s175|degenerate|none|none||5|175||degen --mode anysrc
d-degen-coll-8p-clean-s176|degenerate|none|none||8|176||degen --mode coll
d-halo-9p-delay-s177|halo|imbalance|imbalance|4|9|177|OVER=yield|halo2d --delay-rank 4 --delay-iter 10 --delay-ms 30
d-tree2-7p-delay-s178|tree2|imbalance|imbalance|5|7|178||tree --delay-rank 5 --delay-iter 2 --delay-ms 30
d-ring-par-6p-delay-s179|ring_parity|imbalance|imbalance|2|6|179||ring --mode parity --delay-rank 2 --delay-iter 15 --delay-ms 30
d-chain-6p-delay-s180|chain|imbalance|imbalance|3|6|180||chain --delay-rank 3 --delay-iter 20 --delay-ms 30
d-mw-6p-slow-s181|mw|imbalance|imbalance|3|6|181||masterworker
d-degen-coll-8p-delay-s182|degenerate|imbalance|imbalance|6|8|182||degen --mode coll --delay-rank 6 --delay-iter 10 --delay-ms 30
d-groups-8p-delay-s183|groups|imbalance|imbalance|5|8|183||groups --delay-rank 5 --delay-iter 5 --delay-ms 30
d-ring-nb-7p-big-delay-s184|ring|imbalance|imbalance|6|7|184||ring --mode nb --bytes 262144 --delay-rank 6 --delay-iter 12 --delay-ms 30
CASES
}
