package serve

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"time"
)

// DefaultUsersCheck is how often the hub looks at its users file for a change.
const DefaultUsersCheck = 2 * time.Second

// usersReloadTimeout bounds a reload the watch starts (its check against the API).
const usersReloadTimeout = 2 * time.Minute

// mtimeSlack is how long after a file's time of modification the watch still reads it
// when its size and time did not change: a second write within the same tick of a coarse
// file-system clock leaves both as they were.
const mtimeSlack = 2 * time.Second

// usersWatch is what the hub last saw of its users file: a change of its size or time of
// modification (or a modification less than mtimeSlack before the last read) makes the hub
// read it, and other bytes than the users file in force (or than the last file that did
// not check out) reload it. No file-system notification is needed:
// the check is a stat every Options.UsersCheck, on the hub's clock (Options.AfterFunc).
type usersWatch struct {
	mu      sync.Mutex
	seen    bool // size and mtime were read
	size    int64
	mtime   time.Time
	readAt  time.Time         // when the file was last read (the machine's clock, as mtime is)
	refused [sha256.Size]byte // the bytes of the last file that did not check out
	pending [sha256.Size]byte // the bytes of the file being reloaded
	missing bool              // the file was gone at the last look (logged once)
	timer   Timer
	stopped bool
}

// watchUsers starts the watch of the users file (Serve starts it; Shutdown ends it).
func (h *Hub) watchUsers() {
	if h.opts.UsersCheck < 0 || h.currentUsers().Path == "" {
		return
	}
	h.watch.mu.Lock()
	defer h.watch.mu.Unlock()
	if h.watch.stopped || h.watch.timer != nil {
		return
	}
	h.watch.timer = h.after(h.opts.UsersCheck, h.checkUsers)
}

// stopWatchingUsers ends the watch.
func (h *Hub) stopWatchingUsers() {
	h.watch.mu.Lock()
	defer h.watch.mu.Unlock()
	h.watch.stopped = true
	if h.watch.timer != nil {
		h.watch.timer.Stop()
	}
}

// checkUsers looks at the users file once, reloads it when its bytes changed, and sets
// the next look.
func (h *Hub) checkUsers() {
	defer func() {
		h.watch.mu.Lock()
		defer h.watch.mu.Unlock()
		if !h.watch.stopped {
			h.watch.timer = h.after(h.opts.UsersCheck, h.checkUsers)
		}
	}()
	if h.usersChanged() {
		ctx, cancel := context.WithTimeout(context.Background(), usersReloadTimeout)
		defer cancel()
		if err := h.Reload(ctx, "a change of the file"); err != nil {
			h.watch.mu.Lock()
			h.watch.refused = h.watch.pending
			h.watch.mu.Unlock()
		}
	}
}

// usersChanged reports whether the users file holds other bytes than the users file in
// force and than the last file that did not check out.
func (h *Hub) usersChanged() bool {
	in := h.currentUsers()
	fi, err := os.Stat(in.Path)
	w := &h.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !w.missing {
			w.missing = true
			h.record(slog.LevelWarn, "the users file is gone; the one in force stays", slog.String("path", in.Path))
		}
		return false
	}
	w.missing = false
	if w.seen && fi.Size() == w.size && fi.ModTime().Equal(w.mtime) && w.readAt.Sub(fi.ModTime()) > mtimeSlack {
		return false
	}
	data, err := os.ReadFile(in.Path)
	if err != nil {
		return false // looked at again next time: size and time are not taken as seen
	}
	w.seen, w.size, w.mtime, w.readAt = true, fi.Size(), fi.ModTime(), time.Now()
	sum := sha256.Sum256(data)
	w.pending = sum
	return sum != in.Sum && sum != w.refused
}
