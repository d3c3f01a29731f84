package common_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
)

// A list that could not load says why in the lines it has, and which key tries again.
func TestLoadFailedLinesFitTheirWidth(t *testing.T) {
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
