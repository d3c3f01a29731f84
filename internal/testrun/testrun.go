// Package testrun is for the TestMain of a package whose tests wait more than they
// compute (on SSH sessions, child processes, sockets): nothing but tests imports it.
package testrun

import (
	"flag"
	"fmt"
)

// WaitBound sets how many of the package's parallel tests run at once to n, where `go
// test` would run as many as the machine has cores: tests that mostly wait keep a 2-core
// machine half idle two at a time. A -parallel given on the command line is kept. Call it
// in TestMain before m.Run.
func WaitBound(n int) error {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if given || flag.Lookup("test.parallel") == nil {
		return nil
	}
	if err := flag.Set("test.parallel", fmt.Sprint(n)); err != nil {
		return fmt.Errorf("testrun: set -parallel %d: %w", n, err)
	}
	return nil
}
