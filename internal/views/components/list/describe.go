package list

import (
	"fmt"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/when"
	"github.com/parley-tui/parley/sanitize"
)

// Describe lists the parameters f sets, as r declares them, in the header's short words
// (client.Param.Short), the status aside (the header shows it apart): an id with names by
// the name names gives it ("" = unknown: the id), a date as when.Format writes it, a
// choice by its short words, a text sanitized. names may be nil.
func Describe[F, R any](r client.Resource[F, R], f F, names func(resource string, id int64) string) []string {
	var out []string
	for _, p := range r.Params {
		if p.Name == r.Status || !p.IsSet(f) {
			continue
		}
		v := p.Value(f)
		switch p.Kind() {
		case client.KindID:
			if p.Names != "" && names != nil {
				if n := names(p.Names, *p.ID(&f)); n != "" {
					v = n
				}
			}
		case client.KindDate:
			v = when.Format(*p.Date(&f))
		case client.KindBool, client.KindEnum:
			if c, ok := p.Choice(v); ok && c.Short != "" {
				v = c.Short
			}
		default:
			v = sanitize.Line(v)
		}
		out = append(out, fmt.Sprintf(p.Short, v))
	}
	return out
}
