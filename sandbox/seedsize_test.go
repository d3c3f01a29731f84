package sandbox

import (
	"context"
	"testing"
	"time"
)

// A size's conversation and message counts are exact, not approximations of the random
// conversation lengths: "large" promises 20,000 conversations and 500,000 messages.
func TestSeedSizesAreExact(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, size := range []Size{SizeSmall, SizeMedium} {
		t.Run(string(size), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s, err := Open(ctx, Options{Size: size, Seed: 3, Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			want := sizeSpecs[size]
			count := func(table string) int {
				t.Helper()
				var n int
				if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			if got := count("conversations"); got != want.conversations {
				t.Errorf("conversations: %d, want %d", got, want.conversations)
			}
			if got := count("messages"); got != want.messages {
				t.Errorf("messages: %d, want %d", got, want.messages)
			}
			var longest int
			if err := s.db.QueryRowContext(ctx, `SELECT max(n) FROM (SELECT count(*) AS n FROM messages GROUP BY conversation_id)`).Scan(&longest); err != nil {
				t.Fatal(err)
			}
			if longest < 1500 {
				t.Errorf("the longest conversation has %d messages, want at least 1,500", longest)
			}
		})
	}
}
