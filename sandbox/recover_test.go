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
