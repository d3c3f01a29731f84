// Command parley is a terminal UI and command-line client for the Messaging Platform
// JSON API v3 and the Analytics API v1.
package main

import (
	"fmt"
	"os"
)

// version is parley's version; release builds set it with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	root := newRootCmd()
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "parley:", err)
		os.Exit(1)
	}
}
