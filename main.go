// Command parley is a terminal UI and command-line client for the Messaging Platform
// JSON API v3 and the Analytics API v1.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"boot.parley.local/termguard"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// version is parley's version; release builds set it with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	// First thing: undo the TERM=dumb that kept Bubble Tea's init from querying the
	// terminal (see termguard).
	termguard.Restore()
	proc := newProcess(os.Stderr, os.Exit)
	defer proc.recover("main")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	root := newRootCmd()
	err := root.ExecuteContext(withProcess(ctx, proc))
	var sig *signalExit
	switch {
	case errors.As(err, &sig):
		os.Exit(sig.code())
	case err != nil:
		fmt.Fprintln(os.Stderr, "parley:", errorLine(err))
		os.Exit(1)
	}
}

// errorLine is a command's error for stderr: a network failure in plain words, and
// everything made safe for a terminal, since the server's detail text is untrusted.
func errorLine(err error) string {
	if text, ok := client.NetworkProblem(err); ok {
		return sanitize.Line(text)
	}
	return sanitize.Text(err.Error())
}
