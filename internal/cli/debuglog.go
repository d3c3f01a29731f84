package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/parley-tui/parley/client"
)

// debugLog is the --debug log: one line per request attempt (method, path, query, status,
// duration; never the token), client waits, and start-up facts. Stdout belongs to the TUI,
// so it goes to a file.
type debugLog struct {
	log   *slog.Logger
	close func() error
}

// openDebugLog opens path for appending (mode 0600); "" gives a log that discards.
func openDebugLog(path string) (*debugLog, error) {
	if path == "" {
		return &debugLog{log: slog.New(slog.NewTextHandler(io.Discard, nil)), close: func() error { return nil }}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the debug log: %w", err)
	}
	return &debugLog{log: slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})), close: f.Close}, nil
}

// request logs one attempt.
func (d *debugLog) request(r client.RequestInfo) {
	attrs := []any{"method", r.Method, "path", r.Path, "family", string(r.Family), "status", r.Status,
		"duration_ms", r.Duration.Milliseconds()}
	if r.Query != "" {
		attrs = append(attrs, "query", r.Query)
	}
	if r.Attempt > 0 {
		attrs = append(attrs, "attempt", r.Attempt+1)
	}
	if r.Cached {
		attrs = append(attrs, "cached", true)
	}
	if r.Err != nil {
		attrs = append(attrs, "error", r.Err.Error())
	}
	d.log.Debug("request", attrs...)
}

// event logs a client wait (retry or analytics queue), a request that failed for good
// with a trouble the status bar shows, and the answer that ended one.
func (d *debugLog) event(e client.Event) {
	switch e.Kind {
	case client.EventQueued:
		d.log.Info("queued", "family", string(e.Family), "method", e.Method, "delay", e.Delay.String())
	case client.EventFailed:
		attrs := []any{"family", string(e.Family), "method", e.Method, "status", e.Status, "retries", e.Attempt, "problem", e.Problem.String()}
		if !e.Until.IsZero() {
			attrs = append(attrs, "until", e.Until.UTC().Format(time.RFC3339))
		}
		d.log.Info("failed", attrs...)
	case client.EventAnswered:
		d.log.Info("answered", "family", string(e.Family), "method", e.Method, "status", e.Status)
	default:
		d.log.Info("retry", "family", string(e.Family), "method", e.Method, "status", e.Status, "delay", e.Delay.String(),
			"attempt", e.Attempt, "problem", e.Problem.String())
	}
}
