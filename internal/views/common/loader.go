package common

import "context"

// Loader is the stale-result guard of everything that loads data and is not a list (lists
// have theirs in internal/views/components/list): a pane showing one conversation or contact, a screen's own
// requests (slots, the assign picker's operators, analytics runs), the root's (the
// operator directory, the organization probe).
//
//   - Owner: the loader's id (Ctx.NewID). Every request carries it in its Stamp, so an
//     answer is taken only by the component that asked, whatever its type.
//   - Generation: what the component shows (a conversation, a contact, a context). Next
//     moves to a new one: every request of the old one is cancelled through its context (a
//     request waiting out a 429 for a conversation the cursor has left stops instead of
//     retrying and spending the day's budget), and their answers are dropped.
//   - Requests: Start stamps one for a key, one key per kind of request the component
//     makes (the thread's older pages and its refresh; an operator's slots, keyed by the
//     operator's id). A later Start for the same key supersedes it: its answer is dropped.
//     A superseded request is not cancelled, as the one superseding it often asks the
//     same and joins it in the client's single flight (cancelling would send it twice).
//
// The zero Loader is ready, with owner 0 (the root's: there is one). Copies share the
// generation's context and the requests awaited: a model keeps one and assigns its copy
// back, as models do.
type Loader struct {
	owner  int
	gen    int
	seq    int
	wait   map[int64]int // per key, the request whose answer is awaited
	ctx    context.Context
	cancel context.CancelFunc
}

// Stamp names one request of a Loader; its answer carries it back (Current, Take).
type Stamp struct {
	Owner, Gen int
	Key        int64
	Req        int // from 1; 0 only in a message no request sent
}

// NewLoader returns a loader with an owner id of its own.
func NewLoader(c *Ctx) Loader { return Loader{owner: c.NewID()} }

// Owner is the loader's owner id (also the owner of the tasks its component starts, when
// they must end with its generation's context: see Reset).
func (l Loader) Owner() int { return l.owner }

// Next moves to a new generation: the requests of the current one are cancelled, none is
// awaited any more, and whatever they answer is dropped.
func (l *Loader) Next() {
	if l.cancel != nil {
		l.cancel()
	}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	l.gen++
	l.wait = nil
}

// Reset is Next with a new owner id: besides the requests, the tasks started under the
// old owner (TaskDoneMsg.Mine) are no longer the component's (another organization or
// acting operator).
func (l *Loader) Reset(c *Ctx) {
	l.Next()
	l.owner = c.NewID()
}

// Context is the parent of the current generation's requests (context.Background until the
// first Next): read it in Update and hand it to the command.
func (l Loader) Context() context.Context {
	if l.ctx == nil {
		return context.Background()
	}
	return l.ctx
}

// Start stamps a new request for key in the current generation, superseding the one
// awaited for key, and returns the generation's context, the request's parent. Call it in
// Update (never inside the command) and build the command from the two.
func (l *Loader) Start(key int64) (Stamp, context.Context) {
	l.seq++
	if l.wait == nil {
		l.wait = map[int64]int{}
	}
	l.wait[key] = l.seq
	return Stamp{Owner: l.owner, Gen: l.gen, Key: key, Req: l.seq}, l.Context()
}

// Current reports whether s names the request awaited for its key, of this owner, in the
// current generation: an answer carrying any other stamp is stale and dropped.
func (l Loader) Current(s Stamp) bool {
	return s.Owner == l.owner && s.Gen == l.gen && s.Req == l.wait[s.Key]
}

// Take is Current, and when s is current the loader awaits nothing more for its key.
func (l *Loader) Take(s Stamp) bool {
	if !l.Current(s) {
		return false
	}
	delete(l.wait, s.Key)
	return true
}

// Pending reports whether an answer for key is awaited.
func (l Loader) Pending(key int64) bool { return l.wait[key] != 0 }

// Waiting reports whether any answer is awaited.
func (l Loader) Waiting() bool { return len(l.wait) > 0 }

// Drop stops awaiting the answer for key: it is dropped when it comes (the request is not
// cancelled; Next cancels a whole generation).
func (l *Loader) Drop(key int64) { delete(l.wait, key) }
