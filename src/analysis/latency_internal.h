/* latency_internal.h — shared between the latency analysis files only. */
#ifndef TC_LATENCY_INTERNAL_H
#define TC_LATENCY_INTERNAL_H

#include "analysis_latency.h"

/* Window statistics: add one message (mean fields hold sums until finish). */
void lat_win_add(struct tc_lat_win *w, double l, double transfer, bool inter, double high_l);
void lat_win_finish(struct tc_lat_win *w, size_t n);

#endif
