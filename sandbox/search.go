package sandbox

import (
	"database/sql"
	"fmt"
	"strings"
)

// The full-text indexes. Each has an "org" column holding "o<organization id>" so that a search
// is restricted to one organization inside FTS5 (the ranking then only scores that
// organization's rows), with weight 0 in the ranking. The prefix indexes make the prefix
// queries of 1 to 6 characters direct lookups.

const (
	conversationSearchColumns = "{name email street city messages}"
	contactSearchColumns      = "{name email street city country notes}"
)

// searchIndex describes a full-text index and its ranking.
//
// FTS5's bm25 adds the weighted occurrences of all columns before it saturates them, so
// weights alone let many occurrences in a low-weight column (a message repeating a word
// 200 times) outrank one occurrence in a high-weight column (the contact's city). The
// ranking is therefore by tier first: rows with a keyword in an A column come before all
// others, and bm25 with the column weights orders within a tier (more occurrences rank
// higher).
type searchIndex struct {
	table   string // the FTS5 table
	columns string // FTS5 column filter of the searchable columns
	rank    string // bm25 with the column weights (org 0, A = 10, B = 4, C = 1)
	// inA is true exactly for rows with a keyword in an A column: bm25 restricted to those
	// columns is 0 without such an occurrence and negative with one.
	inA string
}

var (
	conversationIndex = searchIndex{
		table:   "conversations_fts",
		columns: conversationSearchColumns,
		rank:    "bm25(conversations_fts, 0.0, 10.0, 10.0, 10.0, 10.0, 1.0)",
		inA:     "(bm25(conversations_fts, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0) < 0)",
	}
	contactIndex = searchIndex{
		table:   "contacts_fts",
		columns: contactSearchColumns,
		rank:    "bm25(contacts_fts, 0.0, 10.0, 10.0, 10.0, 10.0, 10.0, 4.0)",
		inA:     "(bm25(contacts_fts, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0) < 0)",
	}
)

// order is the ORDER BY of a search: tier, weighted rank, then id descending.
func (ix searchIndex) order(idCol string) string {
	return ix.inA + " DESC, " + ix.rank + ", " + idCol + " DESC"
}

// searchSchema (migration 2) replaces the first full-text tables by ones with the org column
// and longer prefix indexes, and fills them from the data.
func searchSchema() string {
	return `
DROP TABLE IF EXISTS conversations_fts;
DROP TABLE IF EXISTS contacts_fts;
CREATE VIRTUAL TABLE conversations_fts USING fts5(
	org, name, email, street, city, messages,
	tokenize = 'porter unicode61 remove_diacritics 2',
	prefix = '1 2 3 4 5 6'
);
CREATE VIRTUAL TABLE contacts_fts USING fts5(
	org, name, email, street, city, country, notes,
	tokenize = 'porter unicode61 remove_diacritics 2',
	prefix = '1 2 3 4 5 6'
);
` + strings.Join(rebuildSearchStatements(), ";\n") + ";\n"
}

// rebuildSearchStatements fill both (empty) indexes from the tables.
func rebuildSearchStatements() []string {
	return []string{
		`INSERT INTO conversations_fts(rowid, org, name, email, street, city, messages)
			SELECT c.id, 'o' || c.organization_id, ct.name, ct.email, ct.street, ct.city,
				(SELECT group_concat(m.body, char(10)) FROM messages m WHERE m.conversation_id = c.id)
			FROM conversations c JOIN contacts ct ON ct.id = c.contact_id`,
		`INSERT INTO contacts_fts(rowid, org, name, email, street, city, country, notes) ` + contactSearchSelect + ``,
		`INSERT INTO conversations_fts(conversations_fts) VALUES ('optimize')`,
		`INSERT INTO contacts_fts(contacts_fts) VALUES ('optimize')`,
	}
}

var contactSearchSelect = `SELECT ct.id, 'o' || ct.organization_id, ct.name, ct.email, ct.street, ct.city, ` +
	countrySearchExpr("ct.country") + `,
		(SELECT group_concat(n.body, char(10)) FROM notes n WHERE n.contact_id = ct.id)
	FROM contacts ct`

// countrySearchExpr is an SQL expression giving the searchable text of a country code: the
// code and the English country name.
func countrySearchExpr(col string) string {
	var b strings.Builder
	b.WriteString("CASE upper(" + col + ")")
	for _, c := range countries {
		fmt.Fprintf(&b, " WHEN '%s' THEN '%s %s'", c.code, c.code, c.name)
	}
	b.WriteString(" ELSE " + col + " END")
	return b.String()
}

// matchExpr restricts sanitized keywords (see ftsQuery) to the searchable columns and to one
// organization.
func matchExpr(org int64, columns, terms string) string {
	return fmt.Sprintf(`org : "o%d" AND (%s : (%s))`, org, columns, terms)
}

// reindexContact rewrites the contact's search row and the contact columns of its
// conversations' search rows.
func reindexContact(rq *request, q querier, id int64) error {
	if _, err := q.ExecContext(rq.ctx, `DELETE FROM contacts_fts WHERE rowid = ?`, id); err != nil {
		return fmt.Errorf("reindex contact: %w", err)
	}
	if _, err := q.ExecContext(rq.ctx, `INSERT INTO contacts_fts(rowid, org, name, email, street, city, country, notes) `+
		contactSearchSelect+` WHERE ct.id = ?`, id); err != nil {
		return fmt.Errorf("reindex contact: %w", err)
	}
	var name, email, street, city sql.NullString
	if err := q.QueryRowContext(rq.ctx, `SELECT name, email, street, city FROM contacts WHERE id = ?`, id).
		Scan(&name, &email, &street, &city); err != nil {
		return fmt.Errorf("reindex contact: %w", err)
	}
	if _, err := q.ExecContext(rq.ctx, `UPDATE conversations_fts SET name = ?, email = ?, street = ?, city = ?
		WHERE rowid IN (SELECT id FROM conversations WHERE contact_id = ?)`, name, email, street, city, id); err != nil {
		return fmt.Errorf("reindex contact conversations: %w", err)
	}
	return nil
}

// searchedSet is a list query over a full-text index: without other filters it runs on the
// index alone, else joined with the table.
type searchedSet struct {
	from  string
	w     *whereB
	order string
	idCol string
}

// searchable is a list with filters and full-text search: its table (from, under alias),
// the filters of its query (where), its search index, its orderings, and how its rows load.
type searchable struct {
	from, alias string
	where       func(rq *request) (*whereB, error)
	index       searchIndex
	orderings   map[string]string
	load        func(rq *request, ids []int64) (any, error)
}

// set resolves the list's filtered (and maybe searched) set, with extra conditions on its
// table.
func (rq *request) set(l searchable, extra ...string) (searchedSet, error) {
	w, err := l.where(rq)
	if err != nil {
		return searchedSet{}, err
	}
	return rq.searchedOrOrdered(w, l.from, l.alias+".id", l.index, l.orderings, extra...)
}

// list answers the list's offset pages.
func (rq *request) list(l searchable) (int, any, error) {
	set, err := rq.set(l)
	if err != nil {
		return 0, nil, err
	}
	return rq.offsetList(set.from, set.w, set.order, set.idCol, func(ids []int64) (any, error) { return l.load(rq, ids) })
}

// all answers the list's /all/ endpoint.
func (rq *request) all(l searchable) (int, any, error) {
	w, err := l.where(rq)
	if err != nil {
		return 0, nil, err
	}
	return rq.allList(l.from, w, l.alias+".id", func(ids []int64) (any, error) { return l.load(rq, ids) })
}

// searchedOrOrdered is the set a list (or its DELETE) works on: the ranked search when
// search_query is given (a query without usable keywords matches nothing), else the
// filtered rows in the requested ordering (default id descending). extra are conditions on
// table beyond the filters in w; with them a search is joined with the table.
func (rq *request) searchedOrOrdered(w *whereB, table, idCol string, ix searchIndex, orderings map[string]string, extra ...string) (searchedSet, error) {
	for _, e := range extra {
		w.add(e)
	}
	set := searchedSet{from: table, w: w, idCol: idCol}
	if fts, ok := rq.searchParam(); ok {
		if fts == "" {
			w.add("0")
			set.order = idCol + " DESC"
			return set, nil
		}
		return rq.searchSet(w, fts, table, idCol, ix), nil
	}
	order, err := rq.ordering(orderings, idCol+" DESC")
	if err != nil {
		return searchedSet{}, err
	}
	set.order = order
	return set, nil
}

// searchSet builds the set for a search. base holds the organization condition first and then
// any other filters; table is e.g. "conversations c" with alias and idCol its id column.
func (rq *request) searchSet(base *whereB, fts, table, idCol string, ix searchIndex) searchedSet {
	match := matchExpr(rq.org, ix.columns, fts)
	if len(base.parts) == 1 {
		w := &whereB{}
		w.add(ix.table+" MATCH ?", match)
		return searchedSet{from: ix.table, w: w, order: ix.order(ix.table + ".rowid"), idCol: ix.table + ".rowid"}
	}
	w := base.clone()
	w.add(ix.table+" MATCH ?", match)
	return searchedSet{
		from:  ix.table + " JOIN " + table + " ON " + idCol + " = " + ix.table + ".rowid",
		w:     w,
		order: ix.order(idCol),
		idCol: idCol,
	}
}
