// Command parley is a terminal UI and command-line client for the Messaging Platform
// JSON API v3 and the Analytics API v1. Its commands live in package cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/parley-tui/parley/internal/cli"
)

// version is parley's version; release builds set it with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	proc := cli.NewProcess(version, os.Stderr, os.Exit)
	defer proc.Recover("main")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if code := cli.Execute(ctx, proc, version); code != 0 {
		os.Exit(code)
	}
}
