package sandbox

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// A database seeded with the version-1 schema is migrated on open and keeps its data.
func TestMigrateFromVersion1(t *testing.T) {
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	opts := Options{DBPath: filepath.Join(t.TempDir(), "v1.db"), Size: SizeSmall, Now: func() time.Time { return now }}
	ctx := context.Background()
	s, err := Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	var before int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM conversations`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	// Turn it back into a version-1 database: the first search tables, empty.
	for _, q := range []string{
		`DROP TABLE conversations_fts`,
		`DROP TABLE contacts_fts`,
		`CREATE VIRTUAL TABLE conversations_fts USING fts5(name, email, street, city, messages, tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3 4')`,
		`CREATE VIRTUAL TABLE contacts_fts USING fts5(name, email, street, city, country, notes, tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3 4')`,
		`UPDATE meta SET value = '1' WHERE key = 'schema_version'`,
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Reused() {
		t.Fatal("the version-1 database was seeded again instead of migrated")
	}
	var version string
	var after, indexed int
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM conversations`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	err = s.db.QueryRowContext(ctx, `SELECT count(*) FROM conversations_fts WHERE conversations_fts MATCH ?`,
		matchExpr(s.info.DefaultOrgID, conversationSearchColumns, `"thank"*`)).Scan(&indexed)
	if err != nil && err != sql.ErrNoRows {
		t.Fatal(err)
	}
	if version != "2" || after != before || indexed == 0 {
		t.Fatalf("after migration: version %s, %d of %d conversations, %d indexed matches", version, after, before, indexed)
	}
}
