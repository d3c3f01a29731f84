package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/export"
	"github.com/parley-tui/parley/internal/writes"
)

// The write commands (notes add, conversations topics|take|assign|unassign|end|reopen|read,
// operators away, contacts update|upsert) share one run, runWrites, which does for each
// what the TUI does for a key or a form:
//
//   - read-only (--readonly, or readonly: true in the config file) refuses the command
//     before anything is sent;
//   - each target (a conversation, an operator, a contact) gets one request of its own, in
//     the order given; the answer is believed only as the TUI believes it (package writes);
//   - a write whose answer was lost is checked with a fresh read before it is reported, by
//     the TUI's own checks (package writes): confirmed, not done, or not confirmed;
//   - stdout gets, through export.WriteJSON, the resource as the server returned it (the write's answer, or the read
//     that confirmed it): one JSON object for one target, an array of those written for
//     several; errors go to stderr in the TUI's words ("You lack permission: …");
//   - --dry-run prints the requests instead (method, path, context headers and JSON body;
//     never the token) and sends no write; reads a request needs (take's own operator, the
//     topics --add and --remove change) are made.
//
// The exit status is 0 when every write was done, exitUnknown when the outcome of any stays
// unknown (its answer was lost and the check could not tell: look before sending it again),
// else 1.

// exitUnknown is the exit status of a write command when a write's outcome stays unknown.
const exitUnknown = 3

// exitError ends a command with its own exit status; its text is already safe for a
// terminal.
type exitError struct {
	code int
	text string
}

func (e *exitError) Error() string { return e.text }

// writeFlags are the flags every write command has.
type writeFlags struct {
	dryRun bool
}

// addWriteFlags gives cmd the write commands' flags: --dry-run and --readonly.
func addWriteFlags(cmd *cobra.Command, g *globalFlags, wf *writeFlags) {
	cmd.Flags().BoolVar(&wf.dryRun, "dry-run", false, "print the request as JSON (method, path, headers, body; never the token) and send no write")
	readOnlyFlag(cmd, g, "refuse the write, sending nothing (config readonly)")
}

// write is one write of a command, to one target.
type write struct {
	// what names the target in messages: "conversation 12".
	what string
	// done says what a success did, for one confirmed after a lost answer: "taken".
	done string
	// send makes the write and returns the server's answer as it sent it.
	send func(ctx context.Context, c *client.Client) (json.RawMessage, error)
	// check settles a send whose answer was lost (cause) by reading again: the resource
	// read when it shows the change, else a *writes.NotDoneError or *writes.UncheckedError.
	// nil: the write is not read back (its error then says that it may have been made).
	check func(ctx context.Context, c *client.Client, cause error) (json.RawMessage, error)
	// failed words an error of the write (nil: writes.ErrorText).
	failed func(err error) string
}

// keptAnswer runs do with a context that keeps the answer and returns it (nil after an
// error).
func keptAnswer(ctx context.Context, do func(ctx context.Context) error) (json.RawMessage, error) {
	ctx, a := client.KeepAnswer(ctx)
	if err := do(ctx); err != nil {
		return nil, err
	}
	return a.JSON(), nil
}

// writeRun is what a write command's plan sees: its session and the client to write
// with (a dry run's describes its writes).
type writeRun struct {
	sess   *session
	client *client.Client
	stderr io.Writer
}

// runWrites runs a write command: plan lists its writes (it may read, e.g. to learn who
// "take" assigns to), then each is sent, checked after a lost answer, and reported.
func runWrites(cmd *cobra.Command, g *globalFlags, wf writeFlags, plan func(ctx context.Context, r *writeRun) ([]write, error)) error {
	ctx := cmd.Context()
	s, err := resolveSettings(ctx, g, os.Getenv)
	if err != nil {
		return err
	}
	if s.ReadOnly {
		return fmt.Errorf("%s: %s; nothing was sent", strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "), readOnlyReason)
	}
	sess, err := openSessionWith(ctx, g, s, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer sess.Close()
	r := &writeRun{sess: sess, client: sess.Client, stderr: cmd.ErrOrStderr()}
	described := []client.DryRequest{}
	if wf.dryRun {
		r.client = r.client.WithDryRun(func(d client.DryRequest) { described = append(described, d) })
	}
	ws, err := plan(ctx, r)
	if err != nil {
		return err
	}
	results := []json.RawMessage{}
	var (
		failed, unsure int
		last           string
	)
	for _, w := range ws {
		raw, err := w.send(ctx, r.client)
		if wf.dryRun && errors.Is(err, client.ErrDryRun) {
			continue
		}
		if writes.OutcomeUnknown(err) && w.check != nil {
			cause := err
			if raw, err = w.check(client.Fresh(ctx), r.client, cause); err == nil {
				fmt.Fprintf(r.stderr, "parley: %s: %s%s\n", w.what, w.done, writes.Confirmed(cause))
			}
		}
		if err == nil {
			results = append(results, raw)
			continue
		}
		var unchecked *writes.UncheckedError
		if errors.As(err, &unchecked) || writes.OutcomeUnknown(err) {
			unsure++
		} else {
			failed++
		}
		text := writes.ErrorText(err)
		if w.failed != nil {
			text = w.failed(err)
		}
		last = w.what + ": " + text
		if len(ws) > 1 {
			fmt.Fprintln(r.stderr, "parley: "+last)
		}
	}
	var result any
	switch {
	case wf.dryRun && len(ws) == 1 && len(described) == 1:
		result = described[0]
	case wf.dryRun:
		result = described
	case len(ws) == 1 && len(results) == 1:
		result = results[0]
	case len(ws) > 1:
		result = results
	}
	if result != nil {
		if err := export.WriteJSON(cmd.OutOrStdout(), result, true); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
	}
	if failed+unsure == 0 {
		return nil
	}
	code := 1
	if unsure > 0 {
		code = exitUnknown
	}
	if len(ws) == 1 {
		return &exitError{code: code, text: last}
	}
	text := fmt.Sprintf("%d of %d writes failed", failed, len(ws))
	switch {
	case failed == 0:
		text = fmt.Sprintf("%d of %d writes not confirmed: look before sending them again", unsure, len(ws))
	case unsure > 0:
		text += fmt.Sprintf(", %d not confirmed: look before sending them again", unsure)
	}
	return &exitError{code: code, text: text}
}

// parseIDs reads the id arguments of a write command (what names them: "conversation"),
// each a positive number, each once in the order given. A bad one is named by its place,
// never repeated (it may be a token pasted by mistake).
func parseIDs(args []string, what string) ([]int64, error) {
	var ids []int64
	seen := map[int64]bool{}
	for i, a := range args {
		id, err := strconv.ParseInt(a, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("argument %d is not a %s id (a positive number)", i+1, what)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}
