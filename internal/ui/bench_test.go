package ui_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/list"
	"charm.land/bubbles/v2/paginator"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// The performance figures of docs/performance.md, measured with:
//
//	go test -run '^$' -bench Frame -count 5 -benchtime 1000x ./internal/ui/
//	go test -run '^$' -bench KeyBytes -count 5 -benchtime 1x ./internal/ui/
//	go test -tags large -run 'TestKeystrokeBytes|TestParleyMemoryThroughHTTP' -v ./internal/ui/
const (
	benchConversations = 10000
	benchMessages      = 5000
)

var (
	dataOnce sync.Once
	convs    []client.Conversation
	msgs     []client.Message
)

// benchData builds 10,000 conversations and a 5,000-message thread shaped like the API's.
func benchData() ([]client.Conversation, []client.Message) {
	dataOnce.Do(func() {
		names := []string{"Anna Schmidt", "王 伟", "Sofía Sánchez", "Jonas Meyer", "נועה לוי", "Freya Roberts", "Léa Bernard", "Giulia Colombo"}
		texts := []string{
			"Hi, I have a question about my order, it has not arrived yet and the tracking page shows nothing.",
			"Thanks, that's really helpful.",
			"Could you check whether the jacket is available in size M? 👩‍💻",
			"مرحبا، أحتاج إلى مساعدة في طلبي",
			"您好！您的订单将在两个工作日内发货。",
		}
		now := viewtest.Now
		convs = make([]client.Conversation, benchConversations)
		for i := range convs {
			name := names[i%len(names)]
			op := int64(1 + i%7)
			convs[i] = client.Conversation{
				ID:                 int64(1_000_000 - i),
				Status:             []string{"new", "pending", "ended"}[i%3],
				Contact:            client.Contact{ID: int64(i), Name: &name},
				LastMessage:        &client.Message{Body: texts[i%len(texts)], Sender: client.Sender{Type: []string{"contact", "operator"}[i%2]}},
				LastMessageSentAt:  client.Time{Time: now.Add(-time.Duration(i) * time.Minute)},
				OperatorAssignedTo: &op,
				MarkedReadOperator: i%4 != 0,
				Topics:             []client.Topic{{ID: int64(i % 5), Text: "Billing"}, {ID: 9, Text: "Sales lead"}},
			}
		}
		msgs = make([]client.Message, benchMessages)
		for i := range msgs {
			op := i%2 == 0
			sender := client.Sender{Type: "contact", ID: 1}
			if op {
				sender = client.Sender{Type: "operator", ID: 3}
			}
			msgs[i] = client.Message{
				ID:          fmt.Sprintf("42.1.%d", benchMessages-i),
				Body:        texts[i%len(texts)] + " " + strconv.Itoa(i),
				Sender:      sender,
				DisplayName: "Anna",
				SentAt:      client.Time{Time: now.Add(-time.Duration(i) * 30 * time.Second)},
				State:       client.MessageState{Type: 4, Message: "Read by user"},
			}
		}
	})
	return convs, msgs
}

// latinData is benchData with every name and text in Latin letters (the same shapes and
// lengths of rows): no character a terminal draws two columns wide.
func latinData() ([]client.Conversation, []client.Message) {
	cs, ms := benchData()
	latin := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			if r > 0x7e {
				r = 'a' + r%26
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	outC := make([]client.Conversation, len(cs))
	for i, c := range cs {
		name := latin(client.Str(c.Contact.Name))
		c.Contact.Name = &name
		last := *c.LastMessage
		last.Body = latin(last.Body)
		c.LastMessage = &last
		outC[i] = c
	}
	outM := make([]client.Message, len(ms))
	for i, m := range ms {
		m.Body = latin(m.Body)
		outM[i] = m
	}
	return outC, outM
}

// loadedApp is the root model at w×h with the big data preloaded and the thread open,
// drawn in colour (the dark theme's styles, as on a terminal with colour).
func loadedApp(tb testing.TB, w, h int) *ui.App {
	tb.Helper()
	cs, ms := benchData()
	return appWith(tb, w, h, cs, ms)
}

// appWith is loadedApp with the conversations cs and the thread ms.
func appWith(tb testing.TB, w, h int, cs []client.Conversation, ms []client.Message) *ui.App {
	tb.Helper()
	// No server: the data is preloaded and nothing here sends a request (the rest timer's
	// command is never run), so the memory measured is parley's alone.
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t", Now: clock})
	if err != nil {
		tb.Fatal(err)
	}
	app := ui.New(ui.Options{
		Client:          c,
		Styles:          theme.New(theme.Default(), true, false),
		Keys:            keymap.Default(),
		Now:             clock,
		Demo:            true,
		RefreshInterval: 30 * time.Second,
		RequestBudget:   400,
		PageSize:        100,
	})
	app.Update(tea.WindowSizeMsg{Width: w, Height: h})
	tri := app.Screen().(*conversations.Model)
	tri.List.Preload(cs, len(cs))
	tri.Msgs.Preload(42, "Anna", ms)
	app.Render()
	return app
}

// bigApp is the root model loaded the way a user loads it, through HTTP from a sandbox of
// the large data set with a 5,000-message thread (loadThroughHTTP): 10,000 conversations
// paged in with ctrl+d (JSON decoding, the client's memory and the list all take part),
// the long thread opened and scrolled back to its first message. The list has the focus and its cursor is
// on the first row; no command of a key is run from here on (the rest timer would open
// another thread). It is made once per test binary: seeding the data set takes a while
// (PARLEY_BENCH_DB names a database file to keep it in between runs).
var big struct {
	once sync.Once
	app  *ui.App
	rows []listing.Row
}

func bigApp(b *testing.B) (*ui.App, []listing.Row) {
	b.Helper()
	big.once.Do(func() {
		run, err := sandbox.Start(context.Background(), sandbox.Options{DBPath: os.Getenv("PARLEY_BENCH_DB"),
			Size: sandbox.SizeLarge, LongThread: benchMessages, Now: clock, BurstRate: -1, DailyLimit: 1 << 40}, "127.0.0.1:0")
		if err != nil {
			b.Fatalf("start the large sandbox: %v", err)
		}
		// The sandbox serves until the test binary ends.
		info := run.Server.Info()
		app, tri := loadThroughHTTP(b, run.URL, info.CustomerToken, benchConversations, info.LongConversationID)
		if n := tri.Msgs.Loaded(); n != benchMessages {
			b.Fatalf("the thread has %d messages loaded, want %d", n, benchMessages)
		}
		// Back to the list (the thread had the focus) and to its first row.
		for _, k := range []string{"shift+tab", "g"} {
			app.Update(viewtest.Key(k))
		}
		if tri.Focused() != conversations.PaneList || tri.List.Cursor() != 0 {
			b.Fatalf("focus on pane %d, the list's cursor on row %d: want the list's first row", tri.Focused(), tri.List.Cursor())
		}
		big.app, big.rows = app, tri.List.Rows()
	})
	if big.app == nil {
		b.Fatal("the data set did not load (see the first benchmark's failure)")
	}
	return big.app, big.rows
}

// benchSizes are the terminal sizes the frames are timed at.
var benchSizes = [][2]int{{120, 40}, {200, 50}}

// stockPagers are the ways a real app would set a stock list's paginator for thousands of
// rows: numbers ("1/3,334"), or none (the default dots, one a page, would be 3,334 dots
// a frame).
var stockPagers = []struct {
	name string
	set  func(*list.Model)
}{
	{"arabic", func(l *list.Model) { l.Paginator.Type = paginator.Arabic }},
	{"hidden", func(l *list.Model) { l.SetShowPagination(false) }},
}

// convItem is a row of the stock bubbles/list with the same text.
type convItem struct{ title, desc string }

func (c convItem) Title() string       { return c.title }
func (c convItem) Description() string { return c.desc }
func (c convItem) FilterValue() string { return c.title }

// stockList is a stock bubbles v2 list (its default delegate, which draws in colour) of
// rows at w×h: each row's name and its last message.
func stockList(rows []listing.Row, w, h int, pager func(*list.Model)) list.Model {
	items := make([]list.Item, len(rows))
	for i, r := range rows {
		items[i] = convItem{title: r.Name, desc: r.Preview}
	}
	l := list.New(items, list.NewDefaultDelegate(), w, h)
	pager(&l)
	return l
}

// frames is something that takes keys and draws frames.
type frames interface {
	press(tea.KeyPressMsg)
	frame() string
}

// stockModel is a stock list as frames.
type stockModel struct{ l list.Model }

func (s *stockModel) press(k tea.KeyPressMsg) { s.l, _ = s.l.Update(k) }
func (s *stockModel) frame() string           { return s.l.View() }

// appModel is parley's root model as frames (the commands a key returns are not run).
type appModel struct{ app *ui.App }

func (a appModel) press(k tea.KeyPressMsg) { a.app.Update(k) }
func (a appModel) frame() string           { return a.app.View().Content }

// BenchmarkFrame is one key as the user gets it: Update, View and Bubble Tea's renderer
// to the bytes for the terminal (true colour), with 10,000 conversations loaded through
// HTTP and the 5,000-message thread open, at 120×40 and 200×50; beside it a stock bubbles
// v2 list of the same rows in the same terminal, its paginator as numbers or hidden. The
// keys are j 200 times, then k 200 times, and so on: most move the cursor inside the
// window, some scroll. It reports the CPU time a key took (cpu-ns/key: the process's, so
// the garbage collector's share too; on a shared machine it varies less than ns/op, which
// counts the time other processes had the CPU) and the bytes written a key (B/key).
//
//	go test -run '^$' -bench Frame -count 5 -benchtime 1000x ./internal/ui/
func BenchmarkFrame(b *testing.B) {
	app, rows := bigApp(b)
	for _, size := range benchSizes {
		w, h := size[0], size[1]
		b.Run(fmt.Sprintf("%dx%d/parley", w, h), func(b *testing.B) {
			app.Update(tea.WindowSizeMsg{Width: w, Height: h})
			app.Update(viewtest.Key("g"))
			timeFrames(b, appModel{app}, w, h)
		})
		for _, p := range stockPagers {
			b.Run(fmt.Sprintf("%dx%d/stock-%s", w, h, p.name), func(b *testing.B) {
				timeFrames(b, &stockModel{stockList(rows, w, h, p.set)}, w, h)
			})
		}
	}
}

// timeFrames times the keys of BenchmarkFrame on m through the renderer.
func timeFrames(b *testing.B, m frames, w, h int) {
	scr := newScreen(w, h, true)
	scr.frame(m.frame()) // the first frame: the whole screen
	j := tea.KeyPressMsg{Code: 'j', Text: "j"}
	k := tea.KeyPressMsg{Code: 'k', Text: "k"}
	i, written := 0, 0
	cpu, measured := cpuTime()
	for b.Loop() {
		key := j
		if (i/200)%2 == 1 {
			key = k
		}
		i++
		m.press(key)
		written += scr.frame(m.frame())
	}
	if end, ok := cpuTime(); measured && ok {
		b.ReportMetric(float64(end-cpu)/float64(i), "cpu-ns/key")
	}
	b.ReportMetric(float64(written)/float64(i), "B/key")
}

// keyBytes is the bytes Bubble Tea's renderer writes for each of presses presses of j from
// the top of m at w×h with true colour, on a terminal.
func keyBytes(m frames, w, h, presses int) []int {
	scr := newScreen(w, h, true)
	scr.frame(m.frame())
	out := make([]int, presses)
	for i := range out {
		m.press(tea.KeyPressMsg{Code: 'j', Text: "j"})
		out[i] = scr.frame(m.frame())
	}
	return out
}

// keyBytesBudget is 800 bytes: the terminal bytes a j writes at 120×40 with colour,
// averaged over 50 presses from the top of the list (the list scrolls on the way), on
// rows in Latin letters, stay within it.
const keyBytesBudget = 800

// pressRows are the rows the bytes a key are measured on: Latin letters only, and the
// benchmark's international rows (Chinese, Arabic, Hebrew, emoji).
var pressRows = []struct {
	name string
	data func() ([]client.Conversation, []client.Message)
}{
	{"latin", latinData},
	{"wide", benchData},
}

// BenchmarkKeyBytes reports the terminal bytes a j writes (B/key), averaged over 50
// presses from the top at 120×40 and 200×50 with true colour, on rows in Latin letters and
// on rows with characters a terminal draws two columns wide, for parley (10,000
// conversations and the 5,000-message thread) and for a stock list of the same rows. The
// bytes do not depend on the machine: -benchtime 1x does.
//
//	go test -run '^$' -bench KeyBytes -benchtime 1x ./internal/ui/
func BenchmarkKeyBytes(b *testing.B) {
	for _, size := range benchSizes {
		w, h := size[0], size[1]
		for _, rows := range pressRows {
			cs, ms := rows.data()
			b.Run(fmt.Sprintf("%dx%d/%s/parley", w, h, rows.name), func(b *testing.B) {
				reportKeyBytes(b, func() frames { return appModel{appWith(b, w, h, cs, ms)} }, w, h)
			})
			b.Run(fmt.Sprintf("%dx%d/%s/stock-arabic", w, h, rows.name), func(b *testing.B) {
				lr := make([]listing.Row, len(cs))
				for i, c := range cs {
					lr[i] = listing.RowFrom(c)
				}
				reportKeyBytes(b, func() frames { return &stockModel{stockList(lr, w, h, stockPagers[0].set)} }, w, h)
			})
		}
	}
}

// reportKeyBytes measures 50 presses on a new model for each iteration and reports their
// average.
func reportKeyBytes(b *testing.B, model func() frames, w, h int) {
	total, n := 0, 0
	for b.Loop() {
		for _, x := range keyBytes(model(), w, h, 50) {
			total += x
			n++
		}
	}
	b.ReportMetric(float64(total)/float64(n), "B/key")
	b.ReportMetric(0, "ns/op") // the time of a whole run says nothing here
}

// TestKeystrokeBytes: the terminal bytes per j, averaged over 50 presses from the top of
// the list at 120×40 with colour, on rows in Latin letters stay within 800 bytes:
// the renderer writes the cells that changed, the cursor is marked by a cell at the row's
// left edge, and the list scrolls half a window at a time, so most presses redraw two
// cells a line of two rows, the position and little else.
//
// Rows holding characters two columns wide (Chinese, most emoji) are not held to it:
// Bubble Tea v2.1.1 repaints every such row of the frame in full whatever changed (the
// terminal may measure such a glyph differently from the renderer); BenchmarkKeyBytes
// reports them. What this test holds there is that scrolling costs little on top: the
// average stays within half as much again as the first press, which moves the cursor
// inside the window.
func TestKeystrokeBytes(t *testing.T) {
	t.Parallel()
	cs, ms := latinData()
	n := keyBytes(appModel{appWith(t, 120, 40, cs, ms)}, 120, 40, 50)
	if avg := average(t, n); avg > keyBytesBudget {
		t.Errorf("j at 120x40 on Latin rows wrote %d bytes on average over 50 presses, budget %d: %v", avg, keyBytesBudget, n)
	}
	n = keyBytes(appModel{loadedApp(t, 120, 40)}, 120, 40, 50)
	if avg := average(t, n); avg > n[0]+n[0]/2 {
		t.Errorf("international rows at 120x40: %d bytes a press on average, %d for the first (no scroll): scrolling is not cheap: %v",
			avg, n[0], n)
	}
}

// average is the average of presses' bytes; a press that wrote nothing fails the test
// (the measurement is broken).
func average(t *testing.T, presses []int) int {
	t.Helper()
	total := 0
	for i, b := range presses {
		if b == 0 {
			t.Fatalf("press %d wrote nothing: the measurement is broken", i+1)
		}
		total += b
	}
	return total / len(presses)
}

// TestMemoryWithLargeData: RSS with 10,000 conversations and a 5,000-message thread loaded
// stays within 80 MB. It measures in a fresh process (this test binary run again with only
// the probe), so other tests' sandboxes and data do not count.
func TestMemoryWithLargeData(t *testing.T) {
	t.Parallel()
	if os.Getenv("PARLEY_MEMORY_PROBE") != "" {
		t.Skip("inside the probe")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryProbe$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "PARLEY_MEMORY_PROBE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`RSS (\d+) bytes, heap (\d+) bytes`).FindSubmatch(out)
	if m == nil {
		t.Skipf("the probe measured nothing here:\n%s", out)
	}
	rss, _ := strconv.ParseInt(string(m[1]), 10, 64)
	heap, _ := strconv.ParseInt(string(m[2]), 10, 64)
	t.Logf("RSS %.1f MB (heap in use %.1f MB) with 10,000 conversations and a 5,000-message thread", float64(rss)/1e6, float64(heap)/1e6)
	if rss > 80<<20 {
		t.Fatalf("RSS %d MB with the data loaded, budget 80 MB", rss>>20)
	}
}

// TestMemoryProbe loads the data and prints the process's RSS; it runs only as the probe.
func TestMemoryProbe(t *testing.T) {
	t.Parallel()
	if os.Getenv("PARLEY_MEMORY_PROBE") == "" {
		t.Skip("runs only as TestMemoryWithLargeData's probe")
	}
	app := loadedApp(t, 200, 50)
	for range 50 {
		app.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
		_ = app.Render()
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("RSS %d bytes, heap %d bytes\n", readRSS(t), ms.HeapInuse)
	runtime.KeepAlive(app)
}

// readRSS reads the resident set size from /proc (Linux); other systems skip.
func readRSS(t *testing.T) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc: RSS not measured here")
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	t.Skip("VmRSS not found")
	return 0
}
