package savedviews

import (
	"errors"
	"fmt"
	"strings"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// codec turns a saved view into a list query and back, for one screen.
type codec[F interface{ IsZero() bool }] struct {
	// query is the query of a saved view (an error for a view it cannot read).
	query func(common.SavedView) (list.Query[F], error)
	// view is the saved view of a query (no name; Screen set).
	view func(list.Query[F]) common.SavedView
}

// codecOf is the codec of screen's list, declared by r: a view's filters are r's
// parameters as the API takes them (the status under a key of its own), its ordering one of
// r's, the server's default kept as none. An operator's id may be client.OperatorMe: the
// operator me returns when the view is read (an error while that is not known).
func codecOf[F interface{ IsZero() bool }, R any](screen string, r client.Resource[F, R], me func() int64) codec[F] {
	status, hasStatus := r.Param(r.Status)
	read := func(v common.SavedView) (list.Query[F], error) {
		var f F
		for _, k := range sortedKeys(v.Filters) {
			p, ok := r.Param(k)
			if !ok || k == r.Status {
				return list.Query[F]{}, fmt.Errorf("unknown filter %q", k)
			}
			if p.TakesMe() && strings.TrimSpace(v.Filters[k]) == client.OperatorMe {
				id := me()
				if id == 0 {
					return list.Query[F]{}, errors.New("who you are is not known yet (operator_id: me)")
				}
				*p.ID(&f) = id
				continue
			}
			if err := p.Parse(&f, v.Filters[k]); err != nil {
				return list.Query[F]{}, fmt.Errorf("filter %s: %w", k, err)
			}
		}
		switch {
		case v.Status == "":
		case !hasStatus:
			return list.Query[F]{}, fmt.Errorf("%s have no status", screen)
		default:
			if err := status.Parse(&f, v.Status); err != nil {
				return list.Query[F]{}, fmt.Errorf("status: %w", err)
			}
		}
		q := list.Query[F]{Filter: f, Search: v.Search, Ordering: v.Ordering}
		if q.Ordering == r.Default {
			q.Ordering = ""
		}
		return q, nil
	}
	return codec[F]{
		query: func(v common.SavedView) (list.Query[F], error) {
			q, err := read(v)
			if err != nil {
				return q, fmt.Errorf("view %q: %w", v.Name, err)
			}
			return q, nil
		},
		view: func(q list.Query[F]) common.SavedView {
			v := common.SavedView{Screen: screen, Search: q.Search, Ordering: q.Ordering}
			if v.Ordering == r.Default {
				v.Ordering = ""
			}
			if hasStatus {
				v.Status = status.Value(q.Filter)
			}
			for k, vs := range r.Values(q.Filter) {
				if k == r.Status {
					continue
				}
				if v.Filters == nil {
					v.Filters = map[string]string{}
				}
				v.Filters[k] = vs[0]
			}
			return v
		},
	}
}
