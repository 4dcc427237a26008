/* timejson.c — timestamps in the JSON reports: the seconds as always, and the
 * exact integer ticks beside them (docs/model.md, "Times in JSON"). */
#include "model.h"
#include "report.h"

void report_time_json(struct json *j, const char *key_s, const char *key_ticks, const struct tc_trace *t,
		      uint64_t ticks)
{
	json_knum(j, key_s, tc_sec(t, ticks));
	json_kint(j, key_ticks, ticks >= t->t0 ? (int64_t)(ticks - t->t0) : -(int64_t)(t->t0 - ticks));
}
