package sandbox_test

import (
	"strconv"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

// The contract's "the last page has next null", read as the spec's paging rules say (see
// docs/api-notes.md, "The last page of an offset list"): the last page is the one that holds
// the last result the offset list returns, min(count, 10,000); `count` stays the number of
// matches (capped to 10,000 only under capped-count). For every size and every contract case,
// on conversations and contacts: that page has next null and holds exactly the rest, and the
// page before it links to it. The small and medium data sets are seeded once per test
// binary; the large one, the only one past the offset cap, is TestLastPageNextNullLarge's
// (-tags large).
func TestLastPageNextNullEverySizeAndVariant(t *testing.T) {
	t.Parallel()
	sizes := []sandbox.Size{sandbox.SizeSmall, sandbox.SizeMedium}
	if testing.Short() {
		sizes = sizes[:1] // the medium data set takes a while to seed
	}
	for _, size := range sizes {
		t.Run(string(size), func(t *testing.T) {
			t.Parallel()
			lastPageNextNull(t, size, "")
		})
	}
}

// lastPageNextNull checks the last page of each list on sandboxes of size under every
// contract case; path is the data set's database file ("": one started from its image).
func lastPageNextNull(t *testing.T, size sandbox.Size, path string) {
	t.Helper()
	const offsetCap, limit = 10000, 100
	capped := false
	for _, cc := range contractCases() {
		a := newAPI(t, start(t, sandbox.Options{DBPath: path, Size: size, Variants: cc.variants, DailyLimit: 1 << 40}))
		for _, list := range []string{"/api/um/v3/conversations/", "/api/um/v3/contact_identities/", "/api/um/v3/conversations/?status=ended"} {
			var first page[struct{}]
			a.mustGet(list+sep(list)+"limit=1", &first)
			if first.Count == nil {
				if cc.has(sandbox.VariantBareLists) {
					continue
				}
				t.Fatalf("%s %s: no count", cc.name, list)
			}
			reach := min(*first.Count, offsetCap)
			if *first.Count > offsetCap {
				capped = true
			}
			if cc.has(sandbox.VariantCappedCount) && *first.Count != reach {
				t.Fatalf("%s %s: count %d under capped-count", cc.name, list, *first.Count)
			}
			if reach == 0 {
				continue
			}
			last := (reach - 1) / limit * limit
			at := func(offset int) string {
				return list + sep(list) + "limit=" + strconv.Itoa(limit) + "&offset=" + strconv.Itoa(offset)
			}
			var lp page[struct {
				ID int64 `json:"id"`
			}]
			a.mustGet(at(last), &lp)
			if lp.Next != nil || len(lp.Results) != reach-last {
				t.Fatalf("%s %s (%s, count %d): the last page at offset %d has next %q and %d results, want null and %d",
					cc.name, list, size, *first.Count, last, deref(lp.Next), len(lp.Results), reach-last)
			}
			if last == 0 {
				continue
			}
			var before page[struct{}]
			a.mustGet(at(last-limit), &before)
			if before.Next == nil {
				t.Fatalf("%s %s: the page before the last has no next", cc.name, list)
			}
			var via page[struct {
				ID int64 `json:"id"`
			}]
			a.mustGet(*before.Next, &via)
			if via.Next != nil || len(via.Results) != len(lp.Results) || via.Results[0].ID != lp.Results[0].ID {
				t.Fatalf("%s %s: the next link of the page before the last does not lead to it", cc.name, list)
			}
		}
	}
	if size == sandbox.SizeLarge && !capped {
		t.Fatal("the large data set does not reach the offset cap")
	}
}

// sep is what joins another query parameter to path.
func sep(path string) string {
	for _, r := range path {
		if r == '?' {
			return "&"
		}
	}
	return "?"
}
