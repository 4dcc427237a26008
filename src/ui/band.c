/* band.c — items (x units, visible ranks) spread over screen cells at any
 * ratio: cell i covers items [lo(i), hi(i)), the span divided as evenly as
 * integers allow.  Fewer items than cells stretch each item over several
 * cells; more items put one or two neighbours in a cell.  The logical view
 * and the overview draw through it so the whole width is used (docs/tui.md). */
#include "ui.h"

uint32_t band_lo(const struct tc_band *b, int i)
{
	if (b->cells <= 0) return b->first;
	return b->first + (uint32_t)((uint64_t)(uint32_t)i * b->span / (uint32_t)b->cells);
}

uint32_t band_hi(const struct tc_band *b, int i)
{
	uint32_t lo = band_lo(b, i), hi = band_lo(b, i + 1);
	return hi > lo ? hi : lo + 1;
}

int band_find(const struct tc_band *b, uint32_t item)
{
	if (b->cells <= 0 || !b->span || item < b->first || item - b->first >= b->span) return -1;
	uint64_t k = item - b->first;
	int i = (int)(k * (uint32_t)b->cells / b->span);
	if (i >= b->cells) i = b->cells - 1;
	while (i > 0 && band_lo(b, i) > item) i--;
	while (i + 1 < b->cells && band_hi(b, i) <= item) i++;
	return i;
}
