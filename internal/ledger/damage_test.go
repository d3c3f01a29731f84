package ledger

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/atomicfile"
)

// writeDay writes day's file of l's directory as another program (or a crash) left it.
func writeDay(t *testing.T, l *Ledger, day, content string) string {
	t.Helper()
	path := filepath.Join(l.Path(), day+".json")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func dayFile(answered string) string {
	return `{"version": 1, "api": "` + testBase + `", "day": "` + today + `", "counts": [
 {"org": 1, "family": "conversations", "answered": ` + answered + `, "refused": 0, "unreached": 0},
 {"org": 1, "family": "conversations", "answered": ` + answered + `, "refused": 0, "unreached": 0}]}`
}

// A day count at the largest int in the file (or two rows that add up past it) stays there:
// one more request does not wrap it round to a negative count, in memory or on disk.
func TestACountAtTheLargestIntStaysThere(t *testing.T) {
	dir := t.TempDir()
	first := open(t, dir, nil)
	writeDay(t, first, today, dayFile("9223372036854775807"))
	l := open(t, dir, nil)
	k := Key{1, "conversations"}
	if got := l.Get(today, k).Answered; got != math.MaxInt64 {
		t.Fatalf("read %d, want the largest int", got)
	}
	if err := l.Add(today, k, Counts{Answered: 1, Refused: 1}); err != nil {
		t.Fatal(err)
	}
	if got := l.Get(today, k); got.Answered != math.MaxInt64 || got.Refused != 1 {
		t.Errorf("after one more request: %+v", got)
	}
	if got := open(t, dir, nil).Get(today, k).Answered; got != math.MaxInt64 {
		t.Errorf("on disk: %d", got)
	}
	if got := (Counts{Answered: math.MaxInt64}).Plus(Counts{Answered: math.MaxInt64, Unreached: 2}); got != (Counts{Answered: math.MaxInt64, Unreached: 2}) {
		t.Errorf("Plus: %+v", got)
	}
}

// A damaged day file is kept aside as <day>.json.damaged-<UTC time> as soon as a ledger
// opens it, the day starts again, and every ledger of the directory learns why: the one
// that found it, one opened later, and one that was open before (on its next refresh).
func TestADamagedFileIsKeptAsideAndTheRestartIsKnown(t *testing.T) {
	dir := t.TempDir()
	before := open(t, dir, nil)
	k := Key{1, "conversations"}
	if err := before.Add(today, k, Counts{Answered: 40}); err != nil {
		t.Fatal(err)
	}
	if _, ok := before.Restarted(today); ok {
		t.Fatal("a restart before any damage")
	}
	damaged := `{"version": 1, "api": "` + testBase + `", "day": "` + today + `", "counts": [{"org": 1, "fam`
	writeDay(t, before, today, damaged)

	found := open(t, dir, nil)
	rs, ok := found.Restarted(today)
	if !ok {
		t.Fatal("the ledger that found the damage does not report a restart")
	}
	want := Restart{At: testNow, Kept: today + ".json.damaged-20260314T233000Z", Reason: DamageNotJSON}
	if rs != want {
		t.Errorf("restart %+v, want %+v", rs, want)
	}
	if !strings.HasPrefix(rs.Kept, "2026-03-14.json.damaged-20260314T233000Z") || strings.ContainsAny(rs.Kept, ":/\\ ") {
		t.Errorf("kept as %q", rs.Kept)
	}
	if b, err := os.ReadFile(filepath.Join(found.Path(), rs.Kept)); err != nil || string(b) != damaged {
		t.Errorf("the damaged file kept aside: %q, %v", b, err)
	}
	if got := found.Get(today, k).Answered; got != 0 {
		t.Errorf("the day did not start again: %d", got)
	}
	if err := found.Add(today, k, Counts{Answered: 2}); err != nil {
		t.Fatal(err)
	}
	if rs2, ok := open(t, dir, nil).Restarted(today); !ok || rs2 != rs {
		t.Errorf("a ledger opened later: %+v, %v", rs2, ok)
	}
	if err := before.Refresh(); err != nil {
		t.Fatal(err)
	}
	if rs2, ok := before.Restarted(today); !ok || rs2 != rs {
		t.Errorf("the ledger open before, after a refresh: %+v, %v", rs2, ok)
	}
	if got := before.Get(today, k).Answered; got != 2 {
		t.Errorf("the ledger open before counts %d, want the 2 since the restart", got)
	}
	// A second damage the same second gets a name of its own.
	writeDay(t, found, today, "garbage")
	if err := found.Refresh(); err == nil || !errors.Is(err, errDamaged) {
		t.Fatalf("refresh over a second damage: %v", err)
	}
	rs3, _ := found.Restarted(today)
	if rs3.Kept != today+".json.damaged-20260314T233000Z"+".2" || rs3.Reason != DamageNotJSON {
		t.Errorf("second restart %+v", rs3)
	}
	if b, err := os.ReadFile(filepath.Join(found.Path(), rs.Kept)); err != nil || string(b) != damaged {
		t.Errorf("the first damaged file was replaced: %q, %v", b, err)
	}
}

// A crash while writing leaves the day file whole: the new one is written beside it, synced
// and renamed over it, so what a crash leaves is the old file and a temporary one, which
// the next start ignores (and removes once it is an hour old). A day file cut short by
// something else is damaged, kept aside, and the day restarts.
func TestACrashMidWriteLeavesTheDayReadable(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir, nil)
	k := Key{7, "contacts"}
	if err := l.Add(today, k, Counts{Answered: 12, Unreached: 3}); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(filepath.Join(l.Path(), today+".json"))
	if err != nil {
		t.Fatal(err)
	}
	// The next write stopped at every byte: its temporary file holds a prefix of the file.
	for cut := 0; cut < len(whole); cut += 7 {
		tmp := filepath.Join(l.Path(), "."+today+".123456.tmp")
		if err := os.WriteFile(tmp, whole[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		again, err := Open(Options{Dir: dir, BaseURL: testBase, Now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		if got := again.Get(today, k); got != (Counts{Answered: 12, Unreached: 3}) {
			t.Fatalf("after a write cut at byte %d: %+v", cut, got)
		}
		if _, ok := again.Restarted(today); ok {
			t.Fatalf("a restart after a write cut at byte %d", cut)
		}
		_ = again.Close()
	}
	// The day file itself cut short (by another program, a disk): kept aside, not believed.
	writeDay(t, l, today, string(whole[:len(whole)/2]))
	again := open(t, dir, nil)
	if rs, ok := again.Restarted(today); !ok || rs.Reason != DamageNotJSON {
		t.Errorf("a day file cut short: %+v, %v", rs, ok)
	}
}

// dayFileSeeds are the shapes a day file may come in.
func dayFileSeeds() []string {
	valid := dayFile("3")
	return []string{
		"", "{}", "null", "[]", `{"version": 1}`, `{"version": "1"}`, `{"version": 2}`, valid,
		dayFile("9223372036854775807"), dayFile("-9223372036854775808"), dayFile("9223372036854775808"),
		dayFile("NaN"), dayFile("1e3"), dayFile(`"12"`), valid[:len(valid)/2],
		"\xef\xbb\xbf" + valid, "\xfe\xff" + valid, "\xff\xfe" + valid,
		strings.Replace(valid, `"conversations"`, `"`+strings.Repeat("x", 1<<20)+`"`, 1),
		strings.Replace(valid, `"day": "`+today+`"`, `"day": "2026-03-13"`, 1),
		strings.Replace(valid, `"counts"`, `"restarted": {"at": "2026-03-14T23:30:00Z", "kept": "2026-03-14.json.damaged-20260314T233000Z", "reason": "not-json"}, "counts"`, 1),
		strings.Replace(valid, `"counts"`, `"restarted": {"at": "x", "kept": "../../etc/passwd", "reason": "\u001b[31m"}, "counts"`, 1),
	}
}

// The parser of day files takes anything: what it reads has no count below zero, writes
// back to a file it reads the same (counts and restart), and what it refuses is either
// damaged (kept aside) or left alone with a reason (a newer format, another API).
func FuzzParseDay(f *testing.F) {
	for _, s := range dayFileSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		counts, rs, err := parseDay(b, testBase, today, "day.json")
		if counts == nil {
			t.Fatal("nil counts")
		}
		if err != nil {
			if len(counts) != 0 || rs != nil {
				t.Fatalf("%q: an error (%v) with counts %v or a restart %v", b, err, counts, rs)
			}
			var d *damagedError
			if !errors.As(err, &d) && !strings.Contains(err.Error(), "newer parley") && !strings.Contains(err.Error(), "another API") {
				t.Fatalf("%q: %v is neither damaged nor left alone", b, err)
			}
			return
		}
		for k, c := range counts {
			if k.Family == "" || c.Answered < 0 || c.Refused < 0 || c.Unreached < 0 {
				t.Fatalf("%q: %+v: %+v", b, k, c)
			}
		}
		if rs != nil && (!atomicfile.IsAside(today+".json", rs.Kept) || rs.At.Location() != time.UTC) {
			t.Fatalf("%q: restart %+v", b, rs)
		}
		out, err := encodeDay(testBase, today, counts, rs)
		if err != nil {
			t.Fatal(err)
		}
		again, rs2, err := parseDay(out, testBase, today, "day.json")
		if err != nil {
			t.Fatalf("%q written as %q does not read back: %v", b, out, err)
		}
		for k, c := range counts {
			if c.IsZero() {
				delete(counts, k) // zero counters are not written
			}
		}
		if !reflect.DeepEqual(again, counts) || (rs == nil) != (rs2 == nil) || rs != nil && *rs != *rs2 {
			t.Fatalf("%q: read %v %v, written and read again %v %v", b, counts, rs, again, rs2)
		}
		if !bytes.HasSuffix(out, []byte("\n")) {
			t.Fatalf("written without a final newline: %q", out)
		}
	})
}
