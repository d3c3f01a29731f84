package sandbox_test

import (
	"strings"
	"testing"
)

// cmpNullable compares optional timestamps; null sorts first ascending (SQLite order).
func cmpNullable(a, b *string) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return strings.Compare(*a, *b)
}

func TestConversationOrderings(t *testing.T) {
	t.Parallel()
	a := shared(t)
	fields := map[string]func(c conversation) *string{
		"last_message_sent_at":          func(c conversation) *string { return &c.LastMessageSentAt },
		"contact_first_message_sent_at": func(c conversation) *string { return c.ContactFirstMessageSentAt },
		"contact_last_update_at":        func(c conversation) *string { return &c.ContactLastUpdateAt },
		"contact_last_message_sent_at":  func(c conversation) *string { return c.ContactLastMessageSentAt },
	}
	for name, f := range fields {
		for _, desc := range []bool{false, true} {
			o := name
			if desc {
				o = "-" + name
			}
			items, count, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=30&ordering="+o)
			if len(items) != count {
				t.Fatalf("%s: walked %d of %d", o, len(items), count)
			}
			for i := 1; i < len(items); i++ {
				c := cmpNullable(f(items[i-1]), f(items[i]))
				if desc {
					c = -c
				}
				if c > 0 {
					t.Fatalf("ordering=%s broken at %d: %v then %v", o, i, deref(f(items[i-1])), deref(f(items[i])))
				}
			}
		}
	}
	asc, _, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=100&ordering=id")
	for i := 1; i < len(asc); i++ {
		if asc[i].ID <= asc[i-1].ID {
			t.Fatal("ordering=id not ascending")
		}
	}
	desc, _, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=100&ordering=-id")
	for i := 1; i < len(desc); i++ {
		if desc[i].ID >= desc[i-1].ID {
			t.Fatal("ordering=-id not descending")
		}
	}
	for _, bad := range []string{"name", "-created_at", "id,-id", "--id", "updated_at"} {
		r := a.get("/api/um/v3/conversations/?ordering=" + bad)
		expectStatus(t, r, 400, "ordering="+bad)
		if d := r.detail(t); !strings.Contains(d, "ordering") {
			t.Fatalf("detail does not mention ordering: %s", d)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

func TestContactOrderings(t *testing.T) {
	t.Parallel()
	a := shared(t)
	fields := map[string]func(c contact) *string{
		"created_at": func(c contact) *string { return &c.CreatedAt },
		"name": func(c contact) *string {
			if c.Name == nil {
				return nil
			}
			s := strings.ToLower(*c.Name)
			return &s
		},
		"email": func(c contact) *string {
			if c.Email == nil {
				return nil
			}
			s := strings.ToLower(*c.Email)
			return &s
		},
	}
	for name, f := range fields {
		for _, desc := range []bool{false, true} {
			o := name
			if desc {
				o = "-" + name
			}
			items, count, _ := walkOffset[contact](a, "/api/um/v3/contact_identities/?limit=25&ordering="+o)
			if len(items) != count {
				t.Fatalf("%s: walked %d of %d", o, len(items), count)
			}
			for i := 1; i < len(items); i++ {
				c := cmpNullable(f(items[i-1]), f(items[i]))
				if desc {
					c = -c
				}
				if c > 0 && name != "name" {
					t.Fatalf("ordering=%s broken at %d: %v then %v", o, i, deref(f(items[i-1])), deref(f(items[i])))
				}
			}
		}
	}
	// Name order is SQLite's case-insensitive order: check ASCII names only.
	items, _, _ := walkOffset[contact](a, "/api/um/v3/contact_identities/?limit=100&ordering=name")
	var prev string
	for _, c := range items {
		if c.Name == nil || !isASCII(*c.Name) {
			continue
		}
		n := strings.ToLower(*c.Name)
		if n < prev {
			t.Fatalf("ordering=name: %q after %q", n, prev)
		}
		prev = n
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < 0x20 {
			return false
		}
	}
	return true
}

func TestNotesNavigationOperatorOrderings(t *testing.T) {
	t.Parallel()
	a := shared(t)
	type idItem struct {
		ID int64 `json:"id"`
	}
	for _, tc := range []struct {
		path string
		asc  bool
	}{
		{"/api/um/v3/notes/?limit=100", false},
		{"/api/um/v3/notes/?limit=100&ordering=id", true},
		{"/api/um/v3/notes/?limit=100&ordering=-id", false},
		{"/api/um/v3/navigation/?limit=100", false},
		{"/api/um/v3/navigation/?limit=100&ordering=id", true},
		{"/api/um/v3/operators/?limit=100", false}, // spec, Pagination 3: id descending
		{"/api/um/v3/operators/?limit=100&ordering=id", true},
		{"/api/um/v3/operators/?limit=100&ordering=-id", false},
	} {
		items, _, _ := walkOffset[idItem](a, tc.path)
		for i := 1; i < len(items); i++ {
			if (items[i].ID > items[i-1].ID) != tc.asc {
				t.Fatalf("%s: not in %v order at %d", tc.path, tc.asc, i)
			}
		}
	}
	ops, _, _ := walkOffset[operator](a, "/api/um/v3/operators/?ordering=name")
	for i := 1; i < len(ops); i++ {
		if strings.ToLower(ops[i].Name) < strings.ToLower(ops[i-1].Name) {
			t.Fatalf("operators ordering=name: %q after %q", ops[i].Name, ops[i-1].Name)
		}
	}
}
