package sandbox

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// A database file seeded by another version of the generator (an older stored seed-data
// version, or none at all) is seeded anew on open; one with the current version is reused.
func TestReseedOnSeedDataVersion(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	opts := Options{DBPath: filepath.Join(t.TempDir(), "sandbox.db"), Size: SizeSmall, Seed: 5, Now: func() time.Time { return now }}
	ctx := context.Background()
	current := strconv.Itoa(seedDataVersion)

	open := func() *Server {
		t.Helper()
		s, err := Open(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	exec := func(s *Server, q string, args ...any) {
		t.Helper()
		if _, err := s.db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// mark changes one contact, so that a reseed is visible in the data itself.
	mark := func(s *Server) {
		t.Helper()
		exec(s, `UPDATE contacts SET city = 'Staleville' WHERE id = (SELECT MIN(id) FROM contacts)`)
	}
	marked := func(s *Server) bool {
		t.Helper()
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM contacts WHERE city = 'Staleville'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	stored := func(s *Server) string {
		t.Helper()
		v, err := getMeta(ctx, s.db, "seed_data_version")
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	closeServer := func(s *Server) {
		t.Helper()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}

	s := open()
	if s.Reused() {
		t.Fatal("a new file cannot be reused")
	}
	if got := stored(s); got != current {
		t.Fatalf("stored seed-data version %q, want %q", got, current)
	}

	for _, c := range []struct {
		name  string
		stale string // the statement that makes the file look seeded by another generator
	}{
		{"older version", `UPDATE meta SET value = '` + strconv.Itoa(seedDataVersion-1) + `' WHERE key = 'seed_data_version'`},
		{"no version", `DELETE FROM meta WHERE key = 'seed_data_version'`},
	} {
		mark(s)
		exec(s, c.stale)
		closeServer(s)
		s = open()
		if s.Reused() || marked(s) {
			t.Fatalf("%s: the file was reused (reused %v, edited contact kept %v)", c.name, s.Reused(), marked(s))
		}
		if got := stored(s); got != current {
			t.Fatalf("%s: after reseeding the stored seed-data version is %q, want %q", c.name, got, current)
		}
	}

	// With the current version the file, and a change made to it, is kept.
	mark(s)
	closeServer(s)
	s = open()
	defer closeServer(s)
	if !s.Reused() || !marked(s) {
		t.Fatalf("current version: reused %v, edited contact kept %v", s.Reused(), marked(s))
	}
}
