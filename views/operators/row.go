package operators

import (
	"strconv"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// Row is the sanitized form of an operator that the screen keeps.
type Row struct {
	ID          int64
	Name        string
	DisplayName string
	Email       string
	Role        string
	Locale      string
	IsBot       bool
	IsAway      bool
	IsOnline    bool
	UpdatedAt   time.Time
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
		IsBot:       op.IsBot || op.Role == client.RoleBot,
		IsAway:      op.IsAway,
		IsOnline:    op.IsOnline,
		UpdatedAt:   op.UpdatedAt.Time,
	}
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
		return "◌", "away"
	}
	return "●", "available"
}

// OnlineWord is the presence as a word.
func OnlineWord(online bool) string {
	if online {
		return "online"
	}
	return "offline"
}

// slotState is what the screen knows of one operator's slots.
type slotState struct {
	current, total int
	known          bool  // a value arrived at least once
	err            error // the last request failed
	gen            int   // the refresh round the value belongs to
	req            int   // request in flight (0 = none)
}
