package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/credentials"
	"github.com/parley-tui/parley/sanitize"
)

// openSession resolves flags, environment, config file and token into a session for CLI
// commands (no response cache; requests go to the --debug log).
func openSession(ctx context.Context, g *globalFlags, stderr io.Writer) (*session, error) {
	s, err := resolveSettings(ctx, g, os.Getenv)
	if err != nil {
		return nil, err
	}
	return openSessionWith(ctx, g, s, stderr)
}

// openSessionWith is openSession with the settings resolved.
func openSessionWith(ctx context.Context, g *globalFlags, s Settings, stderr io.Writer) (*session, error) {
	dl, err := openDebugLog(g.debug)
	if err != nil {
		return nil, err
	}
	sess, err := sessionFor(ctx, s, stderr, dl, waitNotices(stderr), nil, 0)
	if err != nil {
		_ = dl.close()
		return nil, err
	}
	sess.closers = append(sess.closers, dl.close)
	return sess, nil
}

// sessionFor builds the session of resolved settings: the embedded sandbox in demo mode,
// else the configured API with the token from env, keyring or file. Its client's events
// and requests go to the debug log, then to onEvent and onRequest (nil: nowhere else).
func sessionFor(ctx context.Context, s Settings, stderr io.Writer, dl *debugLog, onEvent func(client.Event),
	onRequest func(client.RequestInfo), cacheTTL time.Duration) (*session, error) {
	cfg := clientConfig{Version: s.Version, BaseURL: s.BaseURL, OrgID: s.OrganizationID, OperatorID: s.OperatorID,
		Demo: s.Demo, OnEvent: func(e client.Event) {
			dl.event(e)
			if onEvent != nil {
				onEvent(e)
			}
		}, OnRequest: func(r client.RequestInfo) {
			dl.request(r)
			if onRequest != nil {
				onRequest(r)
			}
		}, CacheTTL: cacheTTL, CacheMaxBytes: s.CacheSize, Timeout: s.RequestTimeout,
		LedgerDir: s.LedgerDir, OnLedgerError: func(err error) { dl.log.Warn("ledger", "problem", err.Error()) }}
	if proc := processFrom(ctx); proc != nil {
		cfg.Recover = proc.Recover
	}
	dl.log.Info("start", "version", s.Version, "demo", s.Demo, "config", s.ConfigPath)
	if s.Demo {
		fmt.Fprintln(stderr, "parley: using demo data from the embedded sandbox ("+s.DemoReason+")")
	} else {
		tok, err := lookupToken(ctx, s, stderr, dl)
		if err != nil {
			return nil, err
		}
		cfg.Token = tok.Reveal()
	}
	return newSession(ctx, cfg, stderr)
}

// lookupToken finds the token, telling the user when the keyring is slow to answer and
// when it gave up on it. The --debug log gets where the token came from and why the
// keyring was not used (never the token).
func lookupToken(ctx context.Context, s Settings, stderr io.Writer, dl *debugLog) (credentials.Token, error) {
	done, stopped := make(chan struct{}), make(chan struct{})
	proc := processFrom(ctx)
	go func() {
		defer close(stopped)
		defer proc.Recover("the keyring notice")
		select {
		case <-done:
		case <-time.After(400 * time.Millisecond):
			fmt.Fprintf(stderr, "parley: waiting for the OS keyring (at most %s)…\n", credentials.DefaultTimeout)
		}
	}()
	start := time.Now()
	tok, err := s.Token(ctx)
	took := time.Since(start)
	close(done)
	<-stopped // its notice, if any, comes before what follows
	if kp := s.Credentials.KeyringProblem(); kp != nil {
		dl.log.Warn("keyring", "problem", kp.Error(), "lookup_ms", took.Milliseconds())
		if errors.Is(kp, credentials.ErrKeyringTimeout) {
			fmt.Fprintf(stderr, "parley: the OS keyring did not answer within %s; not using it this run\n", credentials.DefaultTimeout)
		}
	}
	if errors.Is(err, credentials.ErrNoToken) {
		dl.log.Info("token", "source", "none", "lookup_ms", took.Milliseconds())
		return tok, errors.New("no token for the configured API: set PARLEY_TOKEN or run `parley auth login`")
	}
	if err != nil {
		return tok, fmt.Errorf("read the token: %w", err)
	}
	dl.log.Info("token", "source", tok.Source.String(), "lookup_ms", took.Milliseconds())
	return tok, nil
}

// waitNotices tells a command's user on stderr why it is waiting: a retry after a 429, a
// 5xx or a failed connection, and an analytics request queued by the client-side limit of
// 10 per minute per metric. Without it a script would sit silent through a Retry-After.
// Each notice is a line of its own; on a terminal it first clears a progress counter,
// which redraws itself on its next update.
func waitNotices(stderr io.Writer) func(client.Event) {
	var mu sync.Mutex
	clear := ""
	if isTerminal(stderr) {
		clear = "\r\x1b[K"
	}
	return func(e client.Event) {
		if e.Kind != client.EventRetry && e.Kind != client.EventQueued {
			return // a failure ends the command with its error; an answer needs no notice
		}
		text := waitNotice(e)
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stderr, "%sparley: %s\n", clear, text)
	}
}

// waitNotice says in words what the client waits for and how long.
func waitNotice(e client.Event) string {
	d := roundWait(e.Delay)
	if e.Kind == client.EventQueued {
		return fmt.Sprintf("analytics limit of 10 requests per minute for %s reached; waiting %s", e.Family.Metric(), d)
	}
	var why string
	switch {
	case e.Status == 429:
		why = "rate-limited by the API (429)"
	case e.Status != 0:
		why = fmt.Sprintf("the API answered %d", e.Status)
	case e.Err != nil:
		if text, ok := client.NetworkProblem(e.Err); ok {
			why = sanitize.Line(text)
		} else {
			why = "request failed (" + sanitize.Line(e.Err.Error()) + ")"
		}
	default:
		why = "request failed"
	}
	what := string(e.Family)
	if e.Family.IsAnalytics() {
		what = string(e.Family.Metric())
	}
	return fmt.Sprintf("%s; sending the %s request again in %s (retry %d)", why, what, d, e.Attempt)
}

// roundWait shows a wait in whole seconds, or in milliseconds below one second.
func roundWait(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}
