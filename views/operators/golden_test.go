package operators_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/parley-tui/parley/views/operators"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestGoldenOperators renders the screen against the in-process sandbox (small, seed 1,
// fixed clock, no colour) once the list and every visible operator's slots are in.
// Regenerate with: go test ./views/operators -run Golden -update
func TestGoldenOperators(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			ctx := viewtest.Ctx(newEnv(t).Client)
			ctx.Budget.Interval = 20 * time.Second
			h := viewtest.NewHost(ctx, operators.New(ctx))
			viewtest.GoldenView(t, h, size[0], size[1], map[string]int{"list.PageMsg": 1, "operators.slotsMsg": 7})
		})
	}
}
