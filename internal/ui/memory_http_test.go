//go:build large

package ui_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/parley-tui/parley/sandbox"
)

// memoryBudget is 40 MB: parley's resident set after paging 12,000 conversations
// through HTTP and scrolling a 1,234-message thread to its start stays within it.
const memoryBudget = 40_000_000

// Where the memory probe goes: at least this many conversations paged in, and the long
// thread's length.
const (
	probeConversations = 12000
	probeMessages      = 1234
)

// TestParleyMemoryThroughHTTP: parley's RSS after paging 12,000 conversations of the large
// data set (12,888 in the default organization; past the API's 10,000 through /all/)
// through a real HTTP server at 120×40 the way ctrl+d pages (JSON decoding, the client's
// memory and the list all take part, each page drawn), and scrolling a 1,234-message
// thread back to its first message a page at a time, stays within 40 MB. The sandbox
// serves from this process; parley runs in a fresh one (this test binary run again with
// only the probe), so that only parley's memory is measured.
//
// The figure held is VmRSS of /proc/self/status once the Go runtime has collected the
// garbage and returned the pages it freed to the system (debug.FreeOSMemory): what parley
// keeps resident. Right after the last page, before the runtime's scavenger returns what
// decoding left free, VmRSS is higher and varies from run to run with when the scavenger
// ran; it is logged beside the heap in use. Like the other tests of the large data set it
// runs with -tags large (a step of the CI of its own), and -short leaves it out there.
func TestParleyMemoryThroughHTTP(t *testing.T) {
	if os.Getenv("PARLEY_MEMORY_PROBE") != "" {
		t.Skip("inside the probe")
	}
	if testing.Short() {
		t.Skip("seeds the large data set")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: RSS not measured here")
	}
	t.Parallel()
	began := time.Now()
	run, err := sandbox.Start(t.Context(), sandbox.Options{DBPath: filepath.Join(t.TempDir(), "large.db"),
		Size: sandbox.SizeLarge, LongThread: probeMessages, Now: clock, BurstRate: -1, DailyLimit: 1 << 40}, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start the large sandbox: %v", err)
	}
	t.Cleanup(func() { _ = run.Close() })
	info := run.Server.Info()
	cmd := exec.Command(os.Args[0], "-test.run=^TestParleyMemoryProbe$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "PARLEY_MEMORY_PROBE=1", "PARLEY_MEMORY_URL="+run.URL,
		"PARLEY_MEMORY_TOKEN="+info.CustomerToken, "PARLEY_MEMORY_THREAD="+strconv.FormatInt(info.LongConversationID, 10))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`RSS (\d+) bytes settled, (\d+) bytes at once, heap (\d+) bytes, (\d+) conversations, (\d+) messages`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the probe measured nothing:\n%s", out)
	}
	n := func(i int) int64 { v, _ := strconv.ParseInt(string(m[i]), 10, 64); return v }
	if n(4) < probeConversations || n(5) != probeMessages {
		t.Fatalf("the probe paged %d conversations and scrolled %d messages, want %d and %d", n(4), n(5), probeConversations, probeMessages)
	}
	t.Logf("RSS %.1f MB (%.1f MB right after the last page; heap in use %.1f MB) after paging %d conversations and scrolling %d messages; %v with the data set",
		float64(n(1))/1e6, float64(n(2))/1e6, float64(n(3))/1e6, n(4), n(5), time.Since(began).Round(time.Millisecond))
	if n(1) > memoryBudget {
		t.Fatalf("RSS %.1f MB, budget %.0f MB", float64(n(1))/1e6, float64(memoryBudget)/1e6)
	}
}

// TestParleyMemoryProbe is parley's side of TestParleyMemoryThroughHTTP; it runs only as
// its probe.
func TestParleyMemoryProbe(t *testing.T) {
	t.Parallel()
	if os.Getenv("PARLEY_MEMORY_PROBE") == "" {
		t.Skip("runs only as TestParleyMemoryThroughHTTP's probe")
	}
	thread, _ := strconv.ParseInt(os.Getenv("PARLEY_MEMORY_THREAD"), 10, 64)
	app, tri := loadThroughHTTP(t, os.Getenv("PARLEY_MEMORY_URL"), os.Getenv("PARLEY_MEMORY_TOKEN"), probeConversations, thread)
	_ = app.Render()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	atOnce := readRSS(t)
	debug.FreeOSMemory()
	fmt.Printf("RSS %d bytes settled, %d bytes at once, heap %d bytes, %d conversations, %d messages\n",
		readRSS(t), atOnce, ms.HeapInuse, len(tri.List.Rows()), tri.Msgs.Loaded())
	runtime.KeepAlive(app)
}
