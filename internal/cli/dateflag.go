package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parley-tui/parley/internal/when"
)

// dateFlagAnnotation marks a flag registered with dateVar: the tests find every time flag
// of every command by it, and by its type, "date".
const dateFlagAnnotation = "parley-date"

// dateForms is what every time flag's help says it takes.
const dateForms = "a date, ISO 8601, or an age like 7d, 12h"

// dateValue is the text of a time flag. It is read when the command runs, with the command's
// clock, by readDate (so "7d" means seven days before that run's now); Set only keeps it.
type dateValue struct{ s *string }

func (d dateValue) String() string     { return *d.s }
func (d dateValue) Type() string       { return "date" }
func (d dateValue) Set(s string) error { *d.s = s; return nil }

// dateVar registers a time flag. Every time flag of parley goes through it and is read with
// readDate (or, for a from/to pair, readSpan): the same forms everywhere (package when:
// dates, dates and times, ISO 8601, now/today/yesterday, ages such as 30d or 1h30m), the
// same messages, and the same completions.
func dateVar(cmd *cobra.Command, p *string, name, usage string) {
	fs := cmd.Flags()
	fs.Var(dateValue{p}, name, usage+" ("+dateForms+")")
	if err := fs.SetAnnotation(name, dateFlagAnnotation, []string{"true"}); err != nil {
		panic(fmt.Sprintf("date flag --%s: %v", name, err))
	}
	if err := cmd.RegisterFlagCompletionFunc(name, completeDate); err != nil {
		panic(fmt.Sprintf("date flag --%s: %v", name, err))
	}
}

// isDateFlag reports whether f was registered with dateVar.
func isDateFlag(f *pflag.Flag) bool {
	_, ok := f.Annotations[dateFlagAnnotation]
	return ok && f.Value.Type() == "date"
}

// readDate reads the time flag --flag given as s (not empty) at now.
func readDate(flag, s string, now time.Time) (when.Value, error) {
	return when.ParseField("--"+flag, s, now)
}

// readSpan reads a pair of time flags, a period with both ends included: whole days, or
// times to the second when either end has a time of day.
func readSpan(fromFlag, from, toFlag, to string, now time.Time) (when.Span, error) {
	return when.ParseSpan("--"+fromFlag, from, "--"+toFlag, to, now)
}

// dateSuggestions are what a shell offers for a time flag.
var dateSuggestions = []string{
	"today\tmidnight UTC today", "yesterday\tmidnight UTC yesterday", "now\tthis instant",
	"12h\t12 hours ago", "7d\t7 days ago", "30d\t30 days ago", "90d\t90 days ago",
}

// completeDate completes a time flag: the words and a few ages (dates are typed).
func completeDate(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return withPrefix(dateSuggestions, toComplete), cobra.ShellCompDirectiveNoFileComp
}
