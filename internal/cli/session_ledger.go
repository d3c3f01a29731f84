package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/ledger"
)

// ledgerRefresh is how often a session's ledger reads what other parley processes counted
// (and writes a count an earlier write could not).
const ledgerRefresh = 2 * time.Second

// ledgerStore is the persistent ledger as the client's counter store.
type ledgerStore struct{ l *ledger.Ledger }

func (s ledgerStore) Add(day string, k client.CounterKey, t client.Tally) {
	// A count that cannot be written stays in memory and is written later; the ledger
	// reports the problem (OnError).
	_ = s.l.Add(day, ledger.Key{Org: k.OrganizationID, Family: string(k.Family)},
		ledger.Counts{Answered: t.Answered, Refused: t.Refused, Unreached: t.Unreached})
}

func (s ledgerStore) Each(day string, fn func(client.CounterKey, client.Tally)) {
	s.l.Each(day, func(k ledger.Key, c ledger.Counts) {
		fn(client.CounterKey{OrganizationID: k.Org, Family: client.Family(k.Family)},
			client.Tally{Answered: c.Answered, Refused: c.Refused, Unreached: c.Unreached})
	})
}

func (s ledgerStore) Restarted(day string) (client.Restart, bool) {
	r, ok := s.l.Restarted(day)
	return client.Restart{At: r.At, Kept: r.Kept, Why: r.Reason.Words()}, ok
}

// openLedger opens the request ledger of cfg's API, shared with the user's other parley
// processes. When it cannot (no state directory, a directory that cannot be written), it
// says so on stderr and returns nil: the client then counts in memory for this run. Demo
// mode counts in memory too: the embedded sandbox forgets its own counts when it stops.
func openLedger(cfg clientConfig, stderr io.Writer) *ledger.Ledger {
	if cfg.Demo {
		return nil
	}
	if cfg.LedgerDir == "" {
		fmt.Fprintln(stderr, "parley: no state directory (set XDG_STATE_HOME or HOME): request counts are kept in memory for this run")
		return nil
	}
	l, err := ledger.Open(ledger.Options{Dir: cfg.LedgerDir, BaseURL: cfg.BaseURL, RefreshEvery: ledgerRefresh,
		OnError: cfg.OnLedgerError, Recover: cfg.Recover})
	if err != nil {
		fmt.Fprintf(stderr, "parley: %v: request counts are kept in memory for this run\n", err)
		return nil
	}
	return l
}
