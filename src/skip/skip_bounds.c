/*-------------------------------------------------------------------------
 *
 * skip_bounds.c
 *	  The boundaries of a bloomskip index's open tail (summarized, writer,
 *	  nranges; README, "The open tail" and "Truncation"): raised by inserts
 *	  and summarizers, lowered after the heap shrank, each in one metapage
 *	  record.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/generic_xlog.h"

/*
 * Raise the metapage's writer boundary to at least writer (never past
 * nranges), WAL-logged if it moves; *meta receives the metapage before the
 * change.  Returns whether writer moved.
 */
bool
skip_advance_writer(Relation index, uint64 writer, SkipMeta *meta)
{
	Buffer		buf = skip_lock_meta(index, meta);
	uint64		new_writer = Max(meta->writer, Min(writer, meta->nranges));

	if (new_writer != meta->writer)
	{
		GenericXLogState *state = GenericXLogStart(index);
		SkipMeta   *m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));

		m->writer = new_writer;
		skip_seal_meta(m);
		GenericXLogFinish(state);
	}
	UnlockReleaseBuffer(buf);
	return new_writer != meta->writer;
}

/*
 * Set the metapage's summarized boundary and staged count in one record,
 * adding learnt (what the batch taught of its keys, or NULL) to the
 * metapage's statistics; *meta receives the metapage after the change.
 * Only a summarizer calls it, holding the summarizing lock, so nothing
 * else moves summarized, and the statistics change under the same locks
 * as the boundaries they describe.  They only steer the planner: no
 * answer depends on them (a scan reads the bits), so a count that a crash
 * or a race leaves off costs at most a worse plan.
 */
void
skip_set_summarized(Relation index, uint64 summarized, uint32 nstaged,
					const SkipStats *learnt, SkipMeta *meta)
{
	Buffer		buf = skip_lock_meta(index, meta);
	GenericXLogState *state;
	SkipMeta   *m;

	if (summarized < meta->summarized || summarized > meta->writer ||
		nstaged > meta->stage_slots || nstaged > summarized)
	{
		UnlockReleaseBuffer(buf);
		elog(ERROR, "bloomskip summarized boundary " UINT64_FORMAT " (staged %u) is out of order",
			 summarized, nstaged);
	}
	state = GenericXLogStart(index);
	m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));
	m->summarized = summarized;
	m->nstaged = nstaged;
	if (learnt && m->version >= 4)
	{
		m->stats.ranges += learnt->ranges;
		m->stats.keys += learnt->keys;
		for (int i = 0; i < SKIP_STAT_REGISTERS; i++)
			m->stats.hll[i] = Max(m->stats.hll[i], learnt->hll[i]);
	}
	skip_seal_meta(m);
	*meta = *m;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/*
 * Set the metapage's recent segment (skip_recent.c) in one record; *meta
 * receives the metapage after the change.  Only a summarizer calls it,
 * holding the summarizing lock (and, for a new one, the extension lock).
 */
void
skip_set_recent(Relation index, const SkipSegment *recent, SkipMeta *meta)
{
	Buffer		buf = skip_lock_meta(index, meta);
	GenericXLogState *state = GenericXLogStart(index);
	SkipMeta   *m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));

	m->recent = *recent;
	skip_seal_meta(m);
	*meta = *m;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/*
 * Lower the metapage's boundaries after the heap shrank (skip_insert.c,
 * skip_forget_truncated): summarized and writer to at most upto, nranges
 * to at most nranges, and nstaged by as much as summarized drops (slots
 * [0, nstaged) keep the ranges they held), in one record; *meta receives
 * the metapage before the change.  Only a holder of the summarizing lock
 * calls it.  Returns whether anything moved.
 */
bool
skip_lower_bounds(Relation index, uint64 upto, uint64 nranges, SkipMeta *meta)
{
	Buffer		buf = skip_lock_meta(index, meta);
	uint64		summarized = Min(meta->summarized, upto);
	uint64		drop = meta->summarized - summarized;
	bool		moved;
	GenericXLogState *state;
	SkipMeta   *m;

	nranges = Max(Min(meta->nranges, nranges), Min(meta->writer, upto));
	moved = summarized != meta->summarized || Min(meta->writer, upto) != meta->writer ||
		nranges != meta->nranges;
	if (moved)
	{
		state = GenericXLogStart(index);
		m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));
		m->summarized = summarized;
		m->writer = Min(m->writer, upto);
		m->nranges = nranges;
		m->nstaged = m->nstaged > drop ? (uint32) (m->nstaged - drop) : 0;
		/* the ranges cut lose their share of the keys (the sketch keeps them) */
		if (m->version >= 4 && m->stats.ranges > summarized)
		{
			m->stats.keys *= (double) summarized / (double) m->stats.ranges;
			m->stats.ranges = summarized;
		}
		skip_seal_meta(m);
		GenericXLogFinish(state);
	}
	UnlockReleaseBuffer(buf);
	return moved;
}
