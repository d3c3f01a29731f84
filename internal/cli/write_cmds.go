package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

// The write commands, each a few lines over runWrites: what it sends for each target and
// how a lost answer is checked, both from package writes.

// writeLong is the part of every write command's help that says how it reports.
const writeLong = `
Prints the resource as the server returned it on stdout: one JSON object, or for several
ids a JSON array of those written, in the order given (one request each). Errors go to
stderr. A write whose answer was lost (the connection broke, no answer in time, an
unreadable answer) is checked by reading the resource again before it is reported.

Exit status: 0 when every write was done; 3 when the outcome of one stays unknown (its
answer was lost and the check could not tell: look before sending it again); else 1.
--dry-run prints the request instead (method, path, headers, JSON body; never the token)
and sends no write. Read-only (--readonly, or readonly: true in the config file) refuses
the command before anything is sent.`

// addConversationWrites adds the conversation actions and topics to cmd (conversations).
func addConversationWrites(cmd *cobra.Command, g *globalFlags) {
	cmd.AddCommand(
		conversationChangeCmd(g, changeSpec{
			use: "take ID...", short: "Assign conversations to the operator you act as",
			long: `Assigns each conversation to the operator you act as (--operator, PARLEY_OPERATOR_ID),
else to the token's own operator (the organization's owner, found with one read of the
operator list): {"operator_assigned_to": <id>}.`,
			example: `  parley conversations take 1234
  parley conversations take 1234 1235 --operator 2006`,
			done: "taken",
			change: func(ctx context.Context, r *writeRun) (func(id int64) writes.Change, error) {
				me, err := ownOperator(ctx, r)
				if err != nil {
					return nil, err
				}
				return func(id int64) writes.Change { return writes.AssignChange(id, me, nil) }, nil
			},
		}),
		assignCmd(g),
		conversationChangeCmd(g, changeSpec{
			use: "unassign ID...", short: "Remove the assigned operator of conversations",
			long:    `Sends {"operator_assigned_to": null} for each conversation.`,
			example: `  parley conversations unassign 1234`,
			done:    "unassigned",
			change: func(context.Context, *writeRun) (func(id int64) writes.Change, error) {
				return func(id int64) writes.Change { return writes.AssignChange(id, 0, nil) }, nil
			},
		}),
		conversationChangeCmd(g, changeSpec{
			use: "end ID...", short: "End conversations",
			long:    `Sends {"status": "ended"} for each conversation: its slot is freed; reopen undoes it.`,
			example: `  parley conversations end 1234 1235`,
			done:    "ended",
			change: func(context.Context, *writeRun) (func(id int64) writes.Change, error) {
				return func(id int64) writes.Change { return writes.StatusChange(id, client.StatusEnded) }, nil
			},
		}),
		conversationChangeCmd(g, changeSpec{
			use: "reopen ID...", short: "Reopen ended conversations",
			long: `Sends {"status": "` + writes.ReopenStatus + `"} for each conversation: an ended conversation was
answered before, so it waits for a reply.`,
			example: `  parley conversations reopen 1234`,
			done:    "reopened",
			change: func(context.Context, *writeRun) (func(id int64) writes.Change, error) {
				return func(id int64) writes.Change { return writes.StatusChange(id, writes.ReopenStatus) }, nil
			},
		}),
		readCmd(g),
		topicsCmd(g),
	)
}

// changeSpec is a conversation action as a command: check refuses flags before anything
// is sent (nil: none to check), and change gives, once the session is open, the change of
// each id.
type changeSpec struct {
	use, short, long, example, done string
	check                           func() error
	change                          func(ctx context.Context, r *writeRun) (func(id int64) writes.Change, error)
}

// conversationChangeCmd is the command of spec: one PATCH per conversation id.
func conversationChangeCmd(g *globalFlags, spec changeSpec) *cobra.Command {
	var wf writeFlags
	cmd := &cobra.Command{
		Use:     spec.use,
		Short:   spec.short,
		Long:    spec.long + "\n" + writeLong,
		Example: spec.example,
		Args:    needArgs(1, -1, "ID", "one or more conversation ids"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ids, err := parseIDs(args, "conversation")
			if err != nil {
				return err
			}
			if spec.check != nil {
				if err := spec.check(); err != nil {
					return err
				}
			}
			return runWrites(cmd, g, wf, func(ctx context.Context, r *writeRun) ([]write, error) {
				mk, err := spec.change(ctx, r)
				if err != nil {
					return nil, err
				}
				ws := make([]write, len(ids))
				for i, id := range ids {
					ws[i] = changeWrite(mk(id), spec.done)
				}
				return ws, nil
			})
		},
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	addWriteFlags(cmd, g, &wf)
	return cmd
}

// changeWrite is the write of ch, checked as the conversations screen checks it.
func changeWrite(ch writes.Change, done string) write {
	return write{what: fmt.Sprintf("conversation %d", ch.ID), done: done,
		send: func(ctx context.Context, c *client.Client) (json.RawMessage, error) {
			return keptAnswer(ctx, func(ctx context.Context) error { _, err := ch.Send(ctx, c); return err })
		},
		check: func(ctx context.Context, c *client.Client, cause error) (json.RawMessage, error) {
			return keptAnswer(ctx, func(ctx context.Context) error { _, err := ch.Check(ctx, c, cause); return err })
		},
		failed: ch.ErrorText}
}

// ownOperator is the operator "take" assigns to: the one acting (--operator), else the
// token's own, the organization's owner (spec, Authentication 4), found in the operator
// list (one read).
func ownOperator(ctx context.Context, r *writeRun) (int64, error) {
	if id := r.client.OperatorID(); id != 0 {
		return id, nil
	}
	if r.sess.Demo && r.sess.OwnerID != 0 {
		return r.sess.OwnerID, nil
	}
	ops, err := r.client.AllOperators(ctx)
	if err != nil {
		return 0, fmt.Errorf("find the operator to assign to (the token's own): %w", err)
	}
	for _, o := range ops {
		if o.Role == client.RoleOwner {
			return o.ID, nil
		}
	}
	return 0, errors.New("find the operator to assign to: the operator list names no owner (the token's own operator); pass --operator")
}

// assignCmd is `conversations assign ID... --assignee OPERATOR`.
func assignCmd(g *globalFlags) *cobra.Command {
	var to int64
	cmd := conversationChangeCmd(g, changeSpec{
		use: "assign ID... --assignee OPERATOR", short: "Assign conversations to an operator",
		long:    `Sends {"operator_assigned_to": OPERATOR} for each conversation.`,
		example: `  parley conversations assign 1234 1235 --assignee 2007`,
		done:    "assigned",
		check: func() error {
			if to <= 0 {
				return errors.New("--assignee: want an operator id (a positive number)")
			}
			return nil
		},
		change: func(context.Context, *writeRun) (func(id int64) writes.Change, error) {
			return func(id int64) writes.Change { return writes.AssignChange(id, to, nil) }, nil
		},
	})
	cmd.Flags().Int64Var(&to, "assignee", 0, "the id of the operator to assign them to (required)")
	requireFlags(cmd, "assignee")
	completeFlag(cmd, "assignee", completeOperatorIDs(g))
	return cmd
}

// readCmd is `conversations read [--unread] ID...`.
func readCmd(g *globalFlags) *cobra.Command {
	var unread bool
	cmd := conversationChangeCmd(g, changeSpec{
		use: "read ID...", short: "Mark conversations read (or unread)",
		long: `Sends {"marked_read_operator": true} for each conversation, or false with --unread.`,
		example: `  parley conversations read 1234
  parley conversations read --unread 1234`,
		done: "marked",
		change: func(context.Context, *writeRun) (func(id int64) writes.Change, error) {
			return func(id int64) writes.Change { return writes.ReadChange(id, !unread) }, nil
		},
	})
	cmd.Flags().BoolVar(&unread, "unread", false, "mark them unread instead")
	return cmd
}

// topicsCmd is `conversations topics ID... --set|--add|--remove|--clear`.
func topicsCmd(g *globalFlags) *cobra.Command {
	var (
		wf               writeFlags
		set, add, remove []string
		clear            bool
	)
	cmd := &cobra.Command{
		Use:   "topics ID... (--set TOPIC,… | --add TOPIC,… | --remove TOPIC,… | --clear)",
		Short: "Set, add or remove the topics of conversations",
		Long: `Sends the conversation's topics as strings (PATCH {"topics": [...]}); a topic the
organization does not have yet is created. Topics match as the API matches them:
case-insensitively on the trimmed text. --set replaces the topics with the ones given and
--clear removes them all (one request each); --add and --remove (together too) read the
conversation first (one more request) and send what it has with the changes, spelled as
the API has them. A conversation that already has what is asked is not written: its read
is printed. A topic is at most 100 characters; commas separate topics in one flag.
` + writeLong,
		Example: `  parley conversations topics 1234 --add Billing
  parley conversations topics 1234 1235 --set "Billing,Refund"
  parley conversations topics 1234 --remove Refund --add Shipping`,
		Args: needArgs(1, -1, "ID", "one or more conversation ids"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ids, err := parseIDs(args, "conversation")
			if err != nil {
				return err
			}
			setGiven := cmd.Flags().Changed("set")
			switch {
			case !setGiven && !clear && !cmd.Flags().Changed("add") && !cmd.Flags().Changed("remove"):
				return usageError(cmd, "missing what to do: --set, --add, --remove or --clear")
			case (setGiven || clear) && (len(add) > 0 || len(remove) > 0), setGiven && clear:
				return errors.New("--set and --clear replace the topics: give them alone (--add and --remove change them)")
			}
			for _, l := range [][]string{set, add, remove} {
				for _, t := range l {
					if err := writes.CheckTopic(t); err != nil {
						return err
					}
				}
			}
			replace := setGiven || clear
			return runWrites(cmd, g, wf, func(_ context.Context, r *writeRun) ([]write, error) {
				ws := make([]write, len(ids))
				for i, id := range ids {
					if replace {
						ws[i] = topicsWrite(r, id, func(context.Context, *client.Client) ([]string, json.RawMessage, error) {
							return writes.MergeTopics(trimmed(set)), nil, nil
						})
						continue
					}
					ws[i] = topicsWrite(r, id, func(ctx context.Context, c *client.Client) ([]string, json.RawMessage, error) {
						var conv *client.Conversation
						raw, err := keptAnswer(client.Fresh(ctx), func(ctx context.Context) (err error) {
							conv, err = c.GetConversation(ctx, id)
							return err
						})
						if err != nil {
							return nil, nil, fmt.Errorf("read its topics: %w", err)
						}
						have := make([]string, len(conv.Topics))
						for i, t := range conv.Topics {
							have[i] = t.Text
						}
						want := changedTopics(have, add, remove)
						if writes.SameTopics(conv.Topics, want) {
							return nil, raw, nil
						}
						return want, nil, nil
					})
				}
				return ws, nil
			})
		},
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&set, "set", nil, "the topics, replacing those it has (comma-separated, repeatable)")
	fl.StringSliceVar(&add, "add", nil, "topics to add (comma-separated, repeatable)")
	fl.StringSliceVar(&remove, "remove", nil, "topics to remove (comma-separated, repeatable)")
	fl.BoolVar(&clear, "clear", false, "remove every topic")
	noFiles(cmd, "set", "add", "remove")
	addWriteFlags(cmd, g, &wf)
	return cmd
}

// topicsWrite sends the topics topics says for conversation id, or, when it gives none and
// the conversation as read, nothing (the conversation already has them; r's stderr says so).
func topicsWrite(r *writeRun, id int64, topics func(ctx context.Context, c *client.Client) ([]string, json.RawMessage, error)) write {
	var sent []string
	what := fmt.Sprintf("conversation %d", id)
	return write{what: what, done: "topics saved",
		send: func(ctx context.Context, c *client.Client) (json.RawMessage, error) {
			want, read, err := topics(ctx, c)
			switch {
			case err != nil:
				return nil, err
			case want == nil:
				fmt.Fprintf(r.stderr, "parley: %s: it has these topics already; nothing was sent\n", what)
				return read, nil
			}
			sent = want
			return keptAnswer(ctx, func(ctx context.Context) error { _, err := c.SetConversationTopics(ctx, id, want); return err })
		},
		check: func(ctx context.Context, c *client.Client, cause error) (json.RawMessage, error) {
			return keptAnswer(ctx, func(ctx context.Context) error { _, err := writes.CheckTopics(ctx, c, id, sent, cause); return err })
		}}
}

// changedTopics is have (as the API spells them) with add (trimmed) and without remove, as
// the API matches topics.
func changedTopics(have, add, remove []string) []string {
	gone := map[string]bool{}
	for _, t := range remove {
		gone[writes.TopicKey(t)] = true
	}
	out := writes.MergeTopics(append(slices.Clone(have), trimmed(add)...))
	return slices.DeleteFunc(out, func(t string) bool { return gone[writes.TopicKey(t)] })
}

// trimmed is ts with the white space around each removed.
func trimmed(ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = strings.TrimSpace(t)
	}
	return out
}

// newNotesCmd is `parley notes add`.
func newNotesCmd(g *globalFlags) *cobra.Command {
	cmd := commandGroup("notes", "Notes about contacts")
	var wf writeFlags
	add := &cobra.Command{
		Use:   "add CONTACT_ID TEXT...",
		Short: "Write a note about a contact",
		Long: `Creates a note about the contact (POST /notes/): the words of TEXT joined by spaces, or
with TEXT "-" what stdin holds. The white space around the text is not sent; an empty note
is refused, and one longer than 5000 characters.

A note whose answer was lost is looked for among the contact's newest notes (one read): a
note with its text, created at or after the moment it was sent by the server's own clock,
is it. Nothing is sent again: after "not saved" run the command again; after "could not
confirm" look at the contact's notes first.
` + writeLong,
		Example: `  parley notes add 1007 Called back, sends the invoice on Monday
  parley notes add 1007 - < call-summary.txt`,
		Args: bothArgs(needArgs(1, -1, "CONTACT_ID and TEXT", `the contact's id, then the note's text or "-" to read it from stdin`),
			needArgs(2, -1, "TEXT", `the note's text, or "-" to read it from stdin`)),
		RunE: func(cmd *cobra.Command, args []string) error {
			ids, err := parseIDs(args[:1], "contact")
			if err != nil {
				return err
			}
			text, err := noteText(args[1:], cmd.InOrStdin())
			if err != nil {
				return err
			}
			contact := ids[0]
			return runWrites(cmd, g, wf, func(context.Context, *writeRun) ([]write, error) {
				k := writes.NoteCheck{ContactID: contact}
				return []write{{what: fmt.Sprintf("note about contact %d", contact), done: "saved",
					send: func(ctx context.Context, c *client.Client) (json.RawMessage, error) {
						k.Sent = append(k.Sent, writes.NoteAttempt{Text: text, At: time.Now()})
						return keptAnswer(ctx, func(ctx context.Context) error {
							_, err := c.CreateNote(ctx, client.NewNote{ContactIdentityID: contact, Body: text})
							return err
						})
					},
					check: func(ctx context.Context, c *client.Client, cause error) (json.RawMessage, error) {
						var n client.Note
						page, err := keptAnswer(ctx, func(ctx context.Context) (err error) {
							n, err = k.Run(ctx, c, cause)
							return err
						})
						if err != nil {
							return nil, err
						}
						if raw, ok := itemByID(page, n.ID); ok {
							return raw, nil
						}
						return json.Marshal(n)
					}}}, nil
			})
		},
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	addWriteFlags(add, g, &wf)
	cmd.AddCommand(add)
	return cmd
}

// noteText is the note of a notes add: the words given, or stdin for "-"; trimmed, not
// empty, at most writes.MaxNoteBody characters.
func noteText(words []string, stdin io.Reader) (string, error) {
	text := strings.Join(words, " ")
	if len(words) == 1 && words[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, 4*writes.MaxNoteBody*utf8.UTFMax))
		if err != nil {
			return "", fmt.Errorf("read the note from stdin: %w", err)
		}
		if !utf8.Valid(b) {
			return "", errors.New("the note on stdin is not UTF-8 text")
		}
		text = string(b)
	}
	text = strings.TrimSpace(text)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return "", errors.New("the note is empty: write something first")
	case n > writes.MaxNoteBody:
		return "", fmt.Errorf("the note has %d characters; at most %d are sent", n, writes.MaxNoteBody)
	}
	return text, nil
}

// itemByID is the object with the id id in a list answer (an envelope with results, or a
// bare array), as the server sent it.
func itemByID(list json.RawMessage, id int64) (json.RawMessage, bool) {
	var env struct {
		Results []json.RawMessage `json:"results"`
	}
	var items []json.RawMessage
	if err := json.Unmarshal(list, &env); err == nil && env.Results != nil {
		items = env.Results
	} else if err := json.Unmarshal(list, &items); err != nil {
		return nil, false
	}
	for _, raw := range items {
		var x struct {
			ID int64 `json:"id"`
		}
		if json.Unmarshal(raw, &x) == nil && x.ID == id {
			return raw, true
		}
	}
	return nil, false
}

// newOperatorsCmd is `parley operators away`.
func newOperatorsCmd(g *globalFlags) *cobra.Command {
	cmd := commandGroup("operators", "Operators")
	var (
		wf      writeFlags
		on, off bool
	)
	away := &cobra.Command{
		Use:   "away (--on | --off) ID...",
		Short: "Set operators away or available",
		Long: `Sets each operator away (--on) or available (--off) through /operators/{id}/away/
({"is_away": true|false}). An answer that states the other status is an error; one that
does not state it is taken as done. An agent may set only itself.
` + writeLong,
		Example: `  parley operators away --on 2007
  parley operators away --off 2006 2007 2008`,
		Args: needArgs(1, -1, "ID", "one or more operator ids"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ids, err := parseIDs(args, "operator")
			if err != nil {
				return err
			}
			if on == off {
				return usageError(cmd, "say which: --on (away) or --off (available)")
			}
			word := writes.AwayWord(on)
			return runWrites(cmd, g, wf, func(context.Context, *writeRun) ([]write, error) {
				ws := make([]write, len(ids))
				for i, id := range ids {
					label := fmt.Sprintf("operator #%d", id)
					ws[i] = write{what: fmt.Sprintf("operator %d", id), done: "set " + word,
						send: func(ctx context.Context, c *client.Client) (json.RawMessage, error) {
							return keptAnswer(ctx, func(ctx context.Context) error { _, err := writes.SetAway(ctx, c, id, on); return err })
						},
						check: func(ctx context.Context, c *client.Client, cause error) (json.RawMessage, error) {
							return keptAnswer(ctx, func(ctx context.Context) error {
								_, err := writes.CheckAway(ctx, c, id, on, cause, label)
								return err
							})
						}}
				}
				return ws, nil
			})
		},
		ValidArgsFunction: completeOperatorIDs(g),
	}
	away.Flags().BoolVar(&on, "on", false, "set them away")
	away.Flags().BoolVar(&off, "off", false, "set them available")
	addWriteFlags(away, g, &wf)
	cmd.AddCommand(away)
	return cmd
}

// contactFlags are the contact fields as flags of contacts update and upsert: one per
// writes.ContactTexts and writes.ContactFlags entry, named by the API's field with "-"
// for "_" (--phone-number, --contact-by-email).
type contactFlags struct {
	texts map[string]*string
	flags map[string]*bool
}

// flagName is the flag of an API field.
func flagName(field string) string { return strings.ReplaceAll(field, "_", "-") }

func (f *contactFlags) register(cmd *cobra.Command) {
	f.texts, f.flags = map[string]*string{}, map[string]*bool{}
	for _, t := range writes.ContactTexts {
		f.texts[t.Name] = cmd.Flags().String(flagName(t.Name), "", strings.ToLower(t.Label[:1])+t.Label[1:])
		noFiles(cmd, flagName(t.Name))
	}
	for _, b := range writes.ContactFlags {
		f.flags[b.Name] = cmd.Flags().Bool(flagName(b.Name), false, "may be contacted by "+b.Label+" (=false: may not)")
	}
}

// update is the body of the flags given: a text checked (an empty one clears the field,
// sent as null, when clear allows it), a flag as given.
func (f *contactFlags) update(cmd *cobra.Command, clear bool) (client.ContactUpdate, error) {
	var u client.ContactUpdate
	for _, t := range writes.ContactTexts {
		name := flagName(t.Name)
		if !cmd.Flags().Changed(name) {
			continue
		}
		v := *f.texts[t.Name]
		if strings.TrimSpace(v) == "" && !clear {
			return u, fmt.Errorf("--%s: empty; an upsert sends values only (contacts update clears a field)", name)
		}
		if t.Check != nil {
			if err := t.Check(v); err != nil {
				return u, fmt.Errorf("--%s: %w", name, err)
			}
		}
		if err := t.Set(&u, v); err != nil {
			return u, fmt.Errorf("--%s: %w", name, err)
		}
	}
	for _, b := range writes.ContactFlags {
		if cmd.Flags().Changed(flagName(b.Name)) {
			v := *f.flags[b.Name]
			*b.Dst(&u) = &v
		}
	}
	return u, nil
}

// addContactWrites adds contacts update and upsert to cmd (contacts).
func addContactWrites(cmd *cobra.Command, g *globalFlags) {
	var (
		uf, pf     writeFlags
		uc, pc     contactFlags
		identifier string
	)
	update := &cobra.Command{
		Use:   "update ID --FIELD VALUE...",
		Short: "Change fields of a contact",
		Long: `Sends the fields given, and only those, as a PATCH of the contact. An empty value clears a
field (sent as null; a contact always keeps a locale). Values are checked before sending as
the edit form checks them: an email address, a two-letter country, a locale of the form
ll_CC, http(s) web addresses. A contact-by flag takes =false to forbid.
` + writeLong,
		Example: `  parley contacts update 1007 --email anna@example.com --city Berlin
  parley contacts update 1007 --company "" --contact-by-phone=false`,
		Args: needArgs(1, 1, "ID", "the contact's id"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ids, err := parseIDs(args, "contact")
			if err != nil {
				return err
			}
			u, err := uc.update(cmd, true)
			if err != nil {
				return err
			}
			if len(u.Fields()) == 0 {
				return usageError(cmd, "nothing to change: give at least one field")
			}
			id := ids[0]
			return runWrites(cmd, g, uf, func(context.Context, *writeRun) ([]write, error) {
				return []write{{what: fmt.Sprintf("contact %d", id), done: "saved",
					send: func(ctx context.Context, c *client.Client) (json.RawMessage, error) {
						return keptAnswer(ctx, func(ctx context.Context) error { _, err := c.UpdateContact(ctx, id, u); return err })
					},
					check: func(ctx context.Context, c *client.Client, cause error) (json.RawMessage, error) {
						return keptAnswer(ctx, func(ctx context.Context) error { _, err := writes.CheckContact(ctx, c, id, u, cause); return err })
					}}}, nil
			})
		},
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	uc.register(update)
	addWriteFlags(update, g, &uf)

	upsert := &cobra.Command{
		Use:   "upsert --identifier FIELD --FIELD VALUE...",
		Short: "Create a contact, or update the one with the same identifier",
		Long: `Sends PUT /contact_identities/?identifier=FIELD with the fields given: the contact whose
FIELD (email, external_customer_id, mobile_number or phone_number; email unless said) has
the value given is updated, or a new contact is created. The identifier's value is
required; values are checked as contacts update checks them, and an upsert sends values
only (contacts update clears fields). A created contact is said on stderr.

An upsert whose answer was lost is not read back (as in the TUI): it exits 3, and sending
it again is safe (it finds and updates the same contact instead of creating another).
` + writeLong,
		Example: `  parley contacts upsert --email anna@example.com --name "Anna Weber" --city Berlin
  parley contacts upsert --identifier external_customer_id --external-customer-id C-1001 --company Acme`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(client.Identifiers, identifier) {
				return fmt.Errorf("--identifier: want one of %s", strings.Join(client.Identifiers, ", "))
			}
			if !cmd.Flags().Changed(flagName(identifier)) {
				return usageError(cmd, fmt.Sprintf("missing --%s: the identifier's value finds the contact", flagName(identifier)))
			}
			u, err := pc.update(cmd, false)
			if err != nil {
				return err
			}
			return runWrites(cmd, g, pf, func(context.Context, *writeRun) ([]write, error) {
				return []write{{what: "contact", done: "saved",
					send: func(ctx context.Context, c *client.Client) (json.RawMessage, error) {
						var ct *client.Contact
						var created bool
						raw, err := keptAnswer(ctx, func(ctx context.Context) (err error) {
							ct, created, err = c.UpsertContact(ctx, identifier, u)
							return err
						})
						if err == nil && created {
							fmt.Fprintf(cmd.ErrOrStderr(), "parley: created contact %d\n", ct.ID)
						}
						return raw, err
					}}}, nil
			})
		},
	}
	upsert.Flags().StringVar(&identifier, "identifier", client.IdentifierEmail, "the field that finds the contact: "+strings.Join(client.Identifiers, ", "))
	completeValues(upsert, "identifier", identifierCompletions()...)
	pc.register(upsert)
	addWriteFlags(upsert, g, &pf)
	cmd.AddCommand(update, upsert)
}

// completionWait bounds what a completion that asks the API waits (a shell waits for it).
const completionWait = 3 * time.Second

// completeOperatorIDs completes an operator id with the organization's operators, each
// with its name, role and away status: one read of the operator list (an operators
// request of the day's budget, asked once, not retried) within completionWait, else
// nothing.
func completeOperatorIDs(g *globalFlags) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		ctx, cancel := context.WithTimeout(cmd.Context(), completionWait)
		defer cancel()
		s, err := resolveSettings(ctx, g, os.Getenv)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		sess, err := openSessionWith(ctx, g, s, io.Discard)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer sess.Close()
		ops, err := sess.Client.AllOperators(client.Poll(ctx))
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]string, 0, len(ops))
		for _, o := range ops {
			out = append(out, fmt.Sprintf("%d\t%s", o.ID, operatorLine(o)))
		}
		return withPrefix(out, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}
