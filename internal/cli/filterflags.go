package cli

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/client"
)

// filterFlags are a list's filter parameters as flags, one a parameter that declares one
// (client.Param.Flag, .Usage): ids and yes/no values are checked as they are parsed, the
// rest when the command runs (times with the command's clock).
type filterFlags[F, R any] struct {
	r client.Resource[F, R]
	// texts are the flags' values as given, by parameter.
	texts []string
}

func newFilterFlags[F, R any](r client.Resource[F, R]) *filterFlags[F, R] {
	return &filterFlags[F, R]{r: r, texts: make([]string, len(r.Params))}
}

// paramFlag is the text of an id or yes/no flag, checked by its parameter as it is set.
type paramFlag struct {
	s     *string
	typ   string
	check func(string) error
}

func (v paramFlag) String() string { return *v.s }
func (v paramFlag) Type() string   { return v.typ }
func (v paramFlag) Set(s string) error {
	if err := v.check(s); err != nil {
		return err
	}
	*v.s = s
	return nil
}

// register adds the flags to cmd.
func (ff *filterFlags[F, R]) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	for i, p := range ff.r.Params {
		if p.Flag == "" {
			continue
		}
		v := &ff.texts[i]
		check := func(s string) error {
			var f F
			return p.Parse(&f, s)
		}
		switch p.Kind() {
		case client.KindDate:
			usage := p.Usage
			if p.Upper {
				usage += ", a date meaning the whole day"
			}
			dateVar(cmd, v, p.Flag, usage)
		case client.KindID:
			fs.Var(paramFlag{v, "int", check}, p.Flag, p.Usage)
			setFlagHint(fs, p.Flag, "takes a positive integer id, such as 42")
			noFiles(cmd, p.Flag)
		case client.KindBool:
			fs.Var(paramFlag{v, "bool", check}, p.Flag, p.Usage)
			fs.Lookup(p.Flag).NoOptDefVal = "true"
			completeValues(cmd, p.Flag, choiceCompletions(p.Choices)...)
		case client.KindEnum:
			fs.StringVar(v, p.Flag, "", p.Usage)
			completeValues(cmd, p.Flag, choiceCompletions(p.Choices)...)
		default:
			fs.StringVar(v, p.Flag, "", p.Usage)
			noFiles(cmd, p.Flag)
		}
	}
}

// choiceCompletions are what a shell offers for a flag of choices.
func choiceCompletions(cs []client.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Value
		if c.Help != "" {
			out[i] += "\t" + c.Help
		}
	}
	return out
}

// enumWord is what a value of an enum could look like: a word of letters, digits, _ and -.
var enumWord = regexp.MustCompile(`^[A-Za-z0-9_-]{1,40}$`)

// filter builds the API filter at now; warn receives what is accepted but doubtful. Every
// problem names its flag.
func (ff *filterFlags[F, R]) filter(now time.Time, warn func(string)) (F, error) {
	var out F
	for i, p := range ff.r.Params {
		s := strings.TrimSpace(ff.texts[i])
		if p.Flag == "" || s == "" {
			continue
		}
		switch p.Kind() {
		case client.KindDate:
			v, err := readDate(p.Flag, s, now)
			if err != nil {
				return out, err
			}
			if p.Upper && v.Date {
				// As the API reads a date in an upper bound: the whole day.
				v.Time = v.Time.AddDate(0, 0, 1).Add(-time.Microsecond)
			}
			*p.Date(&out) = v.Time
		case client.KindEnum:
			// The spec lists the values it has seen, not all there are: a known one in
			// another case is corrected, another word is sent with a warning (it may match
			// nothing), anything else is refused.
			c := slices.IndexFunc(p.Choices, func(c client.Choice) bool { return strings.EqualFold(c.Value, s) })
			switch {
			case c >= 0:
				*p.Text(&out) = p.Choices[c].Value
			case enumWord.MatchString(s):
				*p.Text(&out) = s
				warn(fmt.Sprintf("--%s %q is none of the values the API documents (%s); sent as given, it may match nothing",
					p.Flag, s, p.ChoiceWords()))
			default:
				return out, fmt.Errorf("--%s %q: want one such as %s", p.Flag, ff.texts[i], p.ChoiceWords())
			}
		default:
			if err := p.Parse(&out, s); err != nil {
				return out, fmt.Errorf("--%s: %w", p.Flag, err)
			}
		}
	}
	if ff.r.Check != nil {
		if name, err := ff.r.Check(out); err != nil {
			if p, ok := ff.r.Param(name); ok {
				return out, fmt.Errorf("--%s: %w", p.Flag, err)
			}
			return out, err
		}
	}
	return out, nil
}
