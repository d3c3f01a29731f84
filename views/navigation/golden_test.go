package navigation_test

import (
	"fmt"
	"testing"

	"github.com/parley-tui/parley/views/navigation"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestGoldenNavigation renders the screen against the in-process sandbox (small, seed 1,
// fixed clock, no colour) once the first page is in.
// Regenerate with: go test ./views/navigation -run Golden -update
func TestGoldenNavigation(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			ctx := viewtest.Ctx(newEnv(t).Client)
			h := viewtest.NewHost(ctx, navigation.New(ctx))
			viewtest.GoldenView(t, h, size[0], size[1], map[string]int{"list.PageMsg": 1})
		})
	}
}
