package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/export"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/sanitize"
)

// newConversationsCmd is `parley conversations export` and the conversation writes
// (write_cmds.go).
func newConversationsCmd(g *globalFlags) *cobra.Command {
	cmd := commandGroup("conversations", "Conversations")
	f := newFilterFlags(client.Conversations)
	var (
		pageSize int
		max      int
		output   string
	)
	exp := &cobra.Command{
		Use:   "export [filters]",
		Short: "Write every matching conversation as one JSON object per line",
		Long: `Walks /conversations/all/ by cursor (no 10,000-result cap) and writes one JSON
object per line to stdout (or with -o to a file, mode 0600, that appears only once the
export is complete), each as the API sent it. Progress goes to stderr when stderr is a
terminal.

Times accept a date (2026-11-01; in a --…-to flag the whole day), a date and time
(2026-11-01 14:30), ISO 8601 with or without fraction and zone (no zone = UTC), now, today,
yesterday, or an age before now: 2w, 7d, 12h, 90m, 1h30m. They must fall in 2000–2100.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter, err := f.filter(time.Now(), func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "parley: "+s) })
			if err != nil {
				return err
			}
			if pageSize < 1 || pageSize > client.MaxLimit {
				return fmt.Errorf("--page-size %d: want 1..%d", pageSize, client.MaxLimit)
			}
			if max < 0 {
				return fmt.Errorf("--max %d: want 0 (all) or more", max)
			}
			o, err := openOutput(cmd, g, output)
			if err != nil {
				return err
			}
			defer o.close()
			out := bufio.NewWriterSize(o.w, 64<<10)
			progress := newProgress(cmd.ErrOrStderr(), "conversations")
			n := 0
			opts := client.AllConversationsOptions{Filter: filter, CursorOptions: client.CursorOptions{Limit: pageSize, Ordering: "id"}}
			// Each conversation goes out as the server sent it (fields parley does not know
			// included), compacted onto one line.
			for raw, err := range o.s.Client.ConversationsAllJSON(o.ctx, opts) {
				if err != nil {
					progress.done(n)
					if o.file != nil {
						return fmt.Errorf("export conversations after %d (%s not written): %w", n, output, err)
					}
					out.Flush()
					return fmt.Errorf("export conversations after %d: %w", n, err)
				}
				if err := export.WriteJSON(out, raw, false); err != nil {
					return fmt.Errorf("conversation %d of the export: %w", n+1, err)
				}
				n++
				progress.update(n)
				if max > 0 && n >= max {
					break
				}
			}
			progress.done(n)
			if err := out.Flush(); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
			return o.commit(fmt.Sprintf("%d conversations", n))
		},
	}
	f.register(exp)
	exp.Flags().IntVar(&pageSize, "page-size", client.MaxLimit, "conversations per request (1..100)")
	exp.Flags().IntVar(&max, "max", 0, "stop after this many conversations (0 = all)")
	exp.Flags().StringVarP(&output, "output", "o", "", "write to this file (mode 0600) instead of stdout")
	noFiles(exp, "page-size", "max")
	cmd.AddCommand(exp, newTranscriptCmd(g))
	addConversationWrites(cmd, g)
	return cmd
}

// metricName is what an analytics metric name looks like.
var metricName = regexp.MustCompile(`^um_[a-z0-9_]{1,60}$`)

// newContactsCmd is `parley contacts search` and the contact writes (write_cmds.go).
func newContactsCmd(g *globalFlags) *cobra.Command {
	cmd := commandGroup("contacts", "Contacts")
	var (
		limit int
		table bool
	)
	f := newFilterFlags(client.Contacts)
	search := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search contacts with the server's search_query, in rank order",
		Long: `Runs the server's search_query on the contacts list. Keywords are combined with
OR, stemmed and matched as prefixes; results come in rank order (name, email, street,
city and country weigh most, then notes). The filters narrow the search (they combine
with AND). Prints a JSON array, or a table with --table.

Times accept a date (2026-11-01; in --active-to the whole day), a date and time
(2026-11-01 14:30), ISO 8601 with or without fraction and zone (no zone = UTC), now, today,
yesterday, or an age before now: 2w, 7d, 12h, 90m, 1h30m. They must fall in 2000–2100.`,
		Example: `  parley contacts search berlin
  parley contacts search anna schmidt --table --limit 5
  parley contacts search berlin --verified --active-from 30d`,
		Args: needArgs(1, -1, "QUERY", "one or more keywords"),
		RunE: func(cmd *cobra.Command, args []string) error {
			query := strings.TrimSpace(strings.Join(args, " "))
			if query == "" {
				return fmt.Errorf("search needs at least one keyword")
			}
			filter, err := f.filter(time.Now(), func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "parley: "+s) })
			if err != nil {
				return err
			}
			if limit < 1 || limit > client.MaxLimit {
				return fmt.Errorf("--limit %d: want 1..%d", limit, client.MaxLimit)
			}
			ctx := cmd.Context()
			s, err := openSession(ctx, g, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer s.Close()
			page, err := s.Client.SearchContactsJSON(ctx, query, filter, limit)
			if err != nil {
				return fmt.Errorf("search contacts: %w", err)
			}
			if table {
				return writeContactTable(cmd.OutOrStdout(), page)
			}
			// The contacts as the API sent them, in its rank order.
			if err := export.WriteJSON(cmd.OutOrStdout(), page.Results, true); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
			return nil
		},
	}
	f.register(search)
	search.Flags().IntVar(&limit, "limit", 20, "how many results (1..100)")
	search.Flags().BoolVar(&table, "table", false, "print a table for humans instead of JSON")
	noFiles(search, "limit")
	search.ValidArgsFunction = cobra.NoFileCompletions
	cmd.AddCommand(search)
	addContactWrites(cmd, g)
	return cmd
}

func writeContactTable(w io.Writer, page *client.Page[json.RawMessage]) error {
	rows := [][]string{{"RANK", "ID", "NAME", "EMAIL", "CITY", "COUNTRY", "VERIFIED"}}
	for i, raw := range page.Results {
		var c client.Contact
		if err := json.Unmarshal(raw, &c); err != nil {
			return fmt.Errorf("contact %d of the answer: %w", i+1, err)
		}
		verified := "no"
		if c.Verified {
			verified = "yes"
		}
		rows = append(rows, []string{strconv.Itoa(i + 1), strconv.FormatInt(c.ID, 10),
			cell(client.Str(c.Name)), cell(client.Str(c.Email)), cell(client.Str(c.City)), cell(client.Str(c.Country)), verified})
	}
	var b strings.Builder
	writeColumns(&b, rows)
	fmt.Fprintf(&b, "\n%d shown of %d matching\n", len(page.Results), page.Count)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}

// writeColumns writes rows of sanitized cells as columns two spaces apart, each as wide as
// its widest cell in terminal cells (wide CJK characters count two, combining marks none).
func writeColumns(b *strings.Builder, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			line.WriteString(layout.Pad(c, widths[i]))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}

// newAnalyticsCmd is `parley analytics export`.
func newAnalyticsCmd(g *globalFlags) *cobra.Command {
	cmd := commandGroup("analytics", "Analytics API data points")
	var (
		from, to, mode, format, output         string
		orgIDs, widgetIDs, operatorIDs, groups string
	)
	exp := &cobra.Command{
		Use:   "export METRIC --from DATE --to DATE",
		Short: "Export one metric's data points as CSV or JSON",
		Long: `Exports the data points of one analytics metric for a period. Both ends are
inclusive, each a date (2026-10-01, UTC), a date and time (2026-10-01 14:30 or ISO 8601),
today, yesterday, now or an age (30d, 6h), in 2000–2100; a time of day at either end makes
the period exact to the second. Periods longer than 93 days are split into several requests
(at most 10 per minute per metric; parley waits rather than fail) and merged in time order.

Metrics: run "parley analytics metrics".`,
		Example: `  parley analytics export um_conversation_duration --from 30d --to today
  parley analytics export um_conversation_first_message --from 2026-10-01 --to 2026-10-31 --format json -o october.json`,
		Args: needArgs(1, 1, "METRIC", "parley analytics metrics lists them"),
		RunE: func(cmd *cobra.Command, args []string) error {
			metric, ok := client.LookupMetric(args[0])
			if !ok {
				// Named only when it looks like a metric: a token pasted in its place by
				// mistake must not be echoed.
				if metricName.MatchString(args[0]) {
					return fmt.Errorf("unknown metric %q (see parley analytics metrics)", args[0])
				}
				return errors.New("the first argument is not a metric name (see parley analytics metrics)")
			}
			f, err := export.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			q := client.AnalyticsQuery{Metric: metric.Metric, OperatorMode: client.OperatorMode(mode)}
			if q.From, q.To, q.WithTime, err = parseRange(from, to, time.Now()); err != nil {
				return err
			}
			for _, l := range []struct {
				flag, val string
				dst       *[]int64
			}{
				{"organization-ids", orgIDs, &q.OrganizationIDs},
				{"widget-ids", widgetIDs, &q.WidgetIDs},
				{"operator-ids", operatorIDs, &q.OperatorIDs},
				{"group-ids", groups, &q.OperatorGroupIDs},
			} {
				if *l.dst, err = parseIDList(l.val); err != nil {
					return fmt.Errorf("--%s: %w", l.flag, err)
				}
			}
			if err := q.Validate(); err != nil {
				return err
			}
			// The file first: a path that cannot be written fails before the requests, which
			// count against the metric's rate limits.
			o, err := openOutput(cmd, g, output)
			if err != nil {
				return err
			}
			defer o.close()
			if n := q.Requests(); n > 1 && isTerminal(cmd.ErrOrStderr()) {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d requests (periods of at most %d days)\n", metric.Metric, n, client.MaxAnalyticsDays)
			}
			pts, err := o.s.Client.Analytics(o.ctx, q)
			if err != nil {
				return err
			}
			if o.file == nil && f == export.CSV && isTerminal(o.w) {
				// CSV has no escapes: on a terminal, value_str (API text) is shown made
				// safe, as everywhere else. A file gets it verbatim.
				pts = slices.Clone(pts)
				for i := range pts {
					if v := pts[i].ValueStr; v != nil {
						safe := sanitize.Line(*v)
						pts[i].ValueStr = &safe
					}
				}
			}
			var buf bytes.Buffer
			if err := export.DataPoints(&buf, f, metric.Metric, pts); err != nil {
				return err
			}
			if _, err := o.w.Write(buf.Bytes()); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
			return o.commit(fmt.Sprintf("%d data points", len(pts)))
		},
	}
	fl := exp.Flags()
	dateVar(exp, &from, "from", "start, inclusive, UTC")
	dateVar(exp, &to, "to", "end, inclusive, UTC")
	fl.StringVar(&orgIDs, "organization-ids", "", "organization ids (comma or space separated)")
	fl.StringVar(&widgetIDs, "widget-ids", "", "widget ids")
	fl.StringVar(&operatorIDs, "operator-ids", "", "operator ids")
	fl.StringVar(&groups, "group-ids", "", "operator group ids")
	fl.StringVar(&mode, "mode", "", "operator mode: human or bot (default all)")
	fl.StringVar(&format, "format", "csv", "csv or json")
	fl.StringVarP(&output, "output", "o", "", "write to this file (mode 0600) instead of stdout")
	completeValues(exp, "mode", modeCompletions()...)
	completeValues(exp, "format", formatCompletions()...)
	noFiles(exp, "organization-ids", "widget-ids", "operator-ids", "group-ids")
	exp.ValidArgsFunction = completeMetric
	requireFlags(exp, "from", "to")

	var metricsJSON bool
	metrics := &cobra.Command{
		Use:   "metrics",
		Short: "List every analytics metric with what it measures",
		Long: `Lists every metric of the Analytics API v1 by group, with what it measures.

With --json: a JSON array, one object per metric in the same order, each with the fields
metric, group, description, value (what the data point's value means), value_str (what its
value_str means), unit ("", count, seconds, percent, rating or id) and categorical (true when
value_str holds a category worth a breakdown). Every field is always present ("" when the
spec says nothing); the names are stable.`,
		Example: `  parley analytics metrics
  parley analytics metrics --json | jq -r '.[] | select(.unit == "seconds") | .metric'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if metricsJSON {
				return writeMetricsJSON(cmd.OutOrStdout())
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for _, grp := range client.MetricGroups {
				fmt.Fprintf(tw, "%s\n", grp)
				for _, m := range client.Metrics {
					if m.Group == grp {
						fmt.Fprintf(tw, "  %s\t%s\n", m.Metric, m.Description)
					}
				}
			}
			return tw.Flush()
		},
	}
	metrics.Flags().BoolVar(&metricsJSON, "json", false, "print a JSON array (fields: metric, group, description, value, value_str, unit, categorical)")
	cmd.AddCommand(exp, metrics)
	return cmd
}

// metricJSON is one metric of `parley analytics metrics --json`. Its field names are a
// contract for scripts (README, Command line): add fields, never rename or drop one.
type metricJSON struct {
	Metric      string `json:"metric"`
	Group       string `json:"group"`
	Description string `json:"description"`
	Value       string `json:"value"`
	ValueStr    string `json:"value_str"`
	Unit        string `json:"unit"`
	Categorical bool   `json:"categorical"`
}

// orderedMetrics is every metric in the order the table lists them: by group.
func orderedMetrics() []client.MetricInfo {
	out := make([]client.MetricInfo, 0, len(client.Metrics))
	for _, grp := range client.MetricGroups {
		for _, m := range client.Metrics {
			if m.Group == grp {
				out = append(out, m)
			}
		}
	}
	return out
}

// writeMetricsJSON writes every metric as a JSON array of metricJSON.
func writeMetricsJSON(w io.Writer) error {
	ms := orderedMetrics()
	out := make([]metricJSON, len(ms))
	for i, m := range ms {
		out[i] = metricJSON{Metric: string(m.Metric), Group: m.Group, Description: m.Description,
			Value: m.Value, ValueStr: m.ValueStr, Unit: string(m.Unit), Categorical: m.Categorical}
	}
	if err := export.WriteJSON(w, out, true); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// parseRange reads --from/--to with readSpan: dates, or times when either end has a time
// of day (a date-only end then includes that whole day).
func parseRange(from, to string, now time.Time) (f, t time.Time, withTime bool, err error) {
	sp, err := readSpan("from", from, "to", to, now)
	if err != nil {
		return time.Time{}, time.Time{}, false, err
	}
	return sp.From, sp.To, sp.WithTime, nil
}

// createOutput opens the export file of -o (nil for none or "-": stdout), checking that it
// can be written before anything is fetched. The file appears under its name, mode 0600,
// only when committed complete; the caller defers Abort, which removes an unfinished one.
func createOutput(path string) (*export.File, error) {
	if path == "" || path == "-" {
		return nil, nil
	}
	f, err := export.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--output: %w", err)
	}
	return f, nil
}

// output is where a command's data goes, stdout or its -o file, with the session it reads
// through: ctx ends on an interrupt while a file is written (exportContext).
type output struct {
	ctx    context.Context
	s      *session
	file   *export.File // nil: stdout
	path   string
	w      io.Writer // the file, or stdout
	stderr io.Writer
	stop   context.CancelFunc
}

// openOutput opens the -o file at path first (a path that cannot be written fails before
// any request), then the session. close undoes both.
func openOutput(cmd *cobra.Command, g *globalFlags, path string) (*output, error) {
	file, err := createOutput(path)
	if err != nil {
		return nil, err
	}
	ctx, stop := exportContext(cmd.Context(), file)
	s, err := openSession(ctx, g, cmd.ErrOrStderr())
	if err != nil {
		stop()
		file.Abort()
		return nil, err
	}
	o := &output{ctx: ctx, s: s, file: file, path: path, w: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(), stop: stop}
	if file != nil {
		o.w = file
	}
	return o, nil
}

// commit puts a complete file in place and says "wrote <what> to <path>" on stderr;
// nothing for stdout.
func (o *output) commit(what string) error {
	if o.file == nil {
		return nil
	}
	if err := o.file.Commit(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	fmt.Fprintf(o.stderr, "wrote %s to %s\n", what, o.path)
	return nil
}

// close ends the session and removes a file not committed.
func (o *output) close() {
	o.s.Close()
	o.stop()
	o.file.Abort()
}

// exportContext is ctx, ended also by an interrupt (Ctrl-C) while an export file is being
// written: the command then returns, and the unfinished file is removed, instead of the
// process dying with its temporary file left behind.
func exportContext(ctx context.Context, file *export.File) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	if file == nil {
		return ctx, func() {}
	}
	return signal.NotifyContext(ctx, os.Interrupt)
}

// parseIDList reads ids separated by commas, white space or "+", as the analytics screen
// reads them (analytics.ParseIDs).
func parseIDList(s string) ([]int64, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '+' || unicode.IsSpace(r) })
	var ids []int64
	for _, f := range fields {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("%q is not an id", f)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// cell keeps API text safe for a terminal table.
func cell(s string) string { return sanitize.Line(s) }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// progress prints a counter on stderr when stderr is a terminal.
type progress struct {
	w     io.Writer
	what  string
	on    bool
	last  time.Time
	shown bool
}

func newProgress(w io.Writer, what string) *progress {
	return &progress{w: w, what: what, on: isTerminal(w)}
}

func (p *progress) update(n int) {
	if !p.on || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.shown = true
	fmt.Fprintf(p.w, "\r%d %s…", n, p.what)
}

func (p *progress) done(n int) {
	if p.on {
		if p.shown {
			fmt.Fprint(p.w, "\r\x1b[K")
		}
		fmt.Fprintf(p.w, "%d %s\n", n, p.what)
	}
}
