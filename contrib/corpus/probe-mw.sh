# contrib/corpus/probe-mw.sh — a probe table (CORPUS_SET=probe-mw), not part of
# make check, written in session 14 after probe-mix11's master/worker ramp
# read noise, before any change for this table: master/worker runs around
# that one — ramps of 0.5, 1 and 2 ms per worker on 6, 8, 10 and 12 ranks
# with 40 to 120 tasks, every 3rd or 4th worker 2-3x slower, one task of a
# worker 25 ms longer; clean twins of each size; seeds 281-292.
cases() {
	cat <<CASES
mw-6p-ramp05-s281|mw|imbalance|imbalance|5|6|281||masterworker --tasks 60 --task-ms 2 --slow-every 0 --ramp-ms 1
mw-6p-clean-s281|mw|none|none||6|281||masterworker --tasks 60 --task-ms 2 --slow-every 0
mw-8p-ramp1-t40-s282|mw|imbalance|imbalance|7|8|282||masterworker --tasks 40 --task-ms 2 --slow-every 0 --ramp-ms 1
mw-8p-ramp1-t120-s283|mw|imbalance|imbalance|7|8|283||masterworker --tasks 120 --task-ms 2 --slow-every 0 --ramp-ms 1
mw-8p-ramp2-s284|mw|imbalance|imbalance|7|8|284||masterworker --tasks 80 --task-ms 1 --slow-every 0 --ramp-ms 2
mw-8p-clean-s284|mw|none|none||8|284||masterworker --tasks 80 --task-ms 1 --slow-every 0
mw-10p-ramp1-s285|mw|imbalance|imbalance|9|10|285||masterworker --tasks 90 --task-ms 2 --slow-every 0 --ramp-ms 1
mw-10p-clean-s285|mw|none|none||10|285||masterworker --tasks 90 --task-ms 2 --slow-every 0
mw-9p-slow3x2-s286|mw|imbalance|imbalance|3,6|9|286||masterworker --tasks 72 --task-ms 3 --slow-every 3 --slow-factor 2
mw-12p-slow4x3-s287|mw|imbalance|imbalance|4,8|12|287||masterworker --tasks 96 --task-ms 2 --slow-every 4 --slow-factor 3
mw-12p-clean-s287|mw|none|none||12|287||masterworker --tasks 96 --task-ms 2 --slow-every 0
mw-5p-once-s288|mw|imbalance|imbalance|2|5|288||masterworker --tasks 40 --task-ms 3 --slow-every 0 --delay-rank 2 --delay-iter 4 --delay-ms 25
mw-5p-clean-s288|mw|none|none||5|288||masterworker --tasks 40 --task-ms 3 --slow-every 0
CASES
}
