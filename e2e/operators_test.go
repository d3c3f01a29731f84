//go:build e2e

package e2e

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// operatorsLoaded matches the operators screen's header once the list is in: the count
// and the statuses, then (on the same line or the next) the requests today.
var operatorsLoaded = regexp.MustCompile(`(?s)\d+ operators · \d+ available.*operators requests today`)

// openOperators switches to the operators screen and waits for its rows and slots.
func openOperators(t *testing.T, tui *TUI) string {
	t.Helper()
	waitList(t, tui) // parley is up and reading keys
	tui.Keys("3")
	return waitOperators(t, tui)
}

// waitOperators waits until the operators screen shows every visible operator's slots.
func waitOperators(t *testing.T, tui *TUI) string {
	t.Helper()
	return tui.WaitUntil(func(s string) bool {
		return operatorsLoaded.MatchString(s) && strings.Contains(s, "slots ") && !strings.Contains(s, "slots …") &&
			!strings.Contains(s, "refreshing…")
	}, 30*time.Second, "the operators screen")
}

// operatorsInOrder lists the default organization's operators in the screen's order (by
// name, then id).
func operatorsInOrder(t *testing.T, sb *Sandbox) []client.Operator {
	t.Helper()
	var out []client.Operator
	for op, err := range sb.Client(t).Operators(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, op)
	}
	if len(out) < 3 {
		t.Fatalf("only %d operators", len(out))
	}
	sortLikeTheScreen(out)
	return out
}

// sortLikeTheScreen sorts operators as the operators screen does by default: by name
// without case (the display name when there is none), then id.
func sortLikeTheScreen(ops []client.Operator) {
	name := func(op client.Operator) string { return strings.ToLower(cmp.Or(op.Name, op.DisplayName)) }
	slices.SortFunc(ops, func(a, b client.Operator) int {
		return cmp.Or(cmp.Compare(name(a), name(b)), cmp.Compare(a.ID, b.ID))
	})
}

// ownerAt is the index of the organization's owner (the default operator) in ops.
func ownerAt(t *testing.T, ops []client.Operator) int {
	t.Helper()
	i := slices.IndexFunc(ops, func(op client.Operator) bool { return op.Role == client.RoleOwner })
	if i < 0 {
		t.Fatalf("no owner among %+v", ops)
	}
	return i
}

// cursorTo puts the operators screen's cursor on row i (from the top) and waits for it.
func cursorTo(t *testing.T, tui *TUI, i, n int) {
	t.Helper()
	tui.Keys("g")
	for range i {
		tui.Keys("j")
	}
	want := fmt.Sprintf(" %d/%d ", i+1, n)
	tui.WaitUntil(func(s string) bool { return strings.Contains(s, want) }, 10*time.Second, "the cursor on row "+want)
}

// awayOf asks the API for an operator's away status.
func awayOf(t *testing.T, sb *Sandbox, id int64) bool {
	t.Helper()
	op, err := sb.Client(t).GetOperator(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !op.IsAway.Known {
		t.Fatalf("operator %d: the API does not say whether it is away", id)
	}
	return op.IsAway.V
}

// waitAway waits until the API reports want for operator id.
func waitAway(t *testing.T, tui *TUI, sb *Sandbox, id int64, want bool) {
	t.Helper()
	tui.WaitUntil(func(string) bool { return awayOf(t, sb, id) == want }, 15*time.Second, fmt.Sprintf("operator %d to be away %v by the API", id, want))
}

// awayWord is how the screen shows a status.
func awayWord(away bool) string {
	if away {
		return "◌ away"
	}
	return "● available"
}

// rowOf returns the screen line of the operator named name.
func rowOf(screen, name string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, name) && strings.Contains(l, "slots") {
			return l
		}
	}
	return ""
}

func TestToggleAwayAndBack(t *testing.T) {
	sb := StartSandbox(t, "small")
	ops := operatorsInOrder(t, sb)
	i := ownerAt(t, ops)
	if i+1 >= len(ops) {
		t.Fatalf("the owner is the last operator: %+v", ops)
	}
	owner, other := ops[i], ops[i+1] // the owner is the default operator: "(you)"
	tui := StartTUI(t, 100, 30, sb.Env)
	s := openOperators(t, tui)
	cursorTo(t, tui, i, len(ops))
	if !strings.Contains(rowOf(s, owner.Name), "(you)") {
		t.Fatalf("the owner is not marked as the acting operator:\n%s", s)
	}

	// Oneself: no question.
	start := owner.IsAway.V
	for _, want := range []bool{!start, start} {
		tui.Keys("w")
		waitAway(t, tui, sb, owner.ID, want)
		tui.WaitUntil(func(s string) bool { return strings.Contains(rowOf(s, owner.Name), awayWord(want)) },
			10*time.Second, "the owner's row to show "+awayWord(want))
		if s := tui.Screen(); strings.Contains(s, "Set operator") {
			t.Fatalf("asked before changing one's own status:\n%s", s)
		}
	}

	// Another operator: a confirmation naming them first; n changes nothing.
	tui.Keys("j", "w")
	s = tui.WaitFor("Set operator", 10*time.Second)
	if !strings.Contains(strings.Join(strings.Fields(s), " "), other.Name) {
		t.Fatalf("the question does not name %s:\n%s", other.Name, s)
	}
	tui.Keys("n")
	tui.WaitUntil(func(s string) bool { return !strings.Contains(s, "Set operator") }, 10*time.Second, "the question to close")
	if awayOf(t, sb, other.ID) != other.IsAway.V {
		t.Fatal("n changed the away status")
	}
	for _, want := range []bool{!other.IsAway.V, other.IsAway.V} {
		tui.Keys("w")
		tui.WaitFor("Set operator", 10*time.Second)
		tui.Keys("y")
		waitAway(t, tui, sb, other.ID, want)
		tui.WaitUntil(func(s string) bool { return strings.Contains(rowOf(s, other.Name), awayWord(want)) },
			10*time.Second, "the row to show "+awayWord(want))
	}
}

func TestPermissionErrorThenDefaultOperator(t *testing.T) {
	sb := StartSandbox(t, "small")
	ops := operatorsInOrder(t, sb)
	var restricted client.Operator
	for _, op := range ops {
		if strconv.FormatInt(op.ID, 10) == sb.RestrictedOperatorID {
			restricted = op
		}
	}
	if restricted.ID == 0 {
		t.Fatalf("restricted operator %s not listed", sb.RestrictedOperatorID)
	}
	tui := StartTUI(t, 100, 30, sb.Env, "--operator", sb.RestrictedOperatorID)
	s := openOperators(t, tui)
	if !strings.Contains(rowOf(s, restricted.Name), "(you)") || !strings.Contains(s, "as "+restricted.DisplayName) {
		t.Fatalf("not acting as %s:\n%s", restricted.Name, s)
	}
	// Another operator than the owner and the restricted one.
	k := slices.IndexFunc(ops, func(op client.Operator) bool { return op.Role != client.RoleOwner && op.ID != restricted.ID })
	if k < 0 {
		t.Fatalf("no operator besides the owner and %s: %+v", restricted.Name, ops)
	}
	other := ops[k]
	cursorTo(t, tui, k, len(ops))
	tui.Keys("w")
	tui.WaitFor("Set operator", 10*time.Second)
	tui.Keys("y")
	tui.WaitFor("You lack permission", 15*time.Second)
	if awayOf(t, sb, other.ID) != other.IsAway.V {
		t.Fatal("the refused change went through")
	}

	// Back to the default operator with ctrl+p; the cursor stays on the row, and the same
	// action now works.
	tui.Keys("C-p")
	tui.WaitFor("Act as operator", 10*time.Second)
	tui.Keys("Home", "Enter")
	tui.WaitFor("Now acting as the default operator", 15*time.Second)
	s = waitOperators(t, tui)
	if strings.Contains(s, "as "+restricted.DisplayName) {
		t.Fatalf("status bar still names the restricted operator:\n%s", s)
	}
	tui.Keys("w")
	tui.WaitFor("Set "+other.Name, 10*time.Second)
	tui.Keys("y")
	waitAway(t, tui, sb, other.ID, !other.IsAway.V)
	tui.WaitUntil(func(s string) bool { return strings.Contains(rowOf(s, other.Name), awayWord(!other.IsAway.V)) },
		10*time.Second, "the row to show the change")
}

// listPaneWidth is the width of the conversation list's frame: up to its top right corner.
func listPaneWidth(screen string) int {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "╭─ Conversations") {
			if i := strings.Index(l, "╮"); i >= 0 {
				return ansi.StringWidth(l[:i]) + 1
			}
		}
	}
	return 0
}

// TestWideListAndAnOperatorsConversations (tmux 200×50): the conversation list takes half
// of the terminal and shows the previews at length; on the operators screen (3), enter on
// the operator with the most assigned conversations lists exactly those the sandbox has
// assigned to them, with the header naming them and every row their name.
func TestWideListAndAnOperatorsConversations(t *testing.T) {
	sb := StartSandbox(t, "small")
	api := sb.Client(t)
	tui := StartTUI(t, 200, 50, sb.Env)
	s := waitList(t, tui)
	if w := listPaneWidth(s); w < 100 {
		t.Fatalf("the list is %d columns wide at 200:\n%s", w, s)
	}
	page, err := api.ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 40, Ordering: listOrder}})
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, c := range page.Results {
		if c.LastMessage == nil {
			continue
		}
		pv := strings.Join(strings.Fields(c.LastMessage.Body), " ")
		if sanitize.Line(pv) != pv || ansi.StringWidth(pv) <= 28 {
			continue // control characters, or short (the first 40 rows are all in view)
		}
		heads = append(heads, ansi.Truncate(pv, 26, ""))
	}
	if len(heads) < 5 {
		t.Fatalf("%d long previews in view: the test cannot tell", len(heads))
	}
	missing := func(s string) []string {
		var out []string
		for _, h := range heads {
			if !strings.Contains(s, h) {
				out = append(out, h)
			}
		}
		return out
	}
	// The rows are drawn with the page; wait for the screen to show them all.
	tui.WaitUntil(func(s string) bool { return len(missing(s)) == 0 }, 10*time.Second, "26 cells of every long preview")

	byOp := map[int64]int{}
	for c, err := range api.ConversationsAll(t.Context(), client.AllConversationsOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if c.OperatorAssignedTo != nil {
			byOp[*c.OperatorAssignedTo]++
		}
	}
	ops := operatorsInOrder(t, sb)
	best := 0
	for i, op := range ops {
		if byOp[op.ID] > byOp[ops[best].ID] {
			best = i
		}
	}
	op := ops[best]
	if byOp[op.ID] < 2 {
		t.Fatalf("no operator has two conversations assigned: %v", byOp)
	}
	tui.Keys("3")
	waitOperators(t, tui)
	cursorTo(t, tui, best, len(ops))
	tui.Keys("Enter")
	// The operators directory names operators by their display name, the rows and the
	// header alike.
	shown := cmp.Or(op.DisplayName, op.Name)
	want := fmt.Sprintf("%d conversations · all statuses · assigned to %s", byOp[op.ID], shown)
	s = tui.WaitUntil(func(s string) bool { return strings.Contains(s, want) && !strings.Contains(s, "loading…") },
		20*time.Second, want)
	rows := 0
	for _, l := range strings.Split(s, "\n") {
		// The list pane's part of the line: the detail beside it shows a status too.
		list, _, ok := strings.Cut(l, "││")
		if !ok || !strings.Contains(list, "● new") && !strings.Contains(list, "◐ pending") && !strings.Contains(list, "○ ended") {
			continue
		}
		if !strings.Contains(list, " "+shown+" ") {
			t.Errorf("a row of %s's conversations names another operator: %q", op.Name, list)
		}
		rows++
	}
	if rows != min(byOp[op.ID], 45) {
		t.Fatalf("%d rows listed, the sandbox has %d conversations assigned to %s:\n%s", rows, byOp[op.ID], op.Name, s)
	}
}
