package common_test

import (
	"context"
	"fmt"
	"testing"

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
