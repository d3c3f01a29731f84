package operators

import (
	"strconv"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sanitize"
)

// Row is the sanitized form of an operator that the screen keeps. The away and online
// statuses, and the slot total of the record, are known only when the server sent them.
type Row struct {
	ID          int64
	Name        string
	DisplayName string
	Email       string
	Role        string
	Locale      string
	IsBot       bool // the record says it is a bot (is_bot true, or the role bot)
	IsAway      client.Opt[bool]
	IsOnline    client.Opt[bool]
	MaxSlots    client.Opt[int]
	GroupID     *int64
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// Extra is the record's fields that parley does not read, as sanitized "key=value".
	Extra []string
	// AwayExtra is the same of the last away answer, when it was not the whole record.
	AwayExtra []string
}

// RowFrom builds a Row from an API operator, sanitizing every text.
func RowFrom(op client.Operator) Row {
	return Row{
		ID:          op.ID,
		Name:        sanitize.Line(op.Name),
		DisplayName: sanitize.Line(op.DisplayName),
		Email:       sanitize.Line(op.Email),
		Role:        sanitize.Line(op.Role),
		Locale:      sanitize.Line(op.Locale),
		IsBot:       op.IsBot.V || op.Role == client.RoleBot,
		IsAway:      op.IsAway,
		IsOnline:    op.IsOnline,
		MaxSlots:    op.MaxSlots,
		GroupID:     op.OperatorGroupID,
		CreatedAt:   op.CreatedAt.Time,
		UpdatedAt:   op.UpdatedAt.Time,
		Extra:       ExtraLines(op.Extra),
	}
}

// ExtraLines are fields parley does not read as sanitized "key=value" lines.
func ExtraLines(e client.Extra) []string {
	if len(e) == 0 {
		return nil
	}
	out := e.Pairs()
	for i, p := range out {
		out[i] = sanitize.Line(p)
	}
	return out
}

func rowID(r Row) int64 { return r.ID }

// Label names the operator in questions and toasts: "Ben Okafor (#1002)".
func (r Row) Label() string {
	n := r.Name
	if n == "" {
		n = r.DisplayName
	}
	if n == "" {
		n = "operator"
	}
	return n + " (#" + strconv.FormatInt(r.ID, 10) + ")"
}

// AwaySymbol is the away status as a symbol and a word (never colour alone).
func AwaySymbol(away bool) (symbol, word string) {
	if away {
		return "◌", writes.AwayWord(away)
	}
	return "●", writes.AwayWord(away)
}

// AwayText is the away status as the row shows it: "◌ away", "● available", or "—" when
// the server did not say.
func AwayText(away client.Opt[bool]) string {
	if !away.Known {
		return "—"
	}
	sym, word := AwaySymbol(away.V)
	return sym + " " + word
}

// OnlineWord is the presence as a word.
func OnlineWord(online bool) string {
	if online {
		return "online"
	}
	return "offline"
}

// OnlineText is the presence as the row shows it: "online", "offline", or "—" when the
// server did not say.
func OnlineText(online client.Opt[bool]) string {
	if !online.Known {
		return "—"
	}
	return OnlineWord(online.V)
}

// SlotText is a slot use as the row shows it: "3/50", with "—" for a number the server did
// not give, or gave below zero ("—/50", "3/—"), or "—" when it gave neither.
func SlotText(used, total client.Opt[int]) string {
	if !used.Known && !total.Known {
		return "—"
	}
	n := func(o client.Opt[int]) string {
		if !o.Known {
			return "—"
		}
		return layout.Count(o.V)
	}
	return n(used) + "/" + n(total)
}

// slotState is what the screen knows of one operator's slots.
type slotState struct {
	val   client.Slots // the last answer
	extra []string     // its fields parley does not read, and the occupied slots it lists
	known bool         // a value arrived at least once
	err   error        // the last request failed
	gen   int          // the refresh round the value belongs to
}
