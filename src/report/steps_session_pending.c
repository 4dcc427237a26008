/* steps_session_pending.c — TEMPORARY: session_steps() for the `tui` branch.
 *
 * DELETE AT MERGE: the real engine's branch (`steps`) defines session_steps()
 * next to its report section.  This one computes the steps with the default
 * options on first use and caches them in the session. */
#include "analysis_steps.h"
#include "session.h"

const struct tc_steps *session_steps(struct tc_session *s)
{
	if (!s->steps) {
		struct tc_steps_opts o;
		tc_steps_default_opts(&o);
		s->steps = tc_steps_compute(s->t, &o);
	}
	return s->steps;
}
