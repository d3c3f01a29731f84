package testrun

import (
	"flag"
	"testing"
)

// The default is raised; a second call leaves a value that was set alone only when it was
// given on the command line (flag.Visit sees only flags set by the command line or Set,
// so the second call sees the first call's Set and keeps it).
func TestWaitBoundRaisesTheDefault(t *testing.T) {
	f := flag.Lookup("test.parallel")
	if f == nil {
		t.Fatal("no test.parallel flag in a test binary")
	}
	before := f.Value.String()
	t.Cleanup(func() { _ = flag.Set("test.parallel", before) })
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if err := WaitBound(7); err != nil {
		t.Fatal(err)
	}
	want := "7"
	if given {
		want = before // go test -parallel N: kept
	}
	if got := f.Value.String(); got != want {
		t.Errorf("-parallel is %s, want %s", got, want)
	}
	if err := WaitBound(9); err != nil {
		t.Fatal(err)
	}
	if got := f.Value.String(); got != want {
		t.Errorf("after a second call -parallel is %s, want %s (set once, then kept)", got, want)
	}
}
