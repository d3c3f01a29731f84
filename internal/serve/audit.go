package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parley-tui/parley/sanitize"
)

// Write is one write of a session, as the audit log records it.
type Write struct {
	User     string
	Org      int64
	Operator int64 // the Service-Operator-Id it carried (or would have)
	Method   string
	Path     string
	Query    string
	Status   int // the API's answer; 0 when none came
	Refused  bool
	Reason   string // why the hub refused it
	Err      error  // what went wrong when no answer came
	At       time.Time
}

// auditLine is the JSON form of a Write: one line per write.
type auditLine struct {
	Time      string  `json:"time"`
	User      string  `json:"user"`
	Org       int64   `json:"org,omitempty"`
	Operator  int64   `json:"operator"`
	Method    string  `json:"method"`
	Path      string  `json:"path"`
	IDs       []int64 `json:"ids,omitempty"`
	DeleteIDs []int64 `json:"delete_ids,omitempty"`
	Status    int     `json:"status,omitempty"`
	Refused   bool    `json:"refused,omitempty"`
	Reason    string  `json:"reason,omitempty"`
	Error     string  `json:"error,omitempty"`
}

// Audit is the audit log: one JSON line per write of every session, appended to a file of
// mode 0600. Lines name the user, the operator the write went out as, the method, the path
// and the ids it touched, and its outcome: the API's status, or that the hub refused it.
// The token never enters it (every line is masked for it, should an error carry it).
//
// Each line is appended in one write, so a crash of the hub loses at most the line being
// written; a line cut short (a crash of the machine, a full disk) stays on a line of its
// own: the next line written, also after a restart, starts on a new line. A reader skips
// the lines that are not JSON (jq -R 'fromjson? // empty').
type Audit struct {
	mu     sync.Mutex
	w      io.Writer
	close  func() error
	secret string
	failed error // the first write that failed, reported once
	onFail func(error)
	// torn: the file may end inside a line (found so at open, or a write failed): the next
	// line starts with a newline of its own.
	torn  bool
	lines atomic.Int64 // lines written
}

// Lines is how many lines were written since the log was opened.
func (a *Audit) Lines() int64 {
	if a == nil {
		return 0
	}
	return a.lines.Load()
}

// OpenAudit opens (creating, mode 0600) the audit log at path for appending; a file that
// existed with wider permissions is narrowed to 0600. secret is masked in every line;
// onFail hears of the first line that could not be written.
func OpenAudit(path, secret string, onFail func(error)) (*Audit, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the audit log: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("make the audit log private: %w", err)
	}
	torn, err := endsInsideALine(f)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("read the end of the audit log: %w", err)
	}
	return &Audit{w: f, close: f.Close, secret: secret, onFail: onFail, torn: torn}, nil
}

// endsInsideALine reports whether f is not empty and does not end with a newline: the last
// line was cut short (the hub or the machine stopped while it was written).
func endsInsideALine(f *os.File) (bool, error) {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false, err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// NewAudit writes the audit log to w (tests).
func NewAudit(w io.Writer, secret string) *Audit {
	return &Audit{w: w, close: func() error { return nil }, secret: secret}
}

// Close closes the file.
func (a *Audit) Close() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.close()
}

// Record appends one line for w. A nil Audit records nothing.
func (a *Audit) Record(w Write) {
	if a == nil {
		return
	}
	l := auditLine{Time: w.At.UTC().Format(time.RFC3339Nano), User: w.User, Org: w.Org, Operator: w.Operator,
		Method: w.Method, Path: w.Path, IDs: pathIDs(w.Path), Status: w.Status, Refused: w.Refused, Reason: w.Reason}
	if q, err := url.ParseQuery(w.Query); err == nil {
		l.DeleteIDs = idsOf(q.Get("delete_ids"))
	}
	if w.Err != nil && !w.Refused {
		l.Error = a.mask(w.Err.Error())
	}
	l.Reason = a.mask(l.Reason)
	b, err := json.Marshal(l)
	if err != nil {
		return
	}
	// The error text is the API's: escaped so that `tail -f` of the log shows nothing
	// hidden and reorders nothing, and the line decodes to the same text.
	line := a.mask(string(sanitize.JSON(b))) + "\n"
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.torn {
		line = "\n" + line // the line cut short before stays on its own
	}
	n, err := io.WriteString(a.w, line)
	switch {
	case err == nil:
		a.torn = false
	case n > 0:
		a.torn = true // what was written of it ends inside a line
	}
	if err != nil {
		if a.failed == nil {
			a.failed = err
			if a.onFail != nil {
				a.onFail(errors.Join(errors.New("the audit log could not be written"), err))
			}
		}
		return
	}
	a.lines.Add(1)
}

// mask hides the token in s.
func (a *Audit) mask(s string) string {
	if a.secret == "" {
		return s
	}
	return strings.ReplaceAll(s, a.secret, "[token]")
}

var idSegment = regexp.MustCompile(`/([0-9]+)(?:/|$)`)

// pathIDs are the resource ids in a path (/api/um/v3/operators/7/away/ → [7]).
func pathIDs(path string) []int64 {
	var out []int64
	for _, m := range idSegment.FindAllStringSubmatch(path, -1) {
		if id, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}

// idsOf reads a comma-separated id list (delete_ids).
func idsOf(s string) []int64 {
	if s == "" {
		return nil
	}
	var out []int64
	for _, p := range strings.Split(s, ",") {
		if id, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}
