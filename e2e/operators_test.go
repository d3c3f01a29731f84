//go:build e2e

package e2e

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

var operatorsLoaded = regexp.MustCompile(`\d+ operators · operators requests today`)

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

// operatorsByID lists the default organization's operators in the screen's order (id).
func operatorsByID(t *testing.T, sb *Sandbox) []client.Operator {
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
	// The screen lists them by id, whatever order the API gives.
	slices.SortFunc(out, func(a, b client.Operator) int { return cmp.Compare(a.ID, b.ID) })
	return out
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
	deadline := time.Now().Add(15 * time.Second)
	for awayOf(t, sb, id) != want {
		if time.Now().After(deadline) {
			t.Fatalf("operator %d: away is not %v after 15s; screen:\n%s", id, want, tui.Screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
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
	ops := operatorsByID(t, sb)
	owner, other := ops[0], ops[1] // the owner is the default operator: "(you)"
	if owner.Role != client.RoleOwner {
		t.Fatalf("first operator %+v is not the owner", owner)
	}
	tui := StartTUI(t, 100, 30, sb.Env)
	s := openOperators(t, tui)
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
	ops := operatorsByID(t, sb)
	other := ops[1]
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
	tui.Keys("j", "w")
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
	tui.Keys("g", "Enter")
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
