package sandbox

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Variant switches one behaviour the spec leaves open ("not shown") from the sandbox's own
// choice (docs/api-notes.md) to another one that a server meeting the spec may just as well
// have. The variants change how the server answers, never the seeded data: one database
// serves with and without them.
type Variant string

// The variants.
const (
	// VariantCappedCount: offset lists report count as at most the offset cap (10,000), the
	// number of results they return; the /all/ endpoints keep the true count.
	VariantCappedCount Variant = "capped-count"
	// VariantSlotsUsedMax: GET /operators/{id}/slots/ answers {"used": n, "max": m}.
	VariantSlotsUsedMax Variant = "slots-used-max"
	// VariantSlotsList: GET /operators/{id}/slots/ answers the occupied slots as an array
	// (one object per conversation holding a slot); operator records carry max_slots.
	VariantSlotsList Variant = "slots-list"
	// VariantAwayIndependent: the away status does not touch the online status, and the
	// away PATCH answers with the whole operator record.
	VariantAwayIndependent Variant = "away-independent"
	// VariantBareLists: the notes, navigation and operators lists answer a bare JSON array
	// of every matching item instead of the offset envelope.
	VariantBareLists Variant = "bare-lists"
	// VariantFieldErrors: a 400 names the faulty field the way Django REST framework does,
	// {"<field>": ["<message>"]} or {"non_field_errors": ["<message>"]}, without detail.
	VariantFieldErrors Variant = "field-errors"
	// VariantReadOnlyFields: a conversation PATCH takes topics only (what the spec shows as
	// writable); status, operator_assigned_to and marked_read_operator are refused with a
	// 400 naming the field ("status: this field is read-only.").
	VariantReadOnlyFields Variant = "read-only-fields"
)

// VariantInfo names a variant and says in one line what it changes.
type VariantInfo struct {
	Name    Variant
	Summary string
}

var variantList = []VariantInfo{
	{VariantCappedCount, "offset lists report count as at most 10,000; /all/ keeps the true count"},
	{VariantSlotsUsedMax, `operator slots are {"used": n, "max": m}`},
	{VariantSlotsList, "operator slots are an array of occupied slots; operators carry max_slots"},
	{VariantAwayIndependent, "away leaves the online status alone; the away PATCH answers the operator"},
	{VariantBareLists, "notes, navigation and operators lists are bare arrays, not envelopes"},
	{VariantFieldErrors, `a 400 is {"<field>": ["<message>"]} (or non_field_errors), no detail`},
	{VariantReadOnlyFields, "a conversation PATCH takes topics only: status, assignment and read state are read-only (400)"},
}

// Variants lists every variant in a fixed order.
func Variants() []VariantInfo { return slices.Clone(variantList) }

// variantNames is the names of every variant, for messages.
func variantNames() string {
	names := make([]string, len(variantList))
	for i, v := range variantList {
		names[i] = string(v.Name)
	}
	return strings.Join(names, ", ")
}

// ParseVariants reads variant names, each argument one name or several separated by
// commas (as --variant takes them). Blank names are skipped and a repeated name counts once.
// An unknown name, or two variants that cannot be combined, is an error that lists the names.
func ParseVariants(args ...string) ([]Variant, error) {
	var out []Variant
	for _, a := range args {
		for _, f := range strings.Split(a, ",") {
			v := Variant(strings.TrimSpace(f))
			if v == "" || slices.Contains(out, v) {
				continue
			}
			out = append(out, v)
		}
	}
	return out, checkVariants(out)
}

// checkVariants refuses an unknown variant and two slot shapes at once.
func checkVariants(vs []Variant) error {
	for _, v := range vs {
		if !slices.ContainsFunc(variantList, func(i VariantInfo) bool { return i.Name == v }) {
			return fmt.Errorf("unknown sandbox variant %q (known: %s)", string(v), variantNames())
		}
	}
	if slices.Contains(vs, VariantSlotsUsedMax) && slices.Contains(vs, VariantSlotsList) {
		return fmt.Errorf("sandbox variants %s and %s are two shapes of the same answer: choose one", VariantSlotsUsedMax, VariantSlotsList)
	}
	return nil
}

// variantSet is the variants a server runs with.
type variantSet map[Variant]bool

func newVariantSet(vs []Variant) variantSet {
	set := variantSet{}
	for _, v := range vs {
		set[v] = true
	}
	return set
}

// Variants returns the variants the server runs with, in the order of Variants().
func (s *Server) Variants() []Variant {
	var out []Variant
	for _, v := range variantList {
		if s.variants[v.Name] {
			out = append(out, v.Name)
		}
	}
	return out
}

// fieldMessage is a detail text of the form "field: message" (how the sandbox words the
// errors of one field or parameter).
var fieldMessage = regexp.MustCompile(`^([a-z][a-z0-9_]*): (.+)$`)

// fieldErrorBody is the Django REST framework form of a 400's detail text: the message in a
// list under the field it names, or under non_field_errors.
func fieldErrorBody(detail string) map[string][]string {
	if m := fieldMessage.FindStringSubmatch(detail); m != nil {
		return map[string][]string{m[1]: {m[2]}}
	}
	return map[string][]string{"non_field_errors": {detail}}
}
