package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ledger"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
)

// sandboxCounted reads the sandbox's request log: the conversations requests it counted
// (answered other than 429) and those it refused with 429.
func sandboxCounted(t *testing.T, log *syncBuffer) (counted, refused int) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if line == "" {
			continue
		}
		var l struct {
			Path   string `json:"path"`
			Status int    `json:"status"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("request log line %q: %v", line, err)
		}
		if !strings.Contains(l.Path, "/api/um/v3/conversations/") {
			continue
		}
		if l.Status == 429 {
			refused++
		} else {
			counted++
		}
	}
	return counted, refused
}

// ledgerCount is what the ledger in stateHome holds today for the conversations family of
// every organization of base.
func ledgerCount(t *testing.T, stateHome, base string) ledger.Counts {
	t.Helper()
	l, err := ledger.Open(ledger.Options{Dir: filepath.Join(stateHome, "parley", "ledger"), BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var sum ledger.Counts
	for _, r := range l.Snapshot(ledger.DayOf(time.Now())) {
		if r.Family == string(client.FamilyConversations) {
			sum = sum.Plus(r.Counts)
		}
	}
	return sum
}

// TestLedgerCountsWhatTheSandboxCounted: parley processes one after the other, then two at
// the same time until the daily limit answers 429, count into one ledger in the state
// directory; it holds what the sandbox counted, and the refused requests apart.
func TestLedgerCountsWhatTheSandboxCounted(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	if now := time.Now().UTC(); now.Add(2*time.Minute).Day() != now.Day() {
		t.Skip("too close to midnight UTC: the sandbox and the ledger would start a new day")
	}
	bin := parleyBinary(t)
	log := &syncBuffer{}
	const limit = 24
	sb := sandboxtest.Start(t, sandbox.Options{Size: sandbox.SizeSmall, Seed: 1, DailyLimit: limit, BurstRate: -1, RequestLog: log})
	state := t.TempDir()
	env := append(apiEnv(t, sb), "XDG_STATE_HOME="+state)
	export := func(max int) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "conversations", "export", "--page-size", "1", "--max", strconv.Itoa(max))
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if err != nil && !strings.Contains(stderr.String(), "Daily request limit") {
			t.Errorf("export --max %d: %v\n%s", max, err, stderr.String())
		}
		return err
	}

	// One process, then another: the second continues the first's count.
	for _, max := range []int{5, 4} {
		if err := export(max); err != nil {
			t.Fatal(err)
		}
		counted, refused := sandboxCounted(t, log)
		if got := ledgerCount(t, state, sb.URL); got.Answered != counted || got.Refused != refused || refused != 0 {
			t.Fatalf("after export --max %d: ledger %+v, the sandbox counted %d and refused %d", max, got, counted, refused)
		}
	}

	// Two at the same time, past the daily limit.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = export(limit)
		}()
	}
	wg.Wait()
	if errs[0] == nil && errs[1] == nil {
		t.Fatal("neither export reached the daily limit")
	}
	counted, refused := sandboxCounted(t, log)
	if counted != limit || refused == 0 {
		t.Fatalf("the sandbox counted %d and refused %d; want %d and some", counted, refused, limit)
	}
	got := ledgerCount(t, state, sb.URL)
	t.Logf("the sandbox counted %d and refused %d; the ledger holds %+v", counted, refused, got)
	if got.Answered != counted || got.Refused != refused || got.Unreached != 0 {
		t.Errorf("ledger %+v, the sandbox counted %d and refused %d", got, counted, refused)
	}
	// The ledger went to the state directory, private, and nowhere under HOME.
	day := ledger.DayOf(time.Now())
	entries, err := os.ReadDir(filepath.Join(state, "parley", "ledger"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("ledger directory: %v %v", entries, err)
	}
	if st, err := os.Stat(filepath.Join(state, "parley", "ledger", entries[0].Name(), day+".json")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("day file: %v %v", st, err)
	}
	if home := envListValue(env, "HOME"); home != "" {
		if _, err := os.Stat(filepath.Join(home, ".local", "state", "parley")); err == nil {
			t.Error("a ledger under HOME although XDG_STATE_HOME is set")
		}
	}
}

// TestDemoAndNoStateDirCountInMemory: demo mode keeps no ledger (the embedded sandbox
// forgets its own counts when it stops); without a state directory parley says so and
// counts in memory.
func TestDemoAndNoStateDirCountInMemory(t *testing.T) {
	var stderr strings.Builder
	if l := openLedger(clientConfig{Demo: true, BaseURL: "http://127.0.0.1:1", LedgerDir: t.TempDir()}, &stderr); l != nil {
		t.Error("a ledger in demo mode")
	}
	if l := openLedger(clientConfig{BaseURL: "https://api.example.com"}, &stderr); l != nil || !strings.Contains(stderr.String(), "kept in memory") {
		t.Errorf("no state directory: ledger %v, stderr %q", l, stderr.String())
	}
	stderr.Reset()
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if l := openLedger(clientConfig{BaseURL: "https://api.example.com", LedgerDir: filepath.Join(blocked, "ledger")}, &stderr); l != nil ||
		!strings.Contains(stderr.String(), "kept in memory for this run") {
		t.Errorf("state directory not writable: ledger %v, stderr %q", l, stderr.String())
	}
}
