package sandbox

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// apiError is an error answered with a status code and a JSON body {"detail": …}.
type apiError struct {
	status     int
	detail     string
	retryAfter int    // seconds; > 0 adds a Retry-After header
	allow      string // for 405
}

func (e *apiError) Error() string { return fmt.Sprintf("%d: %s", e.status, e.detail) }

func errStatus(status int, format string, args ...any) *apiError {
	return &apiError{status: status, detail: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *apiError {
	return errStatus(http.StatusBadRequest, format, args...)
}

func notFound() *apiError { return errStatus(http.StatusNotFound, "Not found.") }

// handlerFunc answers one request: a status, a body to encode as JSON (nil for none) or an
// error (an *apiError, or anything else for a 500).
type handlerFunc func(rq *request) (int, any, error)

// route is a matched path.
type route struct {
	family  string // rate-limit family
	metric  string // analytics metric as requested (unresolved)
	methods map[string]handlerFunc
	id      int64 // the {id} of the path, if any
}

// actor is the operator a request runs as.
type actor struct {
	id       int64
	role     string
	implicit bool // no Service-Operator-Id header: the organization's owner
}

// request carries everything a handler needs.
type request struct {
	s     *Server
	r     *http.Request
	ctx   context.Context
	q     url.Values
	org   int64
	tok   tokenInfo
	token string
	op    actor
	route *route
	body  []byte
}

// statusWriter records the status of a response. With a request log it also holds the
// response back until the request is logged, so that whoever reads the log after getting
// an answer finds that request in it.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
	held   *bytes.Buffer // nil: written through
}

func (w *statusWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.status, w.wrote = code, true
	if w.held == nil {
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.held != nil {
		return w.held.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// release sends a held-back response.
func (w *statusWriter) release() {
	if w.held == nil {
		return
	}
	held := w.held
	w.held = nil
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
		return
	}
	w.ResponseWriter.WriteHeader(w.status)
	_, _ = w.ResponseWriter.Write(held.Bytes())
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Latency > 0 && !s.delay(r.Context()) {
		return // the client gave up while the answer was held back: there is no one to answer
	}
	start := time.Now()
	// The Date header tells the sandbox's clock (Options.Now), the one that stamps the data,
	// not the machine's: net/http would send the machine's.
	if s.opts.Now != nil { // always set, but for a Server a test builds by hand
		w.Header().Set("Date", s.opts.Now().UTC().Format(http.TimeFormat))
	}
	sw := &statusWriter{ResponseWriter: w}
	if s.opts.RequestLog != nil {
		sw.held = &bytes.Buffer{}
	}
	defer func() {
		if p := recover(); p != nil {
			if !sw.wrote {
				writeJSON(sw, http.StatusInternalServerError, map[string]string{"detail": "Internal server error."})
			}
			s.logRequest(r, sw.status, start, fmt.Sprint(p))
		} else {
			s.logRequest(r, sw.status, start, "")
		}
		sw.release()
	}()
	s.serve(sw, r)
}

// delay holds a request back for Options.Latency before it is handled, as a slow link
// would. It reports false when the request's context ends first (the client gave up).
// Closing the server ends every delay at once, and the requests are then handled: a
// shutdown does not wait out the latency.
func (s *Server) delay(ctx context.Context) bool {
	s.delayed.Add(1)
	defer s.delayed.Add(-1)
	t := time.NewTimer(s.opts.Latency)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.closing:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *Server) serve(w *statusWriter, r *http.Request) {
	status, body, err := s.handle(w, r)
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			ae = &apiError{status: http.StatusInternalServerError, detail: "Internal server error."}
			s.logInternal(r, err)
		}
		if ae.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(ae.retryAfter))
		}
		if ae.allow != "" {
			w.Header().Set("Allow", ae.allow)
		}
		if ae.status == http.StatusBadRequest && s.variants[VariantFieldErrors] {
			writeJSON(w, ae.status, fieldErrorBody(ae.detail))
			return
		}
		writeJSON(w, ae.status, map[string]string{"detail": ae.detail})
		return
	}
	if body == nil {
		w.WriteHeader(status)
		return
	}
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		buf.WriteString(`{"detail":"Internal server error."}` + "\n")
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) handle(w *statusWriter, r *http.Request) (int, any, error) {
	path := r.URL.Path
	if p := s.opts.PathPrefix; p != "" {
		if !strings.HasPrefix(path, p+"/") {
			return 0, nil, notFound()
		}
		path = path[len(p):]
	}
	rt := s.match(path)
	if rt == nil {
		return 0, nil, notFound()
	}
	token := strings.TrimSpace(r.Header.Get("Authorization"))
	for _, scheme := range []string{"Token ", "Bearer "} {
		if len(token) > len(scheme) && strings.EqualFold(token[:len(scheme)], scheme) {
			token = strings.TrimSpace(token[len(scheme):])
		}
	}
	tok, ok := s.tokens[token]
	if token == "" || !ok {
		return 0, nil, errStatus(http.StatusUnauthorized, "Invalid token.")
	}
	rq := &request{s: s, r: r, ctx: r.Context(), tok: tok, token: token, org: tok.orgID, route: rt}
	if tok.customer {
		if v := strings.TrimSpace(r.Header.Get("Service-Organization-Id")); v != "" {
			if id, err := strconv.ParseInt(v, 10, 64); err == nil {
				if _, known := s.info.OrgTokens[id]; known {
					rq.org = id
				}
			}
		}
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return 0, nil, badRequest("Malformed query string: %v", err)
	}
	rq.q = q
	if err := singleValued(q, strings.Contains(r.URL.Path, "/analytics/")); err != nil {
		return 0, nil, err
	}
	h, ok := rt.methods[r.Method]
	if !ok {
		allow := make([]string, 0, len(rt.methods))
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if _, ok := rt.methods[m]; ok {
				allow = append(allow, m)
			}
		}
		return 0, nil, &apiError{status: http.StatusMethodNotAllowed,
			detail: fmt.Sprintf("Method %q not allowed.", r.Method), allow: strings.Join(allow, ", ")}
	}
	if err := rq.resolveOperator(); err != nil {
		return 0, nil, err
	}
	family := rt.family
	if rt.metric != "" {
		m, ok := lookupMetric(rt.metric)
		if !ok {
			return 0, nil, notFound()
		}
		family = "analytics:" + m.name
	}
	if ae := s.limits.allow(token, rq.org, family, rt.metric != "", s.opts.Now()); ae != nil {
		return 0, nil, ae
	}
	if r.Method == http.MethodPost || r.Method == http.MethodPatch || r.Method == http.MethodPut {
		if err := rq.readBody(); err != nil {
			return 0, nil, err
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		// One write at a time, from its checks (does the contact exist?) to the answer
		// read back: a DELETE in between would otherwise turn a PUT into a 500 or a 404.
		s.writes.Lock()
		defer s.writes.Unlock()
	}
	return h(rq)
}

func (rq *request) resolveOperator() error {
	v := strings.TrimSpace(rq.r.Header.Get("Service-Operator-Id"))
	if v == "" {
		rq.op = actor{id: rq.s.ownerOf[rq.org], role: "owner", implicit: true}
		return nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return badRequest("Service-Operator-Id must be an integer operator id.")
	}
	var role string
	err = rq.s.db.QueryRowContext(rq.ctx, `SELECT role FROM operators WHERE id = ? AND organization_id = ?`, id, rq.org).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return badRequest("Unknown operator %d in organization %d.", id, rq.org)
	}
	if err != nil {
		return fmt.Errorf("look up acting operator: %w", err)
	}
	rq.op = actor{id: id, role: role}
	return nil
}

const maxBody = 1 << 20

// readBody checks the content type and reads the body of POST, PATCH and PUT requests.
func (rq *request) readBody() error {
	ct := rq.r.Header.Get("Content-Type")
	mt, _, _ := strings.Cut(ct, ";")
	if !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
		if ct == "" {
			ct = "none"
		}
		return errStatus(http.StatusUnsupportedMediaType, "Unsupported media type %q in request; use application/json.", ct)
	}
	b, err := readLimited(rq.r, maxBody)
	if err != nil {
		return err
	}
	rq.body = b
	return nil
}

func readLimited(r *http.Request, n int64) ([]byte, error) {
	var buf bytes.Buffer
	_, err := buf.ReadFrom(http.MaxBytesReader(nil, r.Body, n))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, badRequest("Request body larger than %d bytes.", n)
		}
		return nil, badRequest("Could not read the request body: %v", err)
	}
	return buf.Bytes(), nil
}

// jsonObject decodes the body as a JSON object of raw fields.
func (rq *request) jsonObject() (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(rq.body))
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		return nil, badRequest("JSON parse error: %v", err)
	}
	if m == nil {
		return nil, badRequest("JSON parse error: expected an object.")
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, badRequest("JSON parse error: unexpected data after the object.")
	}
	return m, nil
}

// writeBody begins a write: the session may do c (to target), and the body is a JSON
// object of fields (patchObject).
func (rq *request) writeBody(c capability, target int64) (map[string]json.RawMessage, error) {
	if err := rq.require(c, target); err != nil {
		return nil, err
	}
	return rq.patchObject()
}

// patchObject is jsonObject for PATCH and PUT bodies, which must not be wrapped in "update".
func (rq *request) patchObject() (map[string]json.RawMessage, error) {
	m, err := rq.jsonObject()
	if err != nil {
		return nil, err
	}
	if raw, ok := m["update"]; ok && len(bytes.TrimSpace(raw)) > 0 && bytes.TrimSpace(raw)[0] == '{' {
		return nil, badRequest(`Fields are sent at the top level of the body; the {"update": {...}} wrapper is not supported in v3.`)
	}
	return m, nil
}

// match resolves a path (without prefix) to a route.
func (s *Server) match(path string) *route {
	const base = "/api/um/"
	if !strings.HasPrefix(path, base) {
		return nil
	}
	segs := strings.Split(strings.Trim(path[len(base):], "/"), "/")
	if len(segs) == 0 {
		return nil
	}
	switch segs[0] {
	case "v3":
		return s.matchV3(segs[1:])
	case "v1":
		if len(segs) == 3 && segs[1] == "analytics" && segs[2] != "" {
			return s.analyticsRoute(segs[2])
		}
	case "analytics":
		if len(segs) == 2 && segs[1] != "" {
			return s.analyticsRoute(segs[1])
		}
	}
	return nil
}

func (s *Server) analyticsRoute(metric string) *route {
	return &route{metric: metric, methods: map[string]handlerFunc{http.MethodGet: (*request).analytics}}
}

func parsePathID(seg string) (int64, bool) {
	if seg == "" || seg[0] == '+' || seg[0] == '-' {
		return 0, false
	}
	id, err := strconv.ParseInt(seg, 10, 64)
	return id, err == nil
}

func (s *Server) matchV3(segs []string) *route {
	if len(segs) == 0 {
		return nil
	}
	res, rest := segs[0], segs[1:]
	type table struct {
		family string
		list   map[string]handlerFunc
		all    map[string]handlerFunc
		item   map[string]handlerFunc
		sub    map[string]map[string]handlerFunc
	}
	var t table
	switch res {
	case "conversations":
		t = table{family: "conversations",
			list: map[string]handlerFunc{http.MethodGet: (*request).listConversations, http.MethodDelete: (*request).bulkDeleteConversations},
			all:  map[string]handlerFunc{http.MethodGet: (*request).allConversations},
			item: map[string]handlerFunc{http.MethodGet: (*request).getConversation, http.MethodPatch: (*request).patchConversation, http.MethodDelete: (*request).deleteConversation},
			sub:  map[string]map[string]handlerFunc{"messages": {http.MethodGet: (*request).listMessages}},
		}
	case "contact_identities":
		t = table{family: "contacts",
			list: map[string]handlerFunc{http.MethodGet: (*request).listContacts, http.MethodDelete: (*request).bulkDeleteContacts, http.MethodPut: (*request).putContact},
			all:  map[string]handlerFunc{http.MethodGet: (*request).allContacts},
			item: map[string]handlerFunc{http.MethodGet: (*request).getContact, http.MethodPatch: (*request).patchContact, http.MethodDelete: (*request).deleteContact},
		}
	case "notes":
		t = table{family: "notes",
			list: map[string]handlerFunc{http.MethodGet: (*request).listNotes, http.MethodPost: (*request).createNote},
			item: map[string]handlerFunc{http.MethodGet: (*request).getNote, http.MethodDelete: (*request).deleteNote},
		}
	case "navigation":
		t = table{family: "navigation",
			list: map[string]handlerFunc{http.MethodGet: (*request).listNavigation},
		}
	case "operators":
		t = table{family: "operators",
			list: map[string]handlerFunc{http.MethodGet: (*request).listOperators},
			item: map[string]handlerFunc{http.MethodGet: (*request).getOperator, http.MethodPatch: (*request).patchOperator, http.MethodDelete: (*request).deleteOperator},
			sub: map[string]map[string]handlerFunc{
				"slots": {http.MethodGet: (*request).operatorSlots},
				"away":  {http.MethodPatch: (*request).operatorAway},
			},
		}
	default:
		return nil
	}
	switch {
	case len(rest) == 0 && t.list != nil:
		return &route{family: t.family, methods: t.list}
	case len(rest) == 1 && rest[0] == "all" && t.all != nil:
		return &route{family: t.family, methods: t.all}
	case len(rest) == 1 && t.item != nil:
		if id, ok := parsePathID(rest[0]); ok {
			return &route{family: t.family, methods: t.item, id: id}
		}
	case len(rest) == 2 && t.sub != nil:
		if m, ok := t.sub[rest[1]]; ok {
			if id, ok := parsePathID(rest[0]); ok {
				return &route{family: t.family, methods: m, id: id}
			}
		}
	}
	return nil
}

type logLine struct {
	Time       string  `json:"time"`
	Method     string  `json:"method"`
	Path       string  `json:"path"`
	Query      string  `json:"query"`
	Status     int     `json:"status"`
	DurationMS float64 `json:"duration_ms"`
	Error      string  `json:"error,omitempty"`
}

func (s *Server) logRequest(r *http.Request, status int, start time.Time, panicText string) {
	if s.opts.RequestLog == nil {
		return
	}
	if status == 0 {
		status = http.StatusOK
	}
	d := time.Since(start)
	ll := logLine{
		Time:       start.UTC().Format(time.RFC3339Nano),
		Method:     r.Method,
		Path:       r.URL.Path,
		Query:      r.URL.RawQuery,
		Status:     status,
		DurationMS: float64(d.Microseconds()) / 1000,
	}
	if panicText != "" {
		ll.Error = "panic: " + panicText
	}
	b, err := json.Marshal(ll)
	if err != nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	_, _ = s.opts.RequestLog.Write(append(b, '\n'))
}

// logInternal records an unexpected error in the request log (if any).
func (s *Server) logInternal(r *http.Request, err error) {
	if s.opts.RequestLog == nil {
		return
	}
	b, mErr := json.Marshal(map[string]string{
		"time":   time.Now().UTC().Format(time.RFC3339Nano),
		"method": r.Method,
		"path":   r.URL.Path,
		"error":  err.Error(),
	})
	if mErr != nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	_, _ = s.opts.RequestLog.Write(append(b, '\n'))
}

// singleValued refuses a parameter given more than once with a value (empty values count
// as absent), unless it takes several ids: the sandbox would otherwise have to pick one of
// the values without a word.
func singleValued(q url.Values, analytics bool) error {
	given := func(vs []string) int {
		n := 0
		for _, v := range vs {
			if strings.TrimSpace(v) != "" {
				n++
			}
		}
		return n
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		n := given(q[k])
		if n <= 1 {
			continue
		}
		switch k {
		case "exclude_ids", "delete_ids":
			continue
		case "organization_id", "um_widget_id", "operator_id", "operator_group_id":
			if analytics {
				continue
			}
		}
		return badRequest("%s: given %d times; send it once.", k, n)
	}
	return nil
}
