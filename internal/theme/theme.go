// Package theme holds parley's colours and every lipgloss style, in two layers: Theme has
// semantic colours (a light and a dark value each), Styles is built from a Theme for one
// background (dark or light). Mono drops every colour and keeps only bold, faint,
// underline and reverse, so nothing depends on colour alone. Styles always write full
// colour: the program's renderer brings it down to what its terminal shows (its colour
// profile), and writes none at all under NO_COLOR.
package theme

import (
	"fmt"
	"image/color"
	"reflect"
	"strings"

	"charm.land/lipgloss/v2"
)

// Mode selects how colours are chosen.
type Mode string

// Modes (config key `theme`).
const (
	ModeAuto  Mode = "auto"  // follow the terminal's background
	ModeDark  Mode = "dark"  // dark background colours
	ModeLight Mode = "light" // light background colours
	ModeMono  Mode = "mono"  // no colours at all
)

// ParseMode reads a mode name; "" means auto.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeDark, ModeLight, ModeMono:
		return m, nil
	}
	return "", fmt.Errorf("theme %q: want auto, dark, light or mono", s)
}

// Color is one semantic colour: its value on a light and on a dark background.
type Color struct{ Light, Dark string }

// On is the colour's value on a dark or a light background.
func (c Color) On(dark bool) color.Color {
	if dark {
		return lipgloss.Color(c.Dark)
	}
	return lipgloss.Color(c.Light)
}

// Theme is the palette: semantic names, each with a light and a dark value.
type Theme struct {
	Text, Muted, Subtle      Color
	Accent, AccentText       Color
	Border, BorderFocus      Color
	SelectionBg, SelectionFg Color
	SelectionBlurBg          Color
	StatusNew, StatusPending Color
	StatusEnded              Color
	Operator, Contact, Bot   Color
	Unread, Marked           Color
	Warning, Error, Success  Color
	BarBg, BarFg             Color
	Chart1, Chart2           Color
}

// Default is parley's palette.
func Default() Theme {
	c := func(light, dark string) Color { return Color{Light: light, Dark: dark} }
	return Theme{
		Text:            c("#1f2328", "#e6edf3"),
		Muted:           c("#59636e", "#9198a1"),
		Subtle:          c("#818b98", "#656c76"),
		Accent:          c("#0969da", "#4493f8"),
		AccentText:      c("#ffffff", "#0d1117"),
		Border:          c("#d1d9e0", "#3d444d"),
		BorderFocus:     c("#0969da", "#4493f8"),
		SelectionBg:     c("#ddf4ff", "#1f3a5f"),
		SelectionFg:     c("#1f2328", "#f0f6fc"),
		SelectionBlurBg: c("#eaeef2", "#262c36"),
		StatusNew:       c("#1a7f37", "#3fb950"),
		StatusPending:   c("#9a6700", "#d29922"),
		StatusEnded:     c("#59636e", "#9198a1"),
		Operator:        c("#8250df", "#ab7df8"),
		Contact:         c("#0969da", "#4493f8"),
		Bot:             c("#bf3989", "#db61a2"),
		Unread:          c("#cf222e", "#f85149"),
		Marked:          c("#bc4c00", "#f0883e"),
		Warning:         c("#9a6700", "#d29922"),
		Error:           c("#cf222e", "#f85149"),
		Success:         c("#1a7f37", "#3fb950"),
		BarBg:           c("#eaeef2", "#161b22"),
		BarFg:           c("#1f2328", "#c9d1d9"),
		Chart1:          c("#0969da", "#4493f8"),
		Chart2:          c("#bf3989", "#db61a2"),
	}
}

// Styles are every style parley draws with. Build them with New; never mutate after.
type Styles struct {
	Mono bool
	// Plain styles write no escape codes at all (Plain): text as a terminal without
	// colour and attributes shows it, for tests that read what is drawn.
	Plain bool
	// Dark is the background the colours were picked for.
	Dark bool
	// Palette is the theme the styles came from (charts colour their own runes with it).
	Palette Theme

	Base, Muted, Subtle, Bold, Accent lipgloss.Style
	Warning, Error, Success           lipgloss.Style

	// Panes.
	PaneFocused, PaneBlurred           lipgloss.Style // lipgloss borders (modals, boxes)
	BorderFocused, BorderBlurred       lipgloss.Style // hand-drawn pane frames
	PaneTitleFocused, PaneTitleBlurred lipgloss.Style

	// Tab bar and status bar.
	Tab, TabActive             lipgloss.Style
	StatusBar, StatusKey       lipgloss.Style
	StatusWarn, StatusErr      lipgloss.Style
	Toast, ToastError          lipgloss.Style
	HeaderLine, HeaderLabel    lipgloss.Style
	Selected, SelectedBlurred  lipgloss.Style
	Match                      lipgloss.Style // a picker's matched characters, over the row's style
	Marked                     lipgloss.Style
	Unread                     lipgloss.Style
	StatusNew, StatusPending   lipgloss.Style
	StatusEnded, StatusUnknown lipgloss.Style
	Topic                      lipgloss.Style

	// Cursor marks the row under a list's cursor with a bar at its left edge (the list's
	// cursor cell), bright while the list has the focus and dim (CursorBlurred) when not;
	// CursorMark draws a marked row's mark there, reversed.
	Cursor, CursorBlurred         lipgloss.Style
	CursorMark, CursorMarkBlurred lipgloss.Style

	// Messages.
	OperatorName, ContactName, BotName lipgloss.Style
	MessageMeta, MessageBody, Divider  lipgloss.Style
	Loading                            lipgloss.Style
	// Link is the name of a link (a message's attachment, an add-on link).
	Link lipgloss.Style

	// Detail and forms.
	Label, Value, Section lipgloss.Style

	// Modals and help.
	Modal, ModalTitle, HelpKey, HelpDesc, HelpSection lipgloss.Style
}

// New builds the styles of t for a dark or a light background. With mono, no style has a
// colour.
func New(t Theme, dark, mono bool) *Styles {
	ns := lipgloss.NewStyle
	fg := func(c Color) lipgloss.Style {
		if mono {
			return ns()
		}
		return ns().Foreground(c.On(dark))
	}
	// on picks a colour's value for the background.
	on := func(c Color) color.Color { return c.On(dark) }
	s := &Styles{Mono: mono, Dark: dark, Palette: t}
	s.Base = ns()
	s.Muted = fg(t.Muted)
	s.Subtle = fg(t.Subtle)
	s.Bold = ns().Bold(true)
	s.Accent = fg(t.Accent).Bold(true)
	s.Warning = fg(t.Warning).Bold(true)
	s.Error = fg(t.Error).Bold(true)
	s.Success = fg(t.Success)

	border := lipgloss.RoundedBorder()
	s.PaneFocused = ns().Border(border)
	s.PaneBlurred = ns().Border(border)
	if mono {
		s.PaneFocused = ns().Border(lipgloss.ThickBorder())
	} else {
		s.PaneFocused = s.PaneFocused.BorderForeground(on(t.BorderFocus))
		s.PaneBlurred = s.PaneBlurred.BorderForeground(on(t.Border))
	}
	s.BorderFocused = fg(t.BorderFocus)
	s.BorderBlurred = fg(t.Border)
	if mono {
		s.BorderBlurred = ns().Faint(true)
	}
	s.PaneTitleFocused = fg(t.Accent).Bold(true)
	s.PaneTitleBlurred = fg(t.Muted)

	s.Tab = fg(t.Muted).Padding(0, 1)
	s.TabActive = ns().Bold(true).Padding(0, 1).Underline(mono)
	if !mono {
		s.TabActive = s.TabActive.Foreground(on(t.AccentText)).Background(on(t.Accent))
	}
	s.StatusBar = ns()
	s.StatusKey = ns().Bold(true)
	if !mono {
		s.StatusBar = s.StatusBar.Foreground(on(t.BarFg)).Background(on(t.BarBg))
		s.StatusKey = s.StatusKey.Foreground(on(t.Accent)).Background(on(t.BarBg))
	}
	s.StatusWarn = s.StatusBar.Bold(true)
	s.StatusErr = s.StatusBar.Bold(true)
	if !mono {
		s.StatusWarn = s.StatusWarn.Foreground(on(t.Warning))
		s.StatusErr = s.StatusErr.Foreground(on(t.Error))
	}
	s.Toast = ns().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	s.ToastError = s.Toast
	if !mono {
		s.Toast = s.Toast.BorderForeground(on(t.Accent))
		s.ToastError = s.ToastError.BorderForeground(on(t.Error))
	}
	s.HeaderLine = fg(t.Muted)
	s.HeaderLabel = ns().Bold(true)

	if mono {
		s.Selected = ns().Reverse(true)
		s.SelectedBlurred = ns().Underline(true)
	} else {
		s.Selected = ns().Background(on(t.SelectionBg)).Foreground(on(t.SelectionFg))
		s.SelectedBlurred = ns().Background(on(t.SelectionBlurBg))
	}
	s.Match = ns().Bold(true).Underline(true)
	s.Cursor = fg(t.Accent).Bold(true)
	s.CursorBlurred = fg(t.Muted)
	if mono {
		s.CursorBlurred = ns().Faint(true)
	}
	s.CursorMark, s.CursorMarkBlurred = s.Cursor.Reverse(true), s.CursorBlurred.Reverse(true)
	s.Marked = fg(t.Marked).Bold(true)
	s.Unread = fg(t.Unread).Bold(true)
	s.StatusNew = fg(t.StatusNew).Bold(true)
	s.StatusPending = fg(t.StatusPending)
	s.StatusEnded = fg(t.StatusEnded)
	s.StatusUnknown = fg(t.Muted)
	s.Topic = fg(t.Accent)

	s.OperatorName = fg(t.Operator).Bold(true)
	s.ContactName = fg(t.Contact).Bold(true)
	s.BotName = fg(t.Bot).Bold(true)
	s.MessageMeta = fg(t.Muted)
	s.MessageBody = ns()
	s.Divider = fg(t.Subtle)
	s.Loading = fg(t.Warning).Italic(true)
	s.Link = fg(t.Accent).Underline(true)

	s.Label = fg(t.Muted)
	s.Value = ns()
	s.Section = fg(t.Accent).Bold(true)

	s.Modal = ns().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	if !mono {
		s.Modal = s.Modal.BorderForeground(on(t.BorderFocus))
	}
	s.ModalTitle = fg(t.Accent).Bold(true)
	s.HelpKey = fg(t.Accent).Bold(true)
	s.HelpDesc = fg(t.Muted)
	s.HelpSection = ns().Bold(true).Underline(true)
	return s
}

// Plain is the default styles (mono or not) without a single colour or attribute: every
// style keeps its layout (padding, borders, widths) and writes no escape codes, so what is
// drawn reads as plain text. Tests compare such text; the program never uses them.
func Plain(mono bool) *Styles {
	s := New(Default(), true, mono)
	Strip(s)
	s.Plain = true
	return s
}

// Strip removes every colour and attribute from the lipgloss styles in the struct that
// ptr points to, nested structs included (parley's Styles, or the styles of a form or an
// input drawn beside them), keeping their layout.
func Strip(ptr any) {
	strip(reflect.ValueOf(ptr).Elem())
}

var styleType = reflect.TypeFor[lipgloss.Style]()

func strip(v reflect.Value) {
	switch {
	case v.Type() == styleType:
		if v.CanSet() {
			v.Set(reflect.ValueOf(plainStyle(v.Interface().(lipgloss.Style))))
		}
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				strip(v.Field(i))
			}
		}
	case v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct:
		strip(v.Elem())
	}
}

// plainStyle is s without colours and attributes.
func plainStyle(s lipgloss.Style) lipgloss.Style {
	return s.UnsetBold().UnsetItalic().UnsetUnderline().UnsetStrikethrough().UnsetReverse().
		UnsetBlink().UnsetFaint().UnsetForeground().UnsetBackground().
		UnsetBorderForeground().UnsetBorderBackground()
}
