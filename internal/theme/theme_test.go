package theme_test

import (
	"image/color"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/parley-tui/parley/internal/theme"
)

func TestParseMode(t *testing.T) {
	for in, want := range map[string]theme.Mode{"": theme.ModeAuto, " Dark ": theme.ModeDark, "light": theme.ModeLight,
		"MONO": theme.ModeMono, "auto": theme.ModeAuto} {
		if got, err := theme.ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := theme.ParseMode("solarized"); err == nil || !strings.Contains(err.Error(), `"solarized"`) ||
		!strings.Contains(err.Error(), "auto, dark, light or mono") {
		t.Errorf("ParseMode(solarized): %v", err)
	}
}

// Every semantic colour of the palette has a light and a dark value, each a colour
// (#rrggbb), and On picks the one for the background.
func TestEveryColourHasALightAndADarkValue(t *testing.T) {
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	p := reflect.ValueOf(theme.Default())
	for i := range p.NumField() {
		c := p.Field(i).Interface().(theme.Color)
		name := p.Type().Field(i).Name
		if !hex.MatchString(c.Light) || !hex.MatchString(c.Dark) {
			t.Errorf("%s: %+v is not two colours", name, c)
		}
		if !sameColour(c.On(true), lipgloss.Color(c.Dark)) || !sameColour(c.On(false), lipgloss.Color(c.Light)) {
			t.Errorf("%s: On picks the wrong value", name)
		}
	}
}

// styles are the lipgloss styles of s by field name.
func styles(s *theme.Styles) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if st, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			out[v.Type().Field(i).Name] = st
		}
	}
	return out
}

func sameColour(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// coloured reports whether st has any colour of its own.
func coloured(st lipgloss.Style) bool {
	for _, c := range []color.Color{st.GetForeground(), st.GetBackground(), st.GetBorderTopForeground(),
		st.GetBorderBottomForeground(), st.GetBorderLeftForeground(), st.GetBorderRightForeground()} {
		if _, none := c.(lipgloss.NoColor); c != nil && !none {
			return true
		}
	}
	return false
}

// The styles take the palette's value for their background: the accent is the dark value
// on a dark background and the light one on a light background.
func TestStylesFollowTheBackground(t *testing.T) {
	p := theme.Default()
	dark, light := theme.New(p, true, false), theme.New(p, false, false)
	if !dark.Dark || light.Dark || dark.Mono {
		t.Fatalf("dark %v, light %v, mono %v", dark.Dark, light.Dark, dark.Mono)
	}
	for _, c := range []struct {
		name        string
		dark, light lipgloss.Style
		want        theme.Color
	}{
		{"Accent", dark.Accent, light.Accent, p.Accent},
		{"Error", dark.Error, light.Error, p.Error},
		{"StatusNew", dark.StatusNew, light.StatusNew, p.StatusNew},
		{"ContactName", dark.ContactName, light.ContactName, p.Contact},
	} {
		if !sameColour(c.dark.GetForeground(), c.want.On(true)) || !sameColour(c.light.GetForeground(), c.want.On(false)) {
			t.Errorf("%s: %v on dark, %v on light; want %+v", c.name, c.dark.GetForeground(), c.light.GetForeground(), c.want)
		}
	}
	if !sameColour(dark.Selected.GetBackground(), p.SelectionBg.On(true)) {
		t.Errorf("the selection's background on dark is %v", dark.Selected.GetBackground())
	}
	if !sameColour(light.PaneFocused.GetBorderTopForeground(), p.BorderFocus.On(false)) {
		t.Errorf("the focused pane's border on light is %v", light.PaneFocused.GetBorderTopForeground())
	}
}

// Mono has no colour anywhere, and what colour tells apart stays apart by attributes and
// borders: the selection (reverse), the row of a blurred pane (underline), the active tab
// (underline) and the focused pane (a thick border against a rounded one).
func TestMonoHasNoColourAndKeepsDifferencesVisible(t *testing.T) {
	s := theme.New(theme.Default(), true, true)
	if !s.Mono {
		t.Fatal("not mono")
	}
	for name, st := range styles(s) {
		if coloured(st) {
			t.Errorf("mono style %s has a colour", name)
		}
	}
	if !s.Selected.GetReverse() || !s.SelectedBlurred.GetUnderline() || !s.TabActive.GetUnderline() {
		t.Error("mono does not mark the selection, the blurred selection or the active tab")
	}
	if s.PaneFocused.GetBorderStyle() == s.PaneBlurred.GetBorderStyle() {
		t.Error("mono draws the focused and the blurred pane with the same border")
	}
	if colour := theme.New(theme.Default(), true, false); !coloured(colour.Accent) || !coloured(colour.Selected) {
		t.Error("the colour styles have no colour")
	}
}

// Plain styles write no escape code at all and keep their layout (padding, borders).
func TestPlainWritesTextOnly(t *testing.T) {
	for _, mono := range []bool{false, true} {
		s := theme.Plain(mono)
		if !s.Plain || s.Mono != mono {
			t.Fatalf("Plain(%v): plain %v, mono %v", mono, s.Plain, s.Mono)
		}
		for name, st := range styles(s) {
			if out := st.Render("x"); strings.Contains(out, "\x1b") {
				t.Errorf("Plain(%v).%s writes %q", mono, name, out)
			}
		}
		if got := s.Tab.Render("1 Chats"); got != " 1 Chats " {
			t.Errorf("Plain(%v): the tab is %q, want its padding kept", mono, got)
		}
		if box := s.Modal.Render("hi"); len(strings.Split(box, "\n")) != 3 || !strings.Contains(box, "hi") {
			t.Errorf("Plain(%v): the modal box lost its border:\n%s", mono, box)
		}
	}
}

// Strip takes every colour and attribute off the styles of a struct, through pointers to
// nested structs, and leaves unexported fields alone.
func TestStripReachesNestedStyles(t *testing.T) {
	type inner struct{ Title lipgloss.Style }
	type outer struct {
		Body   lipgloss.Style
		Nested inner
		Ptr    *inner
		hidden lipgloss.Style
	}
	red := lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000")).Bold(true).Padding(0, 2)
	o := outer{Body: red, Nested: inner{Title: red}, Ptr: &inner{Title: red}, hidden: red}
	theme.Strip(&o)
	for name, st := range map[string]lipgloss.Style{"Body": o.Body, "Nested.Title": o.Nested.Title, "Ptr.Title": o.Ptr.Title} {
		if coloured(st) || st.GetBold() {
			t.Errorf("%s keeps its colour or bold", name)
		}
		if _, r, _, l := st.GetPadding(); r != 2 || l != 2 {
			t.Errorf("%s lost its padding", name)
		}
	}
	if !coloured(o.hidden) {
		t.Error("Strip changed an unexported field")
	}
}
