package common_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
)

func TestPermissionTextSaysItOnce(t *testing.T) {
	denied := func(detail string) error {
		return fmt.Errorf("update operator 7: %w", &client.Error{Method: "PATCH", Path: "/operators/7/", Status: 403, Detail: detail})
	}
	for _, tc := range []struct{ detail, want string }{
		{`You do not have permission to perform this action: operator 2006 with role "agent" may not change operators of other operators.`,
			`You lack permission: operator 2006 with role "agent" may not change operators of other operators.`},
		{"You do not have permission to perform this action.", "You lack permission for this action."},
		{"you do not have permission to perform this action - bots may not edit", "You lack permission: bots may not edit"},
		{"Only owners may do that.", "You lack permission: Only owners may do that."},
		{"You do not have permission to perform this action: \x1b]0;x\x07", "You lack permission: ␛]0;x␇"},
	} {
		if got := common.ErrorText(denied(tc.detail)); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.detail, got, tc.want)
		}
	}
	// Other errors keep their wording.
	if got := common.ErrorText(&client.Error{Status: 404, Detail: "No contact."}); got != "Not found: No contact." {
		t.Errorf("404: %q", got)
	}
	if got := common.ErrorText(fmt.Errorf("x: %w", context.DeadlineExceeded)); got != "The API did not answer in time." {
		t.Errorf("timeout: %q", got)
	}
}

// A server that cannot be reached is named with the reason, not the method and whole URL.
func TestErrorTextNamesAnUnreachableHost(t *testing.T) {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9/base", Token: "secret-token-xyz", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = c.GetConversation(ctx, 1)
	if err == nil {
		t.Fatal("no error from a closed port")
	}
	got := common.ErrorText(err)
	if got != "Cannot connect to 127.0.0.1:9 (connection refused); nothing was sent." {
		t.Fatalf("ErrorText = %q", got)
	}
	lines := common.LoadFailedLines(err, "r", 30, 3)
	if len(lines) > 3 || !strings.HasPrefix(lines[0], "  Could not load: Cannot") {
		t.Fatalf("LoadFailedLines = %q", lines)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 30 {
			t.Fatalf("line %q is %d wide", l, w)
		}
	}
	if all := strings.Join(strings.Fields(strings.Join(common.LoadFailedLines(err, "r", 80, 4), " ")), " "); !strings.Contains(all, "r tries again.") {
		t.Fatalf("no retry key in %q", all)
	}
}
