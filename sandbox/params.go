package sandbox

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// --- query values -------------------------------------------------------------------------

// str returns a query value; empty values count as absent.
func (rq *request) str(name string) (string, bool) {
	v := strings.TrimSpace(rq.q.Get(name))
	return v, v != ""
}

func (rq *request) intParam(name string) (int64, bool, error) {
	v, ok := rq.str(name)
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false, badRequest("%s: %q is not an integer.", name, v)
	}
	return n, true, nil
}

func (rq *request) boolParam(name string) (bool, bool, error) {
	v, ok := rq.str(name)
	if !ok {
		return false, false, nil
	}
	switch strings.ToLower(v) {
	case "true", "1", "yes":
		return true, true, nil
	case "false", "0", "no":
		return false, true, nil
	}
	return false, false, badRequest("%s: %q is not a boolean (use true or false).", name, v)
}

// idList parses a comma-separated list of integer ids. present is true when the parameter was
// sent at all, even empty.
func (rq *request) idList(name string) (ids []int64, present bool, err error) {
	vals, present := rq.q[name]
	if !present {
		return nil, false, nil
	}
	for _, v := range vals {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, true, badRequest("%s: %q is not an integer id.", name, f)
			}
			ids = append(ids, n)
		}
	}
	return ids, true, nil
}

// excludeIDs is the parsed exclude_ids parameter.
func (rq *request) excludeIDs() ([]int64, error) {
	ids, _, err := rq.idList("exclude_ids")
	return ids, err
}

// excluded reports whether id is listed in exclude_ids.
func (rq *request) excluded(id int64) (bool, error) {
	ids, err := rq.excludeIDs()
	if err != nil {
		return false, err
	}
	for _, x := range ids {
		if x == id {
			return true, nil
		}
	}
	return false, nil
}

const (
	defaultLimit = 10
	maxLimit     = 100
	maxOffsetTot = 10000
)

// sizeParam is intParam for limit and offset: a positive integer too large for int64 is
// still a number (larger than any page or list), so it saturates instead of being refused.
func (rq *request) sizeParam(name string) (int64, bool, error) {
	v, ok := rq.str(name)
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	// ParseInt reports the overflow as soon as the digits read overflow, before it reads
	// the rest: only digits throughout make a number too large.
	if errors.Is(err, strconv.ErrRange) && n > 0 && strings.Trim(v, "0123456789") == "" {
		return math.MaxInt64, true, nil
	}
	if err != nil {
		return 0, false, badRequest("%s: %q is not an integer.", name, v)
	}
	return n, true, nil
}

func (rq *request) limitParam(def int) (int, error) {
	n, ok, err := rq.sizeParam("limit")
	if err != nil {
		return 0, err
	}
	if !ok || n <= 0 {
		return def, nil
	}
	if n > maxLimit {
		return maxLimit, nil
	}
	return int(n), nil
}

func (rq *request) offsetParam() (int, error) {
	n, ok, err := rq.sizeParam("offset")
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, nil
	}
	if n < 0 {
		return 0, badRequest("offset: must not be negative.")
	}
	if n > 1<<40 {
		n = 1 << 40
	}
	return int(n), nil
}

// --- timestamps ---------------------------------------------------------------------------

var zoneSpace = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}(?::?\d{2})?)$`)

var timeLayouts = []string{
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05Z07",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
}

// parseTimestamp parses ISO 8601 with or without fraction and zone (no zone = UTC) or a
// date. dateOnly reports a plain date.
func parseTimestamp(v string) (t time.Time, dateOnly bool, err error) {
	v = strings.TrimSpace(v)
	// A "+01:00" zone sent unencoded in a query arrives as " 01:00".
	if m := zoneSpace.FindStringSubmatch(v); m != nil {
		v = m[1] + "+" + m[2]
	}
	if t, err := time.Parse("2006-01-02", v); err == nil {
		return t, true, nil
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC(), false, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q is not an ISO 8601 timestamp or date", v)
}

// timeBound parses a timestamp filter. For an upper bound ("to") the result is exclusive: a
// timestamp t gives t+1µs (so the filter is inclusive of t) and a date gives the next midnight
// (the whole day is included). Lower bounds are inclusive.
func (rq *request) timeBound(name string, upper bool) (int64, bool, error) {
	v, ok := rq.str(name)
	if !ok {
		return 0, false, nil
	}
	t, dateOnly, err := parseTimestamp(v)
	if err != nil {
		return 0, false, badRequest("%s: %v.", name, err)
	}
	us := t.UnixMicro()
	if upper {
		if dateOnly {
			us = t.AddDate(0, 0, 1).UnixMicro()
		} else {
			us++
		}
	}
	return us, true, nil
}

// --- SQL building -------------------------------------------------------------------------

type whereB struct {
	parts []string
	args  []any
}

func (w *whereB) add(cond string, args ...any) {
	w.parts = append(w.parts, cond)
	w.args = append(w.args, args...)
}

func (w *whereB) sql() string {
	if len(w.parts) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.parts, " AND ")
}

func (w *whereB) clone() *whereB {
	return &whereB{parts: append([]string(nil), w.parts...), args: append([]any(nil), w.args...)}
}

func placeholders(n int) string {
	if n <= 0 {
		return "NULL"
	}
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func int64Args(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// addExclude adds "col NOT IN (exclude_ids)".
func (rq *request) addExclude(w *whereB, col string) error {
	ids, err := rq.excludeIDs()
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		w.add(col+" NOT IN ("+placeholders(len(ids))+")", int64Args(ids)...)
	}
	return nil
}

// orderings builds a list's orderings on the table under alias: each field (a column, with
// " COLLATE NOCASE" for one ordered as text) ascending, and with "-" descending, ties
// broken by id the same way; "id" orders by id alone.
func orderings(alias string, fields ...string) map[string]string {
	m := map[string]string{}
	for _, f := range fields {
		name, _, _ := strings.Cut(f, " ")
		for prefix, dir := range map[string]string{"": " ASC", "-": " DESC"} {
			if name == "id" {
				m[prefix+name] = alias + ".id" + dir
			} else {
				m[prefix+name] = alias + "." + f + dir + ", " + alias + ".id" + dir
			}
		}
	}
	return m
}

// ordering resolves the ordering parameter against a table of allowed values; def is the
// ORDER BY used without the parameter.
func (rq *request) ordering(allowed map[string]string, def string) (string, error) {
	v, ok := rq.str("ordering")
	if !ok {
		return def, nil
	}
	o, found := allowed[v]
	if !found {
		names := make([]string, 0, len(allowed))
		for k := range allowed {
			names = append(names, k)
		}
		sort.Strings(names)
		return "", badRequest("Invalid ordering %q; allowed: %s.", v, strings.Join(names, ", "))
	}
	return o, nil
}

// --- full-text search ---------------------------------------------------------------------

const maxSearchKeywords = 32

// ftsQuery turns user keywords into a safe FTS5 query: each keyword becomes a quoted string
// with a prefix star, and keywords are joined with OR. It returns "" when no keyword has a
// letter or digit (the search then matches nothing).
func ftsQuery(q string) string {
	fields := strings.FieldsFunc(q, func(r rune) bool { return unicode.IsSpace(r) || r == '+' })
	var terms []string
	for _, f := range fields {
		if !strings.ContainsFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		f = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) || r == unicode.ReplacementChar {
				return ' '
			}
			return r
		}, f)
		terms = append(terms, `"`+strings.ReplaceAll(f, `"`, `""`)+`"*`)
		if len(terms) == maxSearchKeywords {
			break
		}
	}
	return strings.Join(terms, " OR ")
}

// searchParam returns the sanitized FTS query and whether a search was requested.
func (rq *request) searchParam() (string, bool) {
	v, ok := rq.str("search_query")
	if !ok {
		return "", false
	}
	return ftsQuery(v), true
}

// --- links and envelopes ------------------------------------------------------------------

type offsetEnvelope struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  any     `json:"results"`
}

type cursorEnvelope struct {
	Count    *int    `json:"count,omitempty"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  any     `json:"results"`
}

// link builds an absolute URL to this request's path with modified query values.
func (rq *request) link(mod func(url.Values)) *string {
	q := url.Values{}
	for k, v := range rq.q {
		q[k] = append([]string(nil), v...)
	}
	mod(q)
	scheme := "http"
	if rq.r.TLS != nil {
		scheme = "https"
	}
	if p := strings.TrimSpace(strings.Split(rq.r.Header.Get("X-Forwarded-Proto"), ",")[0]); p == "http" || p == "https" {
		scheme = p
	}
	host := rq.r.Host
	if h := strings.TrimSpace(strings.Split(rq.r.Header.Get("X-Forwarded-Host"), ",")[0]); h != "" {
		host = h
	}
	path := forwardedPrefix(rq.r.Header.Get("X-Forwarded-Prefix")) + rq.r.URL.Path
	if !strings.HasSuffix(path, "/") {
		path += "/"
	}
	u := url.URL{Scheme: scheme, Host: host, Path: path, RawQuery: q.Encode()}
	s := u.String()
	return &s
}

// forwardedPrefix is the path prefix a reverse proxy strips before it forwards a request
// (X-Forwarded-Prefix), to be put back into links; "" when absent or not a plain absolute
// path.
func forwardedPrefix(h string) string {
	p, _, _ := strings.Cut(h, ",")
	p = strings.TrimRight(strings.TrimSpace(p), "/")
	if p == "" || p[0] != '/' || strings.HasPrefix(p, "//") {
		return ""
	}
	for _, r := range p {
		if r <= ' ' || r == 0x7f || strings.ContainsRune(`?#\%`, r) {
			return ""
		}
	}
	return p
}

// pageFunc loads the items of ids, in that order.
type pageFunc func(ids []int64) (any, error)

// offsetList runs a count and a page query and wraps the result in the offset envelope.
func (rq *request) offsetList(from string, w *whereB, order string, idCol string, load pageFunc) (int, any, error) {
	limit, err := rq.limitParam(defaultLimit)
	if err != nil {
		return 0, nil, err
	}
	offset, err := rq.offsetParam()
	if err != nil {
		return 0, nil, err
	}
	var count int
	if err := rq.s.db.QueryRowContext(rq.ctx, "SELECT count(*) FROM "+from+w.sql(), w.args...).Scan(&count); err != nil {
		return 0, nil, fmt.Errorf("count: %w", err)
	}
	var ids []int64
	capTotal := rq.s.offsetCap
	pageLimit := limit
	if offset+pageLimit > capTotal {
		pageLimit = capTotal - offset
	}
	if pageLimit > 0 && offset < count {
		ids, err = rq.s.queryIDs(rq, "SELECT "+idCol+" FROM "+from+w.sql()+" ORDER BY "+order+" LIMIT ? OFFSET ?",
			append(append([]any(nil), w.args...), pageLimit, offset)...)
		if err != nil {
			return 0, nil, err
		}
	}
	items, err := load(ids)
	if err != nil {
		return 0, nil, err
	}
	reach := min(count, capTotal)
	env := offsetEnvelope{Count: count, Results: items}
	if rq.s.variants[VariantCappedCount] {
		env.Count = reach // the results the list returns, not how many match
	}
	if offset+limit < reach {
		env.Next = rq.link(func(q url.Values) {
			q.Set("limit", strconv.Itoa(limit))
			q.Set("offset", strconv.Itoa(offset+limit))
		})
	}
	// A set that matches nothing has no page to go back to (spec, Filtering 1: count 0, next
	// and previous null), whatever the offset.
	if offset > 0 && reach > 0 {
		prev := offset - limit
		if prev > reach-1 {
			// From past the end, step back to the last reachable page.
			prev = max(0, ((reach-1)/limit)*limit)
		}
		env.Previous = rq.link(func(q url.Values) {
			q.Set("limit", strconv.Itoa(limit))
			if prev <= 0 {
				q.Del("offset")
			} else {
				q.Set("offset", strconv.Itoa(prev))
			}
		})
	}
	return http.StatusOK, env, nil
}

// listOf serves the lists the spec describes only as "list of …" (notes, navigation,
// operators): the offset envelope, or with VariantBareLists a bare array of every matching
// item in order, limit and offset not read at all (a list without paging).
func listOf[T any](rq *request, from string, w *whereB, order string, idCol string, load func(ids []int64) ([]T, error)) (int, any, error) {
	if !rq.s.variants[VariantBareLists] {
		return rq.offsetList(from, w, order, idCol, func(ids []int64) (any, error) { return load(ids) })
	}
	ids, err := rq.s.queryIDs(rq, "SELECT "+idCol+" FROM "+from+w.sql()+" ORDER BY "+order, w.args...)
	if err != nil {
		return 0, nil, err
	}
	out := make([]T, 0, len(ids))
	for chunk := range slices.Chunk(ids, 500) { // SQLite takes a bounded number of ? per query
		items, err := load(chunk)
		if err != nil {
			return 0, nil, err
		}
		out = append(out, items...)
	}
	return http.StatusOK, out, nil
}

func (s *Server) queryIDs(rq *request, query string, args ...any) ([]int64, error) {
	ids, err := column[int64](rq.ctx, s.db, query, args...)
	if err != nil {
		return nil, fmt.Errorf("query ids: %w", err)
	}
	return ids, nil
}

// find reads column of the row id of table, in the organization, into dst; a row that is not
// there, or that exclude_ids leaves out, is a 404.
func (rq *request) find(table string, id int64, column string, dst any) error {
	ex, err := rq.excluded(id)
	if err != nil {
		return err
	}
	if ex {
		return notFound()
	}
	err = rq.s.db.QueryRowContext(rq.ctx, `SELECT `+column+` FROM `+table+` WHERE id = ? AND organization_id = ?`, id, rq.org).Scan(dst)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound()
	}
	if err != nil {
		return fmt.Errorf("find in %s: %w", table, err)
	}
	return nil
}

// inOrderOf runs query, which ends in "IN " and is completed by the list of ids, scans each
// row with scan (which returns its id) and returns the rows in the order of ids: an id
// without a row is left out. what names the rows in an error.
func inOrderOf[T any](rq *request, what string, ids []int64, query string, scan func(*sql.Rows) (int64, T, error)) ([]T, error) {
	out := make([]T, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	byID := make(map[int64]T, len(ids))
	err := eachRow(rq.ctx, rq.s.db, query+"("+placeholders(len(ids))+")", int64Args(ids), func(rows *sql.Rows) error {
		id, v, err := scan(rows)
		if err == nil {
			byID[id] = v
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", what, err)
	}
	for _, id := range ids {
		if v, ok := byID[id]; ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// idFilter is a list's query parameter that takes an id, and the condition it sets.
type idFilter struct{ param, cond string }

// plainList answers an offset list of table (under alias) in the organization, narrowed by
// filters and exclude_ids, in the ordering asked for among allowed (default id descending).
func plainList[T any](rq *request, table, alias string, filters []idFilter, allowed map[string]string, load func(ids []int64) ([]T, error)) (int, any, error) {
	w := &whereB{}
	w.add(alias+".organization_id = ?", rq.org)
	for _, f := range filters {
		if n, ok, err := rq.intParam(f.param); err != nil {
			return 0, nil, err
		} else if ok {
			w.add(f.cond, n)
		}
	}
	if err := rq.addExclude(w, alias+".id"); err != nil {
		return 0, nil, err
	}
	order, err := rq.ordering(allowed, alias+".id DESC")
	if err != nil {
		return 0, nil, err
	}
	return listOf(rq, table+" "+alias, w, order, alias+".id", load)
}

// one answers the resource id, loaded by load, with status; 404 when load finds none.
func one[T any](id int64, status int, load func(ids []int64) ([]T, error)) (int, any, error) {
	items, err := load([]int64{id})
	if err != nil {
		return 0, nil, err
	}
	if len(items) == 0 {
		return 0, nil, notFound()
	}
	return status, items[0], nil
}

// bulkDelete answers the DELETE of list l: deletable is the condition a row must meet to be
// deleted, del deletes rows in a transaction. With delete_ids those of them in the
// organization are deleted, else the first limit (default 10) of the list's set; deletable
// rows only, exclude_ids never.
func (rq *request) bulkDelete(l searchable, deletable string, del func(rq *request, q querier, ids []int64) error) (int, any, error) {
	if err := rq.require(capDelete, 0); err != nil {
		return 0, nil, err
	}
	var ids []int64
	delIDs, present, err := rq.idList("delete_ids")
	if err != nil {
		return 0, nil, err
	}
	if present {
		if len(delIDs) > 0 {
			w := &whereB{}
			w.add(l.alias+".organization_id = ?", rq.org)
			w.add(deletable)
			w.add(l.alias+".id IN ("+placeholders(len(delIDs))+")", int64Args(delIDs)...)
			if err := rq.addExclude(w, l.alias+".id"); err != nil {
				return 0, nil, err
			}
			ids, err = rq.s.queryIDs(rq, "SELECT "+l.alias+".id FROM "+l.from+w.sql(), w.args...)
			if err != nil {
				return 0, nil, err
			}
		}
	} else {
		set, err := rq.set(l, deletable)
		if err != nil {
			return 0, nil, err
		}
		limit, err := rq.limitParam(defaultLimit)
		if err != nil {
			return 0, nil, err
		}
		ids, err = rq.s.queryIDs(rq, "SELECT "+set.idCol+" FROM "+set.from+set.w.sql()+" ORDER BY "+set.order+" LIMIT ?", append(set.w.args, limit)...)
		if err != nil {
			return 0, nil, err
		}
	}
	if len(ids) > 0 {
		if err := rq.s.inTx(rq, func(q querier) error { return del(rq, q, ids) }); err != nil {
			return 0, nil, err
		}
	}
	return http.StatusNoContent, nil, nil
}

// allList serves an /all/ endpoint: cursor pagination over ids ascending, with count.
func (rq *request) allList(from string, w *whereB, idCol string, load pageFunc) (int, any, error) {
	if v, ok := rq.str("ordering"); ok && v != "id" {
		return 0, nil, badRequest("Invalid ordering %q; /all/ endpoints allow only ordering=id.", v)
	}
	limit, err := rq.limitParam(defaultLimit)
	if err != nil {
		return 0, nil, err
	}
	var count int
	if err := rq.s.db.QueryRowContext(rq.ctx, "SELECT count(*) FROM "+from+w.sql(), w.args...).Scan(&count); err != nil {
		return 0, nil, fmt.Errorf("count: %w", err)
	}
	pw := w.clone()
	backward := false
	if c, ok := rq.str("cursor"); ok {
		backward = strings.HasPrefix(c, "-")
		n, err := strconv.ParseInt(strings.TrimPrefix(c, "-"), 10, 64)
		if err != nil || n < 0 {
			return 0, nil, badRequest("Invalid cursor %q.", c)
		}
		if backward {
			pw.add(idCol+" < ?", n)
		} else {
			pw.add(idCol+" > ?", n)
		}
	}
	dir := "ASC"
	if backward {
		dir = "DESC"
	}
	ids, err := rq.s.queryIDs(rq, "SELECT "+idCol+" FROM "+from+pw.sql()+" ORDER BY "+idCol+" "+dir+" LIMIT ?",
		append(append([]any(nil), pw.args...), limit)...)
	if err != nil {
		return 0, nil, err
	}
	if backward {
		for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
			ids[i], ids[j] = ids[j], ids[i]
		}
	}
	items, err := load(ids)
	if err != nil {
		return 0, nil, err
	}
	env := cursorEnvelope{Count: &count, Results: items}
	if len(ids) > 0 {
		first, last := ids[0], ids[len(ids)-1]
		more, err := rq.s.exists(rq, from, w, idCol+" > ?", last)
		if err != nil {
			return 0, nil, err
		}
		if more {
			env.Next = rq.link(func(q url.Values) {
				q.Set("cursor", strconv.FormatInt(last, 10))
				q.Set("limit", strconv.Itoa(limit))
			})
		}
		less, err := rq.s.exists(rq, from, w, idCol+" < ?", first)
		if err != nil {
			return 0, nil, err
		}
		if less {
			env.Previous = rq.link(func(q url.Values) {
				q.Set("cursor", "-"+strconv.FormatInt(first, 10))
				q.Set("limit", strconv.Itoa(limit))
			})
		}
	}
	return http.StatusOK, env, nil
}

func (s *Server) exists(rq *request, from string, w *whereB, cond string, arg any) (bool, error) {
	ew := w.clone()
	ew.add(cond, arg)
	var one int
	err := s.db.QueryRowContext(rq.ctx, "SELECT EXISTS(SELECT 1 FROM "+from+ew.sql()+")", ew.args...).Scan(&one)
	if err != nil {
		return false, fmt.Errorf("exists: %w", err)
	}
	return one == 1, nil
}

// --- permissions --------------------------------------------------------------------------

type capability int

const (
	capEditConversation capability = iota
	capEditContact
	capCreateNote
	capDelete
	capEditOperator
	capToggleAway
)

func (c capability) String() string {
	switch c {
	case capEditConversation:
		return "edit conversations"
	case capEditContact:
		return "edit contacts"
	case capCreateNote:
		return "write notes"
	case capDelete:
		return "delete"
	case capEditOperator:
		return "change operators"
	case capToggleAway:
		return "change the away status"
	}
	return "do this"
}

// can reports whether the acting operator has a capability; target is the operator an
// operator capability applies to.
func (a actor) can(c capability, target int64) bool {
	switch a.role {
	case "owner", "admin":
		return true
	case "agent":
		switch c {
		case capEditConversation, capEditContact, capCreateNote:
			return true
		case capEditOperator, capToggleAway:
			return target == a.id
		}
	}
	return false
}

func (rq *request) require(c capability, target int64) error {
	if rq.op.can(c, target) {
		return nil
	}
	what := c.String()
	if target != 0 && target != rq.op.id {
		switch c {
		case capEditOperator:
			what = "change other operators"
		case capToggleAway:
			what += " of other operators"
		}
	}
	return errStatus(http.StatusForbidden, "You do not have permission to perform this action: operator %d with role %q may not %s.",
		rq.op.id, rq.op.role, what)
}

// writable is the write_permission of resources the acting operator may edit.
func (rq *request) writable(c capability, target int64) bool { return rq.op.can(c, target) }
