/*-------------------------------------------------------------------------
 *
 * skip_regex.c
 *	  The literal strings every match of a regular expression holds: an AND
 *	  of clauses, each an OR of strings, for bloomskip's n-gram classes.
 *
 * A conservative reading of PostgreSQL's advanced regular expressions (the
 * pattern has been compiled by PostgreSQL first, so it is valid).  Each
 * part of the pattern is summarized as a node:
 *   exact: it matches exactly one of a few strings (a literal, a bracket of
 *	 a few plain characters, an alternation or optional of exact parts);
 *   else: head and tail, the strings every match starts and ends with (if
 *	 known), and clauses, further strings every match holds.
 * A branch multiplies the exact sets of its consecutive parts into runs
 * ("ab(c|d)e" is {abce, abde}); a part that is not exact ends the run, which
 * becomes a clause, and its tail starts the next.  An alternation of parts
 * that are not exact keeps one clause: the best of each side, ORed.  x+ and
 * x{m,} with m >= 1 hold x at both ends; x*, x? and x{0,n} hold nothing
 * (x? of an exact x is its set and the empty string).
 *
 * Whatever is not understood adds nothing (a class escape, '.', a negated
 * or ranged bracket, anchors and lookaround, which also
 * break runs: "a^b" and "a(?=x)b" hold no "ab"), and some things make the
 * whole pattern ask nothing: options that change the syntax ((?x), (?b),
 * (?e)), a backslash inside a bracket, a back-reference or an escape that
 * enters a character by its code (\x, \u, \U, \c, octal), braces that
 * are not a bound, nesting
 * deeper than SKIP_RX_MAX_DEPTH.  Sets hold at most SKIP_RX_MAX_SET strings
 * of at most SKIP_RX_MAX_LEN bytes, and a pattern gives at most
 * SKIP_RX_MAX_CLAUSES clauses: beyond, runs are cut, which only loses
 * selectivity.  Work is linear in the pattern's length times those limits.
 *
 * Embedded options: "***=" (the rest is a literal), "***:" and a leading
 * (?flags): i and c turn case-insensitivity on and off (returned in
 * *icase_out), q makes the rest a literal, m n p s t w change nothing here.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"

/* strings of an exact set at most, and their length */
#define SKIP_RX_MAX_SET			16
#define SKIP_RX_MAX_LEN			256
/* clauses of one pattern at most, and parentheses nested */
#define SKIP_RX_MAX_CLAUSES		64
#define SKIP_RX_MAX_DEPTH		64
/* plain characters a bracket may list to be an exact set */
#define SKIP_RX_MAX_BRACKET		8

/* A set of strings (an exact set, a head, a tail, or a clause). */
typedef struct RxSet
{
	int			n;
	SkipRegexString s[SKIP_RX_MAX_SET];
} RxSet;

typedef struct RxNode
{
	bool		exact;			/* matches exactly one of set */
	RxSet	   *set;			/* exact: the set; else the head or NULL */
	RxSet	   *tail;			/* not exact: the tail or NULL */
	List	   *clauses;		/* of RxSet *, not exact */
} RxNode;

typedef struct RxParser
{
	const char *p;
	int			len;
	int			pos;
	int			depth;
	bool		fail;			/* not understood: ask nothing */
} RxParser;

static RxNode rx_alternation(RxParser *P);

/* A node that is not exact and holds nothing known. */
static RxNode
rx_unknown(void)
{
	RxNode		n = {false, NULL, NULL, NIL};

	return n;
}

/* The exact node of one string. */
static RxNode
rx_literal(const char *s, int len)
{
	RxNode		n = {true, palloc0(sizeof(RxSet)), NULL, NIL};

	n.set->n = 1;
	n.set->s[0].s = s;
	n.set->s[0].len = len;
	return n;
}

/* Does any string of set have no byte (then it holds nothing)? */
static bool
rx_set_empty_member(const RxSet *set)
{
	for (int i = 0; i < set->n; i++)
		if (set->s[i].len == 0)
			return true;
	return false;
}

/* Add set to clauses if it asks something. */
static List *
rx_add_clause(List *clauses, RxSet *set)
{
	if (set && set->n > 0 && !rx_set_empty_member(set) &&
		list_length(clauses) < SKIP_RX_MAX_CLAUSES)
		clauses = lappend(clauses, set);
	return clauses;
}

/* The product a x b, or NULL if over the limits. */
static RxSet *
rx_product(const RxSet *a, const RxSet *b)
{
	RxSet	   *r;

	if (a->n * b->n > SKIP_RX_MAX_SET)
		return NULL;
	r = palloc0(sizeof(RxSet));
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++)
		{
			int			len = a->s[i].len + b->s[j].len;
			char	   *s;

			if (len > SKIP_RX_MAX_LEN)
				return NULL;
			s = palloc(len + 1);
			memcpy(s, a->s[i].s, a->s[i].len);
			memcpy(s + a->s[i].len, b->s[j].s, b->s[j].len);
			r->s[r->n].s = s;
			r->s[r->n++].len = len;
		}
	return r;
}

/* The union a | b, or NULL if over the limits. */
static RxSet *
rx_union(const RxSet *a, const RxSet *b)
{
	RxSet	   *r;

	if (a == NULL || b == NULL || a->n + b->n > SKIP_RX_MAX_SET)
		return NULL;
	r = palloc0(sizeof(RxSet));
	memcpy(r->s, a->s, sizeof(SkipRegexString) * a->n);
	memcpy(r->s + a->n, b->s, sizeof(SkipRegexString) * b->n);
	r->n = a->n + b->n;
	return r;
}

/* The set {""}: the run at the start of a branch. */
static RxSet *
rx_empty_set(void)
{
	RxSet	   *r = palloc0(sizeof(RxSet));

	r->n = 1;
	r->s[0].s = "";
	return r;
}

/* How selective a clause is: its shortest string's length. */
static int
rx_score(const RxSet *set)
{
	int			m = INT_MAX;

	for (int i = 0; i < set->n; i++)
		m = Min(m, set->s[i].len);
	return set->n > 0 ? m : 0;
}

/* Everything node requires, as clauses. */
static List *
rx_requirements(const RxNode *n)
{
	List	   *l;

	if (n->exact)
		return rx_add_clause(NIL, n->set);
	l = list_copy(n->clauses);
	l = rx_add_clause(l, n->set);
	return rx_add_clause(l, n->tail);
}

/* The most selective clause node requires, or NULL. */
static RxSet *
rx_best_clause(const RxNode *n)
{
	List	   *l = rx_requirements(n);
	RxSet	   *best = NULL;
	ListCell   *lc;

	foreach(lc, l)
		if (best == NULL || rx_score(lfirst(lc)) > rx_score(best))
			best = lfirst(lc);
	return best;
}

/* The node of a | b. */
static RxNode
rx_alternate(RxNode a, RxNode b)
{
	RxNode		r = rx_unknown();
	RxSet	   *ca,
			   *cb;

	if (a.exact && b.exact && (r.set = rx_union(a.set, b.set)) != NULL)
	{
		r.exact = true;
		return r;
	}
	r.set = rx_union(a.exact ? a.set : a.set, b.exact ? b.set : b.set);
	r.tail = rx_union(a.exact ? a.set : a.tail, b.exact ? b.set : b.tail);
	ca = rx_best_clause(&a);
	cb = rx_best_clause(&b);
	if (ca && cb)
		r.clauses = rx_add_clause(NIL, rx_union(ca, cb));
	return r;
}

/* Skip a bound {m}, {m,}, {m,n} at P->pos ('{'); returns m, or -1 (fail). */
static int
rx_bound(RxParser *P)
{
	int			m = 0;
	bool		digits = false;

	P->pos++;
	while (P->pos < P->len && P->p[P->pos] >= '0' && P->p[P->pos] <= '9')
	{
		m = Min(m * 10 + (P->p[P->pos++] - '0'), 1000000);
		digits = true;
	}
	if (P->pos < P->len && P->p[P->pos] == ',')
	{
		P->pos++;
		while (P->pos < P->len && P->p[P->pos] >= '0' && P->p[P->pos] <= '9')
			P->pos++;
	}
	if (!digits || P->pos >= P->len || P->p[P->pos] != '}')
	{
		P->fail = true;
		return -1;
	}
	P->pos++;
	return m;
}

/*
 * A bracket expression at P->pos ('['): an exact set of its characters if
 * it lists a few plain ones, else unknown.
 */
static RxNode
rx_bracket(RxParser *P)
{
	RxNode		r = rx_literal("", 0);
	bool		plain = true;
	bool		first = true;

	r.set->n = 0;
	P->pos++;
	if (P->pos < P->len && P->p[P->pos] == '^')
	{
		plain = false;
		P->pos++;
	}
	while (P->pos < P->len)
	{
		char		c = P->p[P->pos];
		int			l;

		if (c == ']' && !first)
		{
			P->pos++;
			if (!plain || r.set->n == 0)
				return rx_unknown();
			return r;
		}
		first = false;
		if (c == '\\')
		{
			P->fail = true;
			return rx_unknown();
		}
		if (c == '[' && P->pos + 1 < P->len &&
			(P->p[P->pos + 1] == ':' || P->p[P->pos + 1] == '=' || P->p[P->pos + 1] == '.'))
		{
			char		d = P->p[P->pos + 1];

			plain = false;
			P->pos += 2;
			while (P->pos + 1 < P->len && !(P->p[P->pos] == d && P->p[P->pos + 1] == ']'))
				P->pos++;
			P->pos += 2;
			continue;
		}
		if (c == '-' || (P->pos + 1 < P->len && P->p[P->pos + 1] == '-' &&
						 P->pos + 2 < P->len && P->p[P->pos + 2] != ']'))
			plain = false;
		l = Min(pg_mblen(P->p + P->pos), P->len - P->pos);
		if (plain && r.set->n < SKIP_RX_MAX_BRACKET)
		{
			r.set->s[r.set->n].s = P->p + P->pos;
			r.set->s[r.set->n++].len = l;
		}
		else
			plain = false;
		P->pos += l;
	}
	P->fail = true;				/* unterminated: the compiler would refuse it */
	return rx_unknown();
}

/* A parenthesized group at P->pos ('('). */
static RxNode
rx_group(RxParser *P)
{
	bool		look = false;
	RxNode		r;

	P->pos++;
	if (P->pos < P->len && P->p[P->pos] == '?')
	{
		const char *q = P->p + P->pos + 1;
		int			left = P->len - P->pos - 1;

		if (left >= 1 && q[0] == ':')
			P->pos += 2;
		else if (left >= 1 && (q[0] == '=' || q[0] == '!'))
		{
			P->pos += 2;
			look = true;
		}
		else if (left >= 2 && q[0] == '<' && (q[1] == '=' || q[1] == '!'))
		{
			P->pos += 3;
			look = true;
		}
		else
		{
			P->fail = true;
			return rx_unknown();
		}
	}
	if (++P->depth > SKIP_RX_MAX_DEPTH)
	{
		P->fail = true;
		return rx_unknown();
	}
	r = rx_alternation(P);
	P->depth--;
	if (P->pos >= P->len || P->p[P->pos] != ')')
	{
		P->fail = true;
		return rx_unknown();
	}
	P->pos++;
	return look ? rx_unknown() : r;
}

/* An atom at P->pos. */
static RxNode
rx_atom(RxParser *P)
{
	char		c = P->p[P->pos];
	int			l;

	switch (c)
	{
		case '(':
			return rx_group(P);
		case '[':
			return rx_bracket(P);
		case '.':
		case '^':
		case '$':
			P->pos++;
			return rx_unknown();
		case '\\':
			if (P->pos + 1 >= P->len)
				break;
			c = P->p[P->pos + 1];
			if ((c >= '0' && c <= '9') || c == 'x' || c == 'u' || c == 'U' || c == 'c')
				break;			/* back-reference or entry of several characters */
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			{
				/* a class, constraint, back-reference or character entry */
				P->pos += 2;
				return rx_unknown();
			}
			P->pos++;
			l = Min(pg_mblen(P->p + P->pos), P->len - P->pos);
			P->pos += l;
			return rx_literal(P->p + P->pos - l, l);
		case '*':
		case '+':
		case '?':
		case '{':
		case '}':
		case ']':
			break;
		default:
			l = Min(pg_mblen(P->p + P->pos), P->len - P->pos);
			P->pos += l;
			return rx_literal(P->p + P->pos - l, l);
	}
	P->fail = true;
	return rx_unknown();
}

/* An atom and its quantifiers. */
static RxNode
rx_piece(RxParser *P)
{
	RxNode		x = rx_atom(P);

	while (!P->fail && P->pos < P->len)
	{
		char		c = P->p[P->pos];
		int			min;

		if (c == '*')
		{
			min = 0;
			P->pos++;
		}
		else if (c == '+')
		{
			min = 1;
			P->pos++;
		}
		else if (c == '?')
		{
			RxSet	   *e = rx_empty_set();

			P->pos++;
			if (x.exact && (x.set = rx_union(x.set, e)) != NULL)
				continue;
			x = rx_unknown();
			continue;
		}
		else if (c == '{')
			min = rx_bound(P);
		else
			break;
		if (P->pos < P->len && P->p[P->pos] == '?')
			P->pos++;			/* non-greedy */
		if (min <= 0)
			x = rx_unknown();
		else if (x.exact)
		{
			/* x at both ends, something between */
			RxNode		r = rx_unknown();

			r.set = x.set;
			r.tail = x.set;
			x = r;
		}
	}
	return x;
}

/* A branch: its pieces concatenated (see the header comment). */
static RxNode
rx_branch(RxParser *P)
{
	RxNode		r = rx_unknown();
	RxSet	   *run = rx_empty_set();
	bool		exact = true;
	bool		have_head = false;

	while (!P->fail && P->pos < P->len && P->p[P->pos] != '|' && P->p[P->pos] != ')')
	{
		RxNode		x = rx_piece(P);
		RxSet	   *prod;
		ListCell   *lc;

		CHECK_FOR_INTERRUPTS();
		if (x.exact)
		{
			prod = rx_product(run, x.set);
			if (prod == NULL)
			{
				r.clauses = rx_add_clause(r.clauses, run);
				if (!have_head)
					r.set = run;
				have_head = true;
				exact = false;
				prod = x.set;
			}
			run = prod;
			continue;
		}
		/* the run ends with x's head */
		prod = x.set ? rx_product(run, x.set) : NULL;
		if (prod == NULL)
		{
			r.clauses = rx_add_clause(r.clauses, run);
			r.clauses = rx_add_clause(r.clauses, x.set);
			prod = run;
		}
		else
			r.clauses = rx_add_clause(r.clauses, prod);
		if (!have_head)
			r.set = prod;
		have_head = true;
		exact = false;
		foreach(lc, x.clauses)
			r.clauses = rx_add_clause(r.clauses, lfirst(lc));
		run = x.tail ? x.tail : rx_empty_set();
	}
	if (exact)
	{
		r.exact = true;
		r.set = run;
		return r;
	}
	r.tail = run;
	/* the head was added as a clause: keep it only as the head */
	if (r.set && list_length(r.clauses) > 0 && llast(r.clauses) == r.set)
		r.clauses = list_delete_last(r.clauses);
	else if (r.set && list_member_ptr(r.clauses, r.set))
		r.clauses = list_delete_ptr(r.clauses, r.set);
	return r;
}

/* Branches separated by '|'. */
static RxNode
rx_alternation(RxParser *P)
{
	RxNode		r;

	check_stack_depth();
	r = rx_branch(P);
	while (!P->fail && P->pos < P->len && P->p[P->pos] == '|')
	{
		P->pos++;
		r = rx_alternate(r, rx_branch(P));
	}
	return r;
}

/*
 * Skip the leading directors and options of pat at P->pos; sets *icase
 * and *literal.  False if they change the syntax (then nothing is known).
 */
static bool
rx_options(RxParser *P, bool *icase, bool *literal)
{
	*literal = false;
	if (P->len - P->pos >= 4 && strncmp(P->p + P->pos, "***", 3) == 0)
	{
		if (P->p[P->pos + 3] == '=')
		{
			P->pos += 4;
			*literal = true;
			return true;
		}
		if (P->p[P->pos + 3] != ':')
			return false;
		P->pos += 4;
	}
	if (P->len - P->pos >= 2 && P->p[P->pos] == '(' && P->p[P->pos + 1] == '?' &&
		P->pos + 2 < P->len && P->p[P->pos + 2] >= 'a' && P->p[P->pos + 2] <= 'z')
	{
		for (P->pos += 2; P->pos < P->len && P->p[P->pos] != ')'; P->pos++)
		{
			switch (P->p[P->pos])
			{
				case 'i':
					*icase = true;
					break;
				case 'c':
					*icase = false;
					break;
				case 'q':
					*literal = true;
					break;
				case 'm':
				case 'n':
				case 'p':
				case 's':
				case 't':
				case 'w':
					break;
				default:
					return false;
			}
		}
		if (P->pos >= P->len)
			return false;
		P->pos++;
	}
	return true;
}

/*
 * The clauses every match of pattern pat[0..len) holds, into *clauses;
 * returns how many (0: nothing known, every string may match).  icase: the
 * operator is ~*; *icase_out: whether the match ignores case after the
 * pattern's own options.
 */
int
skip_regex_required(const char *pat, int len, bool icase,
					SkipRegexClause **clauses, bool *icase_out)
{
	RxParser	P = {pat, len, 0, 0, false};
	bool		literal;
	RxNode		root;
	List	   *req;
	ListCell   *lc;
	int			n = 0;

	*icase_out = icase;
	*clauses = NULL;
	if (!rx_options(&P, icase_out, &literal))
		return 0;
	if (literal)
		root = rx_literal(pat + P.pos, len - P.pos);
	else
	{
		root = rx_alternation(&P);
		if (P.fail || P.pos != len)
			return 0;
	}
	req = rx_requirements(&root);
	if (req == NIL)
		return 0;
	*clauses = palloc(sizeof(SkipRegexClause) * list_length(req));
	foreach(lc, req)
	{
		RxSet	   *set = lfirst(lc);

		(*clauses)[n].n = set->n;
		(*clauses)[n++].alt = set->s;
	}
	return n;
}
