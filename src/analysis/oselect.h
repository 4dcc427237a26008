/* oselect.h — order statistics of sets of non-negative doubles that one
 * process holds or that the processes of a distributed model hold in parts
 * (docs/scale.md, "Typical values over parts"): the median as tc_median
 * makes it, or the k-th smallest as tc_kth, exactly (the same double). */
#ifndef TC_OSELECT_H
#define TC_OSELECT_H

#include "part.h"

#define OSEL_MEDIAN UINT64_MAX

/* Set q's values held here, written into buf (room for the largest set's
 * share here); returns how many. */
typedef size_t (*osel_fill)(void *arg, size_t q, double *buf);

/* A batch of nq sets: out[q] = set q's median (kth NULL or kth[q] ==
 * OSEL_MEDIAN) or its kth[q]-th smallest value (0-based; past the end: the
 * largest), NAN for an empty set; n[q] (n not NULL): its size.  d NULL:
 * every value is here (tc_median, tc_kth on buf, the serial code's own
 * calls); else the values are spread over d's processes, none negative
 * (their bits order as they do), and every process gets every result
 * (collective: a SUM reduction of the sizes, then 8 rounds of 256-bucket
 * histograms of the next 8 bits, summed). */
void osel_batch(const struct tc_dist *d, size_t nq, osel_fill fill, void *arg, double *buf, const uint64_t *kth,
		double *out, uint64_t *n);

#endif
