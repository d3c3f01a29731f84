package savedviews

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parley-tui/parley/when"
)

// Params reads a saved view's filters (API parameter → value) into a filter's fields:
// each setter takes one parameter's value. An unknown parameter or a bad value is an
// error naming it.
type Params map[string]func(string) error

// Apply sets the filters of values.
func (p Params) Apply(values map[string]string) error {
	for _, k := range sortedKeys(values) {
		set, ok := p[k]
		if !ok {
			return fmt.Errorf("unknown filter %q", k)
		}
		if err := set(strings.TrimSpace(values[k])); err != nil {
			return fmt.Errorf("filter %s: %w", k, err)
		}
	}
	return nil
}

// ID is a setter of a positive integer id.
func ID(dst *int64) func(string) error {
	return func(s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a positive integer id", s)
		}
		*dst = n
		return nil
	}
}

// Text is a setter of a text value.
func Text(dst *string) func(string) error {
	return func(s string) error { *dst = s; return nil }
}

// Date is a setter of a time: a date (the start of that UTC day) or ISO 8601, as
// when.ParseStamp reads them.
func Date(dst *time.Time) func(string) error {
	return func(s string) error {
		t, err := when.ParseStamp(s)
		if err == nil {
			*dst = t
		}
		return err
	}
}

// Bool is a setter of a yes/no value (true or false).
func Bool(dst **bool) func(string) error {
	return func(s string) error {
		var b bool
		switch strings.ToLower(s) {
		case "true":
			b = true
		case "false":
		default:
			return fmt.Errorf("%q is not true or false", s)
		}
		*dst = &b
		return nil
	}
}

// Flat turns encoded filter values (client filters' Values) into a view's filters, the
// keys in skip left out.
func Flat(values map[string][]string, skip ...string) map[string]string {
	out := map[string]string{}
	for k, vs := range values {
		if len(vs) == 0 || slices.Contains(skip, k) {
			continue
		}
		out[k] = vs[0]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
