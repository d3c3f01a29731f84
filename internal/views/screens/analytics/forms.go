package analytics

import (
	"bufio"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/export"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/when"
)

// customForm asks for a custom range: from and to, each a date or a date and time (UTC).
func customForm(ctx *common.Ctx, cur Period) common.Modal {
	from, to := FormatWhen(cur.From, cur.WithTime), FormatWhen(cur.To, cur.WithTime)
	now := ctx.Now
	valid := func(title string) func(string) error {
		return func(s string) error {
			if strings.TrimSpace(s) == "" {
				return fmt.Errorf("%s: required", title)
			}
			_, err := when.ParseField(title, s, now())
			return err
		}
	}
	build := func() *huh.Form {
		return huh.NewForm(huh.NewGroup(
			huh.NewInput().Title(fromTitle).Value(&from).Validate(valid(fromTitle)).
				Placeholder("2026-10-01, 2026-10-01 08:00, 30d, yesterday"),
			huh.NewInput().Title(toTitle).Value(&to).Validate(valid(toTitle)).
				Placeholder("2026-10-31, 2026-10-31 18:00, today"),
			huh.NewNote().Description(fmt.Sprintf("Dates cover whole days; a time of day makes the range exact to the second. "+
				"Each request covers at most %d days: longer ranges cost more requests.", client.MaxAnalyticsDays)),
		))
	}
	return forms.New(ctx, forms.Options{
		Title: "Custom date range",
		Build: build,
		Width: 64,
		Submit: func() (int, tea.Cmd, error) {
			p, err := ParseCustom(from, to, now())
			if err == nil {
				err = FutureRange(p, now())
			}
			if err != nil {
				return 0, nil, err
			}
			return 0, func() tea.Msg { return rangePickedMsg{r: Range{Preset: PresetCustom, Custom: p}} }, nil
		},
	})
}

// filterForm edits the id filters (several ids each, combined with OR) and the operator mode.
// The operators to pick from are the directory's and those of other organizations named
// from the results (more, the names of the operators of other organizations).
func filterForm(ctx *common.Ctx, f Filters, mode client.OperatorMode, more map[int64]string) common.Modal {
	type known struct {
		id   int64
		name string
	}
	names := maps.Clone(more)
	if names == nil {
		names = map[int64]string{}
	}
	maps.Copy(names, ctx.Operators)
	var ops []known
	for id, name := range names {
		ops = append(ops, known{id, name})
	}
	slices.SortFunc(ops, func(a, b known) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.id, b.id)) })
	var picked []int64
	var other []int64
	for _, id := range f.Operators {
		if names[id] != "" {
			picked = append(picked, id)
		} else {
			other = append(other, id)
		}
	}
	orgs, widgets, others, groups := FormatIDs(f.Orgs), FormatIDs(f.Widgets), FormatIDs(other), FormatIDs(f.Groups)
	modeVal := string(mode)
	valid := func(s string) error { _, err := ParseIDs(s); return err }
	ids := func(title string, dst *string) *huh.Input {
		return huh.NewInput().Title(title).Value(dst).Validate(valid).Placeholder("all (or ids separated by spaces)")
	}
	build := func() *huh.Form {
		first := []huh.Field{
			// Options before the value and no height, so that every option stays in view.
			huh.NewSelect[string]().Title("Operator mode (operator_mode)").Options(
				huh.NewOption("all operators", ""),
				huh.NewOption("human operators only", string(client.OperatorModeHuman)),
				huh.NewOption("bots only", string(client.OperatorModeBot))).Value(&modeVal),
		}
		if len(ops) > 0 {
			opts := make([]huh.Option[int64], len(ops))
			for i, o := range ops {
				opts[i] = huh.NewOption(fmt.Sprintf("%s (#%d)", o.name, o.id), o.id)
			}
			first = append(first, huh.NewMultiSelect[int64]().Title("Operators ("+ctx.Keys.Mark.Help().Key+" marks; none = all)").
				Options(opts...).Value(&picked).Height(8).Filterable(true))
		}
		first = append(first, ids("Other operator ids", &others))
		return huh.NewForm(
			huh.NewGroup(first...).Title("Who"),
			huh.NewGroup(
				ids("Organization ids", &orgs),
				ids("Widget ids", &widgets),
				ids("Operator group ids", &groups),
			).Title("Where"),
		)
	}
	return forms.New(ctx, forms.Options{
		Title:     "Analytics filters",
		Build:     build,
		Width:     68,
		Cancelled: func() tea.Msg { return menuClosedMsg{} },
		Submit: func() (int, tea.Cmd, error) {
			var out Filters
			var err error
			for _, x := range []struct {
				name string
				s    string
				dst  *[]int64
			}{{"organization ids", orgs, &out.Orgs}, {"widget ids", widgets, &out.Widgets},
				{"other operator ids", others, &out.Operators}, {"operator group ids", groups, &out.Groups}} {
				if *x.dst, err = ParseIDs(x.s); err != nil {
					return 0, nil, fmt.Errorf("%s: %w", x.name, err)
				}
			}
			out.Operators = append(slices.Clone(picked), out.Operators...)
			slices.Sort(out.Operators)
			out.Operators = slices.Compact(out.Operators)
			m := client.OperatorMode(modeVal)
			return 0, func() tea.Msg { return filtersMsg{f: out, mode: m} }, nil
		},
	})
}

// KindExport is the TaskDoneMsg kind of an export.
const KindExport = common.KindAnalyticsExport

// ExportResult is the Result of a successful export.
type ExportResult struct {
	Path   string // absolute when it could be made so
	Points int
}

// ExportName is the file name an export gets when none is typed.
func ExportName(metric client.Metric, p Period, f export.Format) string {
	layout := "2006-01-02"
	if p.WithTime {
		layout = "2006-01-02T150405"
	}
	return fmt.Sprintf("parley-%s-%s_%s.%s", metric, p.From.UTC().Format(layout), p.To.UTC().Format(layout), f)
}

// exportForm asks for the format and the file; the write happens in a command.
func exportForm(ctx *common.Ctx, q client.AnalyticsQuery, p Period, pts []client.DataPoint) common.Modal {
	format := string(export.CSV)
	path := ""
	build := func() *huh.Form {
		return huh.NewForm(huh.NewGroup(
			huh.NewSelect[string]().Title("Format").Options(
				huh.NewOption("CSV", string(export.CSV)), huh.NewOption("JSON", string(export.JSON))).Value(&format),
			huh.NewInput().Title("File").Value(&path).
				Placeholder("empty: "+ExportName(q.Metric, p, export.CSV)+" here").
				Description("The same format as `parley analytics export`. A typed file is overwritten."),
		))
	}
	return forms.New(ctx, forms.Options{
		Title: fmt.Sprintf("Export %s data points of %s", layout.Count(len(pts)), q.Metric),
		Build: build,
		Width: 76,
		Submit: func() (int, tea.Cmd, error) {
			f, err := export.ParseFormat(format)
			if err != nil {
				return 0, nil, err
			}
			id := ctx.NewID()
			out, metric := forms.FileTarget(path, ExportName(q.Metric, p, f)), q.Metric
			return id, func() tea.Msg {
				written, err := WriteExport(out, f, metric, pts)
				if err != nil {
					return common.TaskDoneMsg{TaskID: id, Kind: KindExport, Err: err}
				}
				return common.TaskDoneMsg{TaskID: id, Kind: KindExport, Result: ExportResult{Path: forms.Written(written), Points: len(pts)}}
			}, nil
		},
	})
}

// WriteExport writes pts to out in format f, mode 0600 (see export.File: the file appears
// only complete, and a failed export leaves what was there; forms.OutFile: a name of
// parley's own never replaces a file). It returns the path written.
func WriteExport(out forms.OutFile, f export.Format, metric client.Metric, pts []client.DataPoint) (string, error) {
	file, err := out.Create()
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	defer file.Abort()
	target := file.Name()
	w := bufio.NewWriter(file)
	if err := export.DataPoints(w, f, metric, pts); err != nil {
		return "", err
	}
	if err := w.Flush(); err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	if err := file.Commit(); err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	return target, nil
}
