// Package ledger is parley's persistent request ledger: how many requests of each resource
// family of each organization the API answered on each UTC day, per API base URL. The counts
// live in small files in the user's state directory, and every parley process of the user
// (and a team hub) adds to the same files, under a file lock: a restart continues the day's
// count, and two parleys on one organization see one count. Requests the API refused with
// 429, and requests that never reached it, are kept apart from the answered ones.
//
// Layout: Dir/<hash of the base URL>/<YYYY-MM-DD>.json, one file per UTC day, replaced
// atomically (written beside it, synced, then renamed) while the directory's lock file is
// held, so a crash at any point leaves the old day file or the new one, whole. The
// directory is 0700 and the files 0600; the base URL is stored without user info, query or
// fragment. Days older than Options.Keep are removed.
//
// A day file that is not a ledger file (cut short, edited) is kept aside as
// <YYYY-MM-DD>.json.damaged-<UTC time> and the day's counts start again from zero; the new
// file records that restart, so every process sharing the directory can say why its count
// went back (Restarted). Counts saturate at the largest int instead of wrapping round.
//
// Add writes through: every count reaches the file before Add returns, unless the file
// cannot be written (the lock is held too long, the disk is full); the count then stays in
// memory, shows in Each, and is written with the next Add, Flush, Refresh or Close. Each
// never touches the disk: it shows what the last read or write found plus what this process
// added since, so a UI may call it while drawing.
package ledger

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/parley-tui/parley/internal/sat"
)

// Key names one counter of a day: a resource family of an organization.
type Key struct {
	// Org is the organization the requests count against; 0 when it is not known (requests
	// sent without an organization header before the answering organization was learnt).
	Org int64
	// Family is the rate-limit family ("conversations", "analytics:<metric>", …).
	Family string
}

// Counts is what happened to the requests of one counter.
type Counts struct {
	// Answered requests got an answer of the API other than 429: the API counted them.
	Answered int
	// Refused requests got 429 (a limit was reached): the API did not count them.
	Refused int
	// Unreached requests never reached the API: no connection, no answer before sending,
	// or a gateway's error page.
	Unreached int
}

// Plus is the sum of c and d, each count saturated at the largest int: a file may hold
// any number, and one more request must not wrap it round to a negative count.
func (c Counts) Plus(d Counts) Counts {
	return Counts{Answered: sat.Add(c.Answered, d.Answered), Refused: sat.Add(c.Refused, d.Refused),
		Unreached: sat.Add(c.Unreached, d.Unreached)}
}

// IsZero reports counts of nothing.
func (c Counts) IsZero() bool { return c == Counts{} }

// DayOf is the UTC day of t as the ledger names days ("2006-01-02").
func DayOf(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// validDay reports whether day names a day in the ledger's form (it becomes a file name).
func validDay(day string) bool {
	t, err := time.Parse(time.DateOnly, day)
	return err == nil && t.Format(time.DateOnly) == day
}

// Defaults for Options left zero.
const (
	DefaultKeep     = 7
	DefaultLockWait = 2 * time.Second
)

// Options configure Open.
type Options struct {
	// Dir holds the ledger of every base URL (DefaultDir). Required.
	Dir string
	// BaseURL is the API's base address; its ledger is apart from other APIs'. Required.
	BaseURL string
	// Now is the clock for the day loaded at Open and by Refresh, and for pruning; nil
	// means time.Now. The days counted are those passed to Add.
	Now func() time.Time
	// Keep is how many days before today stay on disk; older days are removed. Zero means
	// DefaultKeep.
	Keep int
	// LockWait bounds the wait for another process's lock; zero means DefaultLockWait.
	LockWait time.Duration
	// RefreshEvery, when positive, starts a goroutine that calls Refresh that often: counts
	// added by other processes show in Each, and counts that could not be written are
	// written. Close stops it.
	RefreshEvery time.Duration
	// OnError is told what went wrong with the files (the counts stay in memory and are
	// written later). The same problem is reported once until it goes away. It must not
	// block; it may be called from any goroutine.
	OnError func(error)
	// Recover, when set, is deferred first thing in the refresh goroutine, so a panic there
	// reaches the program's crash guard; it must call recover() itself (a method value such
	// as (*Process).Recover does). Without it, or when it returns, the goroutine recovers on
	// its own, reports the panic to OnError and stops refreshing.
	Recover func(where string)
}

// dayState is what the ledger knows of one day.
type dayState struct {
	disk    map[Key]Counts // the file as last read or written
	writing map[Key]Counts // taken from pending by the write in progress
	pending map[Key]Counts // added here, not yet written
	// restart is the day's counts starting again after its file was found damaged, as
	// the file last read or written records it (nil: they never did).
	restart *Restart
	// damaged: the last read found the file damaged; the next write keeps it aside.
	damaged bool
}

// Ledger is the request ledger of one base URL. It is safe for concurrent use.
type Ledger struct {
	files    files
	now      func() time.Time
	keep     int
	onError  func(error)
	recoverF func(string)

	io sync.Mutex // one write or read of the files at a time

	mu       sync.Mutex // guards what follows; never held during I/O
	days     map[string]*dayState
	reported string // the problem last reported, "" when none

	stopOnce sync.Once
	stop     chan struct{}
	done     chan struct{}
}

// Open opens (creating it when needed) the ledger of opts.BaseURL in opts.Dir, removes days
// older than opts.Keep and reads today's counts.
func Open(opts Options) (*Ledger, error) {
	if opts.Dir == "" {
		return nil, errors.New("ledger: no directory")
	}
	f, err := newFiles(opts.Dir, opts.BaseURL, opts.LockWait)
	if err != nil {
		return nil, err
	}
	l := &Ledger{files: f, now: opts.Now, keep: opts.Keep, onError: opts.OnError, recoverF: opts.Recover,
		days: map[string]*dayState{}}
	if l.now == nil {
		l.now = time.Now
	}
	if l.keep <= 0 {
		l.keep = DefaultKeep
	}
	if l.keep > 366 {
		l.keep = 366
	}
	if err := f.prepare(); err != nil {
		return nil, err
	}
	today := DayOf(l.now())
	if err := f.prune(pruneBefore(today, l.keep)); err != nil {
		l.report(err) // old files left behind are no reason not to count
	}
	counts, rs, err := f.read(today)
	if err != nil {
		// A damaged file, or one of a newer parley: counting goes on in memory, and the next
		// write says what it finds.
		l.report(err)
	}
	l.days[today] = &dayState{disk: counts, restart: rs, damaged: errors.Is(err, errDamaged)}
	if errors.Is(err, errDamaged) {
		// Kept aside now, so that the restart shows (Restarted) before the first count.
		_ = l.Flush() // reported
	}
	if opts.RefreshEvery > 0 {
		l.stop, l.done = make(chan struct{}), make(chan struct{})
		go l.loop(opts.RefreshEvery)
	}
	return l, nil
}

// pruneBefore is the first day kept when keep days before today are.
func pruneBefore(today string, keep int) string {
	t, err := time.Parse(time.DateOnly, today)
	if err != nil {
		return today
	}
	return t.AddDate(0, 0, -keep).Format(time.DateOnly)
}

// Path is the directory of this base URL's files.
func (l *Ledger) Path() string { return l.files.dir }

// Add counts c for key on day ("2006-01-02", UTC) and writes it to the file. A count that
// cannot be written stays in memory (and in Each) and is written later; the error says why.
func (l *Ledger) Add(day string, key Key, c Counts) error {
	if !validDay(day) {
		return fmt.Errorf("ledger: %q is not a day (YYYY-MM-DD)", day)
	}
	if c.IsZero() {
		return nil
	}
	l.mu.Lock()
	s := l.day(day)
	if s.pending == nil {
		s.pending = map[Key]Counts{}
	}
	s.pending[key] = s.pending[key].Plus(c)
	l.mu.Unlock()
	return l.Flush()
}

// day is the state of day, created empty; the caller holds mu.
func (l *Ledger) day(day string) *dayState {
	s := l.days[day]
	if s == nil {
		s = &dayState{}
		l.days[day] = s
	}
	return s
}

// Get is day's counts of key: the file as last read or written plus what this process
// added since. It does no I/O.
func (l *Ledger) Get(day string, key Key) Counts {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.days[day]
	if s == nil {
		return Counts{}
	}
	return s.disk[key].Plus(s.writing[key]).Plus(s.pending[key])
}

// Each calls fn for every non-zero counter of day (in no set order), as Get counts them. It
// does no I/O; fn must not call the ledger. A day not read yet (the UTC day turned) is read
// by the next Refresh or Add.
func (l *Ledger) Each(day string, fn func(Key, Counts)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.days[day]
	if s == nil {
		if !validDay(day) {
			return
		}
		l.days[day] = &dayState{} // wanted: Refresh reads it
		return
	}
	for k, c := range s.disk {
		if c = c.Plus(s.writing[k]).Plus(s.pending[k]); !c.IsZero() {
			fn(k, c)
		}
	}
	for k, c := range s.writing {
		if _, ok := s.disk[k]; ok {
			continue
		}
		if c = c.Plus(s.pending[k]); !c.IsZero() {
			fn(k, c)
		}
	}
	for k, c := range s.pending {
		_, onDisk := s.disk[k]
		_, inWrite := s.writing[k]
		if !onDisk && !inWrite && !c.IsZero() {
			fn(k, c)
		}
	}
}

// Row is one counter of a Snapshot.
type Row struct {
	Key
	Counts
}

// Restarted reports that day's counts started again from zero after its file was found
// damaged (by this process or another), and when, why and under which name the damaged
// file is kept. It does no I/O.
func (l *Ledger) Restarted(day string) (Restart, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := l.days[day]; s != nil && s.restart != nil {
		return *s.restart, true
	}
	return Restart{}, false
}

// Snapshot lists day's non-zero counters, by organization then family (no I/O).
func (l *Ledger) Snapshot(day string) []Row {
	var rows []Row
	l.Each(day, func(k Key, c Counts) { rows = append(rows, Row{k, c}) })
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Org != rows[j].Org {
			return rows[i].Org < rows[j].Org
		}
		return rows[i].Family < rows[j].Family
	})
	return rows
}

// Flush writes the counts not written yet.
func (l *Ledger) Flush() error {
	l.io.Lock()
	defer l.io.Unlock()
	return l.report(l.flush())
}

// flush writes every day's pending counts under the lock; the caller holds io.
func (l *Ledger) flush() error {
	l.mu.Lock()
	var days []string
	for d, s := range l.days {
		if len(s.pending) > 0 || s.damaged {
			days = append(days, d)
		}
	}
	l.mu.Unlock()
	if len(days) == 0 {
		return nil
	}
	sort.Strings(days)
	unlock, err := l.files.lock()
	if err != nil {
		return err
	}
	defer unlock()
	var errs []error
	for _, d := range days {
		l.mu.Lock()
		s := l.days[d]
		s.writing, s.pending = s.pending, nil
		adding := s.writing
		l.mu.Unlock()

		counts, rs, err := l.files.read(d)
		var damaged *damagedError
		if errors.As(err, &damaged) {
			// Nothing can be read from it: it is kept aside, and the day starts again.
			l.report(err)
			rs, err = l.files.setAside(d, damaged.damage, l.now())
			counts = map[Key]Counts{}
		}
		if err == nil {
			if rs == nil {
				l.mu.Lock()
				rs = s.restart // the day restarted, whatever the file says now
				l.mu.Unlock()
			}
			for k, c := range adding {
				counts[k] = counts[k].Plus(c)
			}
			err = l.files.write(d, counts, rs)
		}

		l.mu.Lock()
		if err == nil {
			s.damaged = false
		}
		if rs != nil {
			s.restart = rs
		}
		if err != nil {
			errs = append(errs, err)
			for k, c := range s.writing { // back to pending, with what came meanwhile
				if s.pending == nil {
					s.pending = map[Key]Counts{}
				}
				s.pending[k] = s.pending[k].Plus(c)
			}
		} else {
			s.disk = counts
		}
		s.writing = nil
		l.mu.Unlock()
	}
	return errors.Join(errs...)
}

// Refresh writes what is not written yet and reads today's file and every other day in
// memory again, so that other processes' counts show. Days before yesterday leave memory
// once written.
func (l *Ledger) Refresh() error {
	l.io.Lock()
	defer l.io.Unlock()
	err := l.flush()
	today := DayOf(l.now())
	yesterday := pruneBefore(today, 1)
	l.mu.Lock()
	l.day(today)
	var days []string
	for d, s := range l.days {
		if d < yesterday && len(s.pending) == 0 {
			delete(l.days, d)
			continue
		}
		if len(s.pending) == 0 {
			days = append(days, d)
		}
	}
	l.mu.Unlock()
	damaged := false
	for _, d := range days {
		counts, rs, rerr := l.files.read(d)
		if rerr != nil {
			err = errors.Join(err, rerr)
			if errors.Is(rerr, errDamaged) {
				l.mu.Lock()
				if s := l.days[d]; s != nil {
					s.damaged, damaged = true, true
				}
				l.mu.Unlock()
			}
			continue
		}
		l.mu.Lock()
		if s := l.days[d]; s != nil {
			s.disk, s.restart = counts, rs
		}
		l.mu.Unlock()
	}
	if damaged {
		// Kept aside now, and the day starts again where every process sees it.
		err = errors.Join(err, l.flush())
	}
	return l.report(err)
}

// Close stops the refresh goroutine and writes what is not written yet. A later Add still
// writes through.
func (l *Ledger) Close() error {
	l.stopOnce.Do(func() {
		if l.stop != nil {
			close(l.stop)
			<-l.done
		}
	})
	return l.Flush()
}

// loop refreshes every d until Close.
func (l *Ledger) loop(d time.Duration) {
	defer close(l.done)
	defer l.recoverLoop()
	if l.recoverF != nil {
		defer l.recoverF("the request ledger")
	}
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			_ = l.Refresh() // reported
		}
	}
}

// recoverLoop ends the refresh goroutine on a panic that no Options.Recover took, and says
// so through OnError; Add keeps writing through.
func (l *Ledger) recoverLoop() {
	if r := recover(); r != nil {
		l.report(fmt.Errorf("ledger: the refresh stopped after an internal error: %v\n%s", r, debug.Stack()))
	}
}

// report passes err to OnError unless it was the last problem reported, and returns it.
// A success (nil) clears the last problem.
func (l *Ledger) report(err error) error {
	l.mu.Lock()
	text := ""
	if err != nil {
		text = err.Error()
	}
	same := text == l.reported
	l.reported = text
	l.mu.Unlock()
	if err != nil && !same && l.onError != nil {
		l.onError(err)
	}
	return err
}
