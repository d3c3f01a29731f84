package navigation_test

import (
	"testing"

	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/viewtest"
)

// newEnv is a fresh sandbox (tests here write) with a request log and a client on it.
func newEnv(t *testing.T) *viewtest.Env { return viewtest.NewEnv(t, sandbox.Options{}, nil) }
