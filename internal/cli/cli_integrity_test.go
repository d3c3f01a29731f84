package cli

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
)

// A contacts search whose 200 answer cannot be believed (no body, an HTML page, an envelope
// without results) fails with a plain-words reason on stderr and prints nothing on stdout:
// never `null`, never an empty list, never exit 0.
func TestContactsSearchRefusesABadSuccessAnswer(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	for _, tc := range []struct {
		name, ctype, body, want string
	}{
		{"empty body", "application/json", "", "the API answered 200 with an empty body"},
		{"HTML page", "text/html", "<html><head><title>Portal</title></head></html>", "the API answered 200 with an HTML page instead of JSON (title: Portal)"},
		{"no results", "application/json", `{"count": 0, "next": null, "previous": null}`, "the API answered 200 but the list it returned has no results"},
		{"truncated", "application/json", `{"count": 1, "next": null, "previous": null, "results": [{"id": 3`, "the API answered 200 with a body that is not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.ctype)
				fmt.Fprint(w, tc.body)
			}))
			t.Cleanup(srv.Close)
			env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN=test-token-bad-success")
			for _, args := range [][]string{{"contacts", "search", "zoe"}, {"contacts", "search", "--table", "zoe"}} {
				r := runParley(t, bin, env, "", args...)
				var exit *exec.ExitError
				if !errors.As(r.err, &exit) || exit.ExitCode() != 1 {
					t.Fatalf("%v: exit %v; stdout %q; stderr %q", args, r.err, r.stdout, r.stderr)
				}
				if r.stdout != "" {
					t.Errorf("%v: stdout %q, want nothing", args, r.stdout)
				}
				if !strings.Contains(r.stderr, "parley: search contacts: GET /api/um/v3/contact_identities/: "+tc.want) {
					t.Errorf("%v: stderr %q\nlacks %q", args, r.stderr, tc.want)
				}
				if strings.Contains(r.stderr, "test-token-bad-success") {
					t.Errorf("the token reached stderr")
				}
			}
		})
	}
}
