package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A handler that panics answers 500 with a JSON detail, and the request log records it.
func TestPanicBecomes500(t *testing.T) {
	var log bytes.Buffer
	s := &Server{
		opts:    Options{RequestLog: &log},
		tokens:  map[string]tokenInfo{"tok": {customer: true, orgID: 1}},
		ownerOf: map[int64]int64{1: 10},
		limits:  newLimiter(Options{DailyLimit: 10, BurstRate: -1, Burst: 1, AnalyticsPerMinute: 1}),
		// No database: the first query panics.
	}
	req := httptest.NewRequest(http.MethodGet, "/api/um/v3/operators/", nil)
	req.Header.Set("Authorization", "tok")
	req.Header.Set("Service-Operator-Id", "10")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("status %d", w.Code)
	}
	var body struct{ Detail string }
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Detail == "" {
		t.Fatalf("body %q", w.Body.String())
	}
	if !strings.Contains(log.String(), `"status":500`) || !strings.Contains(log.String(), "panic") {
		t.Fatalf("request log %q", log.String())
	}
}

// heldLog is a request log that notes what the client had received when each line came.
type heldLog struct {
	rec   *httptest.ResponseRecorder
	lines []string
	early []string // lines written after the response had reached the client
}

func (l *heldLog) Write(p []byte) (int, error) {
	l.lines = append(l.lines, string(p))
	// Both requests of the test are refused: a recorder still at its initial 200 with no
	// body has received nothing yet.
	if l.rec.Body.Len() > 0 || l.rec.Code != http.StatusOK {
		l.early = append(l.early, string(p))
	}
	return len(p), nil
}

// With a request log, a request is in the log before its answer leaves the server: a
// client that reads the log after an answer finds that request there.
func TestRequestLoggedBeforeTheAnswer(t *testing.T) {
	log := &heldLog{}
	s := &Server{
		opts:    Options{RequestLog: log},
		tokens:  map[string]tokenInfo{"tok": {customer: true, orgID: 1}},
		ownerOf: map[int64]int64{1: 10},
		limits:  newLimiter(Options{DailyLimit: 10, BurstRate: -1, Burst: 1, AnalyticsPerMinute: 1}),
	}
	for _, path := range []string{"/api/um/v3/nowhere/", "/api/um/v3/operators/"} {
		log.rec = httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "bad token")
		s.ServeHTTP(log.rec, req)
		if log.rec.Code < 400 || log.rec.Body.Len() == 0 {
			t.Fatalf("%s: status %d, body %q", path, log.rec.Code, log.rec.Body.String())
		}
	}
	if len(log.lines) != 2 || len(log.early) != 0 {
		t.Fatalf("%d lines, %d written after the answer: %q", len(log.lines), len(log.early), log.early)
	}
}
