// Package theme holds parley's colours and every lipgloss style, in two layers: Theme has
// semantic adaptive colours (a light and a dark value each), Styles is built once from a
// Theme and a renderer. Mono drops every colour and keeps only bold, faint, underline and
// reverse, so nothing depends on colour alone.
package theme

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
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

// Theme is the palette: semantic names, each with a light and a dark value.
type Theme struct {
	Text, Muted, Subtle      lipgloss.AdaptiveColor
	Accent, AccentText       lipgloss.AdaptiveColor
	Border, BorderFocus      lipgloss.AdaptiveColor
	SelectionBg, SelectionFg lipgloss.AdaptiveColor
	SelectionBlurBg          lipgloss.AdaptiveColor
	StatusNew, StatusPending lipgloss.AdaptiveColor
	StatusEnded              lipgloss.AdaptiveColor
	Operator, Contact, Bot   lipgloss.AdaptiveColor
	Unread, Marked           lipgloss.AdaptiveColor
	Warning, Error, Success  lipgloss.AdaptiveColor
	BarBg, BarFg             lipgloss.AdaptiveColor
	Chart1, Chart2           lipgloss.AdaptiveColor
}

// Default is parley's palette.
func Default() Theme {
	c := func(light, dark string) lipgloss.AdaptiveColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
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
	Marked                     lipgloss.Style
	Unread                     lipgloss.Style
	StatusNew, StatusPending   lipgloss.Style
	StatusEnded, StatusUnknown lipgloss.Style
	Topic                      lipgloss.Style

	// Messages.
	OperatorName, ContactName, BotName lipgloss.Style
	MessageMeta, MessageBody, Divider  lipgloss.Style
	Loading                            lipgloss.Style

	// Detail and forms.
	Label, Value, Section lipgloss.Style

	// Modals and help.
	Modal, ModalTitle, HelpKey, HelpDesc, HelpSection lipgloss.Style
}

// New builds the styles of t for renderer r (nil means the default renderer). With mono,
// no colour is ever emitted.
func New(r *lipgloss.Renderer, t Theme, mono bool) *Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	ns := r.NewStyle
	fg := func(c lipgloss.AdaptiveColor) lipgloss.Style {
		if mono {
			return ns()
		}
		return ns().Foreground(c)
	}
	s := &Styles{Mono: mono, Palette: t}
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
		s.PaneFocused = s.PaneFocused.BorderForeground(t.BorderFocus)
		s.PaneBlurred = s.PaneBlurred.BorderForeground(t.Border)
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
		s.TabActive = s.TabActive.Foreground(t.AccentText).Background(t.Accent)
	}
	s.StatusBar = ns()
	s.StatusKey = ns().Bold(true)
	if !mono {
		s.StatusBar = s.StatusBar.Foreground(t.BarFg).Background(t.BarBg)
		s.StatusKey = s.StatusKey.Foreground(t.Accent).Background(t.BarBg)
	}
	s.StatusWarn = s.StatusBar.Bold(true)
	s.StatusErr = s.StatusBar.Bold(true)
	if !mono {
		s.StatusWarn = s.StatusWarn.Foreground(t.Warning)
		s.StatusErr = s.StatusErr.Foreground(t.Error)
	}
	s.Toast = ns().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	s.ToastError = s.Toast
	if !mono {
		s.Toast = s.Toast.BorderForeground(t.Accent)
		s.ToastError = s.ToastError.BorderForeground(t.Error)
	}
	s.HeaderLine = fg(t.Muted)
	s.HeaderLabel = ns().Bold(true)

	if mono {
		s.Selected = ns().Reverse(true)
		s.SelectedBlurred = ns().Underline(true)
	} else {
		s.Selected = ns().Background(t.SelectionBg).Foreground(t.SelectionFg)
		s.SelectedBlurred = ns().Background(t.SelectionBlurBg)
	}
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

	s.Label = fg(t.Muted)
	s.Value = ns()
	s.Section = fg(t.Accent).Bold(true)

	s.Modal = ns().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	if !mono {
		s.Modal = s.Modal.BorderForeground(t.BorderFocus)
	}
	s.ModalTitle = fg(t.Accent).Bold(true)
	s.HelpKey = fg(t.Accent).Bold(true)
	s.HelpDesc = fg(t.Muted)
	s.HelpSection = ns().Bold(true).Underline(true)
	return s
}
