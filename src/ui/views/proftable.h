/* proftable.h — the profile view's per-rank × function table (src/ui/views/proftable.c),
 * private to src/ui/views/profile.c. */
#ifndef TC_PROFTABLE_H
#define TC_PROFTABLE_H

#include "ui.h"

enum { PT_FLAT, PT_WHO, PT_STATS, PT_MODES };   /* struct tc_pfview's mode */
enum { PT_S_MIN, PT_S_MEDIAN, PT_S_MAX, PT_S_IMBAL, PT_S_COUNT };
enum { PT_V_EXCL, PT_V_INCL, PT_V_CALLS, PT_V_COUNT };

/* The profile view's state beyond the flat table (a->pfv). */
struct tc_pfview {
	int mode;                 /* PT_FLAT: the flat profile; PT_WHO: a column per rank or location; PT_STATS */
	bool per_loc;             /* columns are locations (threads, streams) instead of ranks */
	struct tc_prof_table *loc, *rank;   /* tc_profile_locations, tc_profile_ranks: built once */
	/* the matrix for (per_loc, visible ranks): built when they change */
	bool built, built_per_loc;
	uint32_t built_gen;
	uint32_t nreg, nwho;
	uint32_t *reg, *who;      /* regions (rows), ranks or locations (columns) */
	int value;                /* PT_V_*: what the cells show */
	uint64_t *m[PT_V_COUNT];  /* nreg × nwho: exclusive ticks, inclusive ticks, calls */
	uint64_t *val;            /* m[value] */
	uint8_t *called;          /* nreg × nwho: the cell has calls */
	uint64_t *total;          /* per region: over its columns */
	double *stat;             /* nreg × PT_S_COUNT: min, median, max (of val), imbalance (0..1) over called cells */
	uint32_t *order;          /* rows in sort order */
	int col;                  /* cursor column: 0 total, then who or statistics columns */
	int sort;                 /* sort column (-1: region name) */
	bool rev;                 /* reversed: names Z to A, numbers smallest first */
	uint32_t left;            /* first who column shown */
	uint32_t sel, top;        /* selected row, first row shown */
	int rows, cols_shown;
};

struct tc_pfview *pt_state(struct tc_app *a);
void pt_free(struct tc_app *a);
/* Builds the matrix when the mode or the visible ranks changed. */
void pt_prepare(struct tc_app *a);
void pt_draw(struct tc_app *a, struct tc_grid *g, struct tc_rect r);
bool pt_key(struct tc_app *a, enum tc_action act);
void pt_csv(struct tc_app *a, FILE *f);
/* The selected row's region (TC_NONE: none). */
uint32_t pt_selected_region(struct tc_app *a);
/* Columns of the current mode (total included). */
int pt_ncols(const struct tc_pfview *v);

#endif
