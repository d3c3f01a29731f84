package ledger

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/atomicfile"
	"github.com/parley-tui/parley/internal/waitfor"
)

const testBase = "https://api.example.com/prefix"

// helperEnv names the directory a helper process (TestMain) counts in.
const helperEnv = "LEDGER_TEST_HELPER_DIR"

// TestMain doubles as the helper process of TestTwoProcessesCountEverything: with
// helperEnv set it says it is ready on stdout, waits for the go line on stdin, adds its
// counts and exits.
func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		os.Exit(helperProcess(dir))
	}
	os.Exit(m.Run())
}

func helperProcess(dir string) int {
	n, _ := strconv.Atoi(os.Getenv("LEDGER_TEST_HELPER_N"))
	// The lock is polled: on a busy machine the other process may hold on to it through
	// many of its adds, longer than DefaultLockWait. What is tested is that nothing is lost.
	l, err := Open(Options{Dir: dir, BaseURL: testBase, LockWait: time.Minute})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	// The parent starts both processes' counting at once.
	if line, err := bufio.NewReader(os.Stdin).ReadString('\n'); line != "go\n" {
		fmt.Fprintf(os.Stderr, "no go line: %q, %v\n", line, err)
		return 1
	}
	day := os.Getenv("LEDGER_TEST_HELPER_DAY")
	for range n {
		if err := l.Add(day, Key{1001, "conversations"}, Counts{Answered: 1}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if err := l.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func open(t *testing.T, dir string, mod func(*Options)) *Ledger {
	t.Helper()
	o := Options{Dir: dir, BaseURL: testBase, Now: fixedNow}
	if mod != nil {
		mod(&o)
	}
	l, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

var testNow = time.Date(2026, 3, 14, 23, 30, 0, 0, time.UTC)

func fixedNow() time.Time { return testNow }

const today = "2026-03-14"

// TestRestartContinuesTheDay: a new ledger on the same directory (a parley started again)
// starts from the day's counts, not from zero.
func TestRestartContinuesTheDay(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	conv := Key{1001, "conversations"}
	for range 15 {
		if err := l.Add(today, conv, Counts{Answered: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Add(today, conv, Counts{Refused: 2, Unreached: 1}); err != nil {
		t.Fatal(err)
	}
	if err := l.Add(today, Key{0, "analytics:um_operator_status"}, Counts{Answered: 3}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	again := open(t, dir, nil)
	if got, want := again.Get(today, conv), (Counts{Answered: 15, Refused: 2, Unreached: 1}); got != want {
		t.Errorf("after a restart: %+v, want %+v", got, want)
	}
	want := []Row{
		{Key{0, "analytics:um_operator_status"}, Counts{Answered: 3}},
		{conv, Counts{Answered: 15, Refused: 2, Unreached: 1}},
	}
	if got := again.Snapshot(today); !reflect.DeepEqual(got, want) {
		t.Errorf("snapshot %+v, want %+v", got, want)
	}
	// Another day, another API: nothing.
	if got := again.Get("2026-03-13", conv); !got.IsZero() {
		t.Errorf("yesterday: %+v", got)
	}
	other := open(t, dir, func(o *Options) { o.BaseURL = "https://api.example.com/other" })
	if got := other.Snapshot(today); len(got) != 0 {
		t.Errorf("another base URL sees %+v", got)
	}
}

// TestTwoLedgersOnOneDirectoryCountEverything: two ledgers of one base URL (two parleys)
// adding at the same time lose no count, and each sees the other's after Refresh.
func TestTwoLedgersOnOneDirectoryCountEverything(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir, nil), open(t, dir, nil)
	const n = 150
	k := Key{1001, "conversations"}
	var wg sync.WaitGroup
	errs := make(chan error, 4*n)
	for _, l := range []*Ledger{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				errs <- l.Add(today, k, Counts{Answered: 1})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, l := range map[string]*Ledger{"a": a, "b": b} {
		if err := l.Refresh(); err != nil {
			t.Fatal(err)
		}
		if got := l.Get(today, k).Answered; got != 4*n {
			t.Errorf("%s sees %d, want %d", name, got, 4*n)
		}
	}
	if got := open(t, dir, nil).Get(today, k).Answered; got != 4*n {
		t.Errorf("the file holds %d, want %d", got, 4*n)
	}
}

// TestTwoProcessesCountEverything: two processes counting into one ledger at the same time
// lose nothing (the file lock).
func TestTwoProcessesCountEverything(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no file lock on this platform")
	}
	dir := t.TempDir()
	const n = 200
	var cmds []*exec.Cmd
	var gos []io.WriteCloser
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+dir, "LEDGER_TEST_HELPER_N="+strconv.Itoa(n), "LEDGER_TEST_HELPER_DAY="+today)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Its ready line: it opened the ledger.
		if line, err := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
			t.Fatalf("the helper did not start: %q, %v; stderr: %s", line, err, stderr.String())
		}
		gos = append(gos, in)
		t.Cleanup(func() {
			if t.Failed() && stderr.Len() > 0 {
				t.Logf("helper stderr: %s", stderr.String())
			}
		})
		cmds = append(cmds, cmd)
	}
	for _, in := range gos {
		if _, err := io.WriteString(in, "go\n"); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper: %v", err)
		}
	}
	if got := open(t, dir, nil).Get(today, Key{1001, "conversations"}).Answered; got != 2*n {
		t.Errorf("the ledger holds %d, want %d", got, 2*n)
	}
}

// TestFilesArePrivateAndKeyedByTheBaseURL: directory 0700, files 0600, one directory per
// base URL (the same API written differently is the same), and the base URL stored without
// credentials or query.
func TestFilesArePrivateAndKeyedByTheBaseURL(t *testing.T) {
	root := filepath.Join(t.TempDir(), "state", "parley", "ledger")
	l := open(t, root, func(o *Options) { o.BaseURL = "https://user:secret-pass@API.Example.com:443/prefix/?token=abc#x" })
	if err := l.Add(today, Key{7, "contacts"}, Counts{Answered: 1}); err != nil {
		t.Fatal(err)
	}
	same := open(t, root, func(o *Options) { o.BaseURL = "https://api.example.com/prefix" })
	if same.Path() != l.Path() || same.Get(today, Key{7, "contacts"}).Answered != 1 {
		t.Errorf("the same API written differently: %s and %s", l.Path(), same.Path())
	}
	for _, other := range []string{"http://api.example.com/prefix", "https://api.example.com:8443/prefix", "https://api.example.com"} {
		if o := open(t, root, func(o *Options) { o.BaseURL = other }); o.Path() == l.Path() {
			t.Errorf("%s shares the ledger of %s", other, testBase)
		}
	}
	if runtime.GOOS != "windows" {
		for _, d := range []string{root, l.Path()} {
			if st, err := os.Stat(d); err != nil || st.Mode().Perm() != 0o700 {
				t.Errorf("%s: %v %v, want 0700", d, st.Mode().Perm(), err)
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(l.Path(), today+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(filepath.Join(l.Path(), today+".json")); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("day file mode %v", st.Mode().Perm())
	}
	for _, secret := range []string{"secret-pass", "user", "token", "abc"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the file holds %q:\n%s", secret, b)
		}
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil || rec.API != "https://api.example.com/prefix" || rec.Day != today ||
		!reflect.DeepEqual(rec.Counts, []result{{Org: 7, Family: "contacts", Answered: 1}}) {
		t.Errorf("file %s: %v", b, err)
	}
	// A directory made wider by hand is narrowed again.
	if runtime.GOOS != "windows" {
		if err := os.Chmod(l.Path(), 0o755); err != nil {
			t.Fatal(err)
		}
		open(t, root, nil)
		if st, _ := os.Stat(l.Path()); st.Mode().Perm() != 0o700 {
			t.Errorf("reopened: mode %v", st.Mode().Perm())
		}
	}
}

// TestOldDaysArePruned: days older than Keep go, of every base URL; recent days, today and
// other files stay.
func TestOldDaysArePruned(t *testing.T) {
	root := t.TempDir()
	mine, other := open(t, root, nil), open(t, root, func(o *Options) { o.BaseURL = "https://other.example" })
	for _, l := range []*Ledger{mine, other} {
		for _, d := range []string{"2026-03-06", "2026-03-07", "2026-03-13", today} {
			if err := l.Add(d, Key{1, "contacts"}, Counts{Answered: 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	stray := filepath.Join(root, "notes.txt")
	if err := os.WriteFile(stray, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	oldTemp := filepath.Join(mine.Path(), ".2026-03-14.123.tmp")
	freshTemp := filepath.Join(mine.Path(), ".2026-03-14.456.tmp")
	for _, p := range []string{oldTemp, freshTemp} {
		if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hourAgo := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(oldTemp, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	open(t, root, nil) // Keep 7: 2026-03-07 … 2026-03-14 stay
	for _, l := range []*Ledger{mine, other} {
		for d, want := range map[string]bool{"2026-03-06": false, "2026-03-07": true, "2026-03-13": true, today: true} {
			_, err := os.Stat(filepath.Join(l.Path(), d+".json"))
			if got := err == nil; got != want {
				t.Errorf("%s %s: kept %v, want %v", l.Path(), d, got, want)
			}
		}
	}
	for p, want := range map[string]bool{stray: true, oldTemp: false, freshTemp: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", p, err == nil, want)
		}
	}
}

// TestDamagedAndForeignFiles: a file that is not a ledger file is kept aside and the day
// starts again; a newer parley's file is never overwritten, and the counts then stay in
// memory, shown, until it can be written.
func TestDamagedAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	day := filepath.Join(l.Path(), today+".json")
	k := Key{1, "conversations"}
	if err := os.WriteFile(day, []byte("{half a fi"), 0o600); err != nil {
		t.Fatal(err)
	}
	var reported []error
	var mu sync.Mutex
	m := open(t, dir, func(o *Options) {
		o.OnError = func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() }
	})
	if err := m.Add(today, k, Counts{Answered: 1}); err != nil {
		t.Fatalf("add over a damaged file: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(l.Path(), today+".json.damaged-20260314T233000Z")); err != nil || string(b) != "{half a fi" {
		t.Errorf("damaged file kept aside: %q %v", b, err)
	}
	if got := open(t, dir, nil).Get(today, k).Answered; got != 1 {
		t.Errorf("after the damaged file: %d", got)
	}
	mu.Lock()
	if len(reported) == 0 || !errors.Is(reported[0], errDamaged) {
		t.Errorf("reported %v", reported)
	}
	mu.Unlock()

	newer := `{"version": 9, "api": "https://api.example.com/prefix", "day": "` + today + `", "counts": "elsewhere"}`
	if err := os.WriteFile(day, []byte(newer), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(today, k, Counts{Answered: 1}); err == nil || !strings.Contains(err.Error(), "newer parley") {
		t.Fatalf("add over a newer file: %v", err)
	}
	if b, _ := os.ReadFile(day); string(b) != newer {
		t.Errorf("the newer file was changed: %s", b)
	}
	if got := m.Get(today, k).Answered; got < 1 {
		t.Errorf("the count not written is not shown: %d", got)
	}
	if err := os.Remove(day); err != nil {
		t.Fatal(err)
	}
	if err := m.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := open(t, dir, nil).Get(today, k).Answered; got != 1 {
		t.Errorf("the count kept in memory was not written: %d", got)
	}
}

// TestRefreshShowsOtherProcessesAndANewDay: the refresh goroutine brings in another
// ledger's counts, and a new UTC day shows its own counts.
func TestRefreshShowsOtherProcessesAndANewDay(t *testing.T) {
	dir := t.TempDir()
	var clock struct {
		sync.Mutex
		t time.Time
	}
	clock.t = testNow
	now := func() time.Time { clock.Lock(); defer clock.Unlock(); return clock.t }
	watcher := open(t, dir, func(o *Options) { o.Now, o.RefreshEvery = now, 5*time.Millisecond })
	writer := open(t, dir, nil)
	k := Key{1001, "operators"}
	if err := writer.Add(today, k, Counts{Answered: 4}); err != nil {
		t.Fatal(err)
	}
	waitfor.True(t, "the other ledger's count", func() bool { return watcher.Get(today, k).Answered == 4 })

	tomorrow := "2026-03-15"
	if err := writer.Add(tomorrow, k, Counts{Answered: 2}); err != nil {
		t.Fatal(err)
	}
	watcher.Each(tomorrow, func(Key, Counts) { t.Error("a day not read yet has counts") })
	clock.Lock()
	clock.t = testNow.Add(time.Hour)
	clock.Unlock()
	waitfor.True(t, "the new day's count", func() bool { return watcher.Get(tomorrow, k).Answered == 2 })
	if err := watcher.Close(); err != nil {
		t.Fatal(err)
	}
}

// guard records a panic it recovers, as the program's crash guard would.
type guard struct {
	mu    sync.Mutex
	where string
	value any
}

func (g *guard) Recover(where string) {
	if r := recover(); r != nil {
		g.mu.Lock()
		g.where, g.value = where, r
		g.mu.Unlock()
	}
}

// TestRefreshPanicReachesTheGuard: a panic in the refresh goroutine goes to Options.Recover
// and ends the goroutine; Close still returns and counting still works.
func TestRefreshPanicReachesTheGuard(t *testing.T) {
	dir := t.TempDir()
	var g guard
	w := open(t, dir, func(o *Options) {
		o.RefreshEvery = time.Millisecond
		o.Recover = g.Recover
		o.OnError = func(err error) {
			if strings.Contains(err.Error(), "newer parley") {
				panic("a bug in the error handler")
			}
		}
	})
	// Put in place whole, as a parley writes its day: the refresh runs every millisecond,
	// and a file it caught half written it would set aside as damaged instead.
	if err := atomicfile.Write(filepath.Join(w.Path(), today+".json"), "."+today+".*.tmp", []byte(`{"version": 99}`)); err != nil {
		t.Fatal(err)
	}
	waitfor.True(t, "the panic at the guard", func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.value != nil })
	if g.where != "the request ledger" || g.value != "a bug in the error handler" {
		t.Errorf("guard got %q %v", g.where, g.value)
	}
	done := make(chan error, 1)
	go func() { done <- w.Close() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close hangs after the refresh goroutine ended")
	}
}

// TestLockHeldByAnotherProcess: while another process holds the lock longer than LockWait,
// Add says so and keeps the count, shown; it is written once the lock is free.
func TestLockHeldByAnotherProcess(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no file lock on this platform")
	}
	dir := t.TempDir()
	l := open(t, dir, func(o *Options) { o.LockWait = 20 * time.Millisecond })
	unlock, err := open(t, dir, nil).files.lock()
	if err != nil {
		t.Fatal(err)
	}
	k := Key{1, "navigation"}
	if err := l.Add(today, k, Counts{Answered: 1}); err == nil || !errors.Is(err, errLockTimeout) {
		t.Fatalf("add while locked: %v", err)
	}
	if got := l.Get(today, k).Answered; got != 1 {
		t.Errorf("shown while locked: %d", got)
	}
	unlock()
	if err := l.Add(today, k, Counts{Answered: 1}); err != nil {
		t.Fatal(err)
	}
	if got := open(t, dir, nil).Get(today, k).Answered; got != 2 {
		t.Errorf("written after the lock: %d, want 2", got)
	}
}

func TestAddRefusesWhatIsNotADay(t *testing.T) {
	l := open(t, t.TempDir(), nil)
	for _, d := range []string{"", "../../etc", "2026-3-14", "2026-02-30", "2026-03-14/x"} {
		if err := l.Add(d, Key{1, "contacts"}, Counts{Answered: 1}); err == nil {
			t.Errorf("Add(%q) succeeded", d)
		}
	}
	if _, err := Open(Options{Dir: t.TempDir(), BaseURL: "not a url"}); err == nil {
		t.Error("Open accepted a base URL without scheme and host")
	}
	if _, err := Open(Options{BaseURL: testBase}); err == nil {
		t.Error("Open accepted no directory")
	}
}

func TestDefaultDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, err := DefaultDir(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})); err != nil || d != filepath.Join("/s", "parley", "ledger") {
		t.Errorf("XDG_STATE_HOME: %q %v", d, err)
	}
	d, err := DefaultDir(env(map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h", "LocalAppData": `C:\L`}))
	var want string
	switch runtime.GOOS {
	case "windows":
		want = filepath.Join(`C:\L`, "parley", "ledger")
	case "darwin":
		want = filepath.Join("/h", "Library", "Application Support", "parley", "ledger")
	default:
		want = filepath.Join("/h", ".local", "state", "parley", "ledger")
	}
	if err != nil || d != want {
		t.Errorf("without XDG_STATE_HOME: %q %v, want %q", d, err, want)
	}
	if _, err := DefaultDir(env(nil)); err == nil {
		t.Error("no directory and no error")
	}
}

// BenchmarkAdd measures the write-through cost of one counted request.
func BenchmarkAdd(b *testing.B) {
	l, err := Open(Options{Dir: b.TempDir(), BaseURL: testBase, Now: fixedNow})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	for _, f := range []string{"contacts", "navigation", "operators", "notes"} {
		if err := l.Add(today, Key{1001, f}, Counts{Answered: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if err := l.Add(today, Key{1001, "conversations"}, Counts{Answered: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
