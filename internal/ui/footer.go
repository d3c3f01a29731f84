package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/parley-tui/parley/internal/views/components/layout"
)

// footerSep separates two hints in the footer.
const footerSep = "  "

// footerBindings are the keys the footer names: the top modal's short help when a modal
// has the keys, with the way out (the back key: cancel, close) always shown; else those
// the key table ranks for where the user is (keymap.KeyMap.Footer: the focused pane's,
// most used first), then help, the palette and quit, always shown. They come from the
// bindings, so a rebound key shows as bound.
func (a *App) footerBindings() (hints, always []key.Binding) {
	k := a.ctx.Keys
	if top := a.route.Top(); top != nil {
		for _, b := range top.ShortHelp() {
			if sharesKey(b, k.Back) {
				always = append(always, b)
			} else {
				hints = append(hints, b)
			}
		}
		return hints, always
	}
	return k.Footer(a.Screen().Where())
}

// sharesKey reports whether b and c have a key in common.
func sharesKey(b, c key.Binding) bool {
	for _, x := range b.Keys() {
		for _, y := range c.Keys() {
			if x == y {
				return true
			}
		}
	}
	return false
}

// footer is the bottom line: the short help of what has the keys, on one line. The hints
// come most used first (the key table's rank, or the order a modal lists them); those
// that do not fit the width are dropped whole from the end, never cut or wrapped; help,
// the palette and quit (or a modal's way out) always stay.
func (a *App) footer() string {
	hints, always := a.footerBindings()
	var tail, head []key.Binding
	seen := map[string]bool{}
	shown := func(b key.Binding) bool {
		if !b.Enabled() || b.Help().Key == "" {
			return false
		}
		for _, k := range b.Keys() {
			if seen[k] {
				return false // help, the palette or quit, or a key listed already
			}
		}
		for _, k := range b.Keys() {
			seen[k] = true
		}
		return true
	}
	for _, b := range always {
		if shown(b) {
			tail = append(tail, b)
		}
	}
	for _, b := range hints {
		if shown(b) {
			head = append(head, b)
		}
	}
	var ck strings.Builder
	ck.WriteString(strconv.Itoa(a.width))
	for _, g := range [][]key.Binding{head, tail} {
		ck.WriteString("\x02")
		for _, b := range g {
			ck.WriteString("\x00" + b.Help().Key + "\x01" + b.Help().Desc)
		}
	}
	if ck.String() == a.bars.footKey {
		return a.bars.foot
	}
	a.bars.footKey, a.bars.foot = ck.String(), a.layoutFooter(head, tail)
	return a.bars.foot
}

// hintText is a hint as the footer shows it.
func hintText(b key.Binding) string { return b.Help().Key + " " + b.Help().Desc }

// hintsWidth is the width of hints side by side.
func hintsWidth(hints []key.Binding) int {
	w := 0
	for i, b := range hints {
		if i > 0 {
			w += widthOf(footerSep)
		}
		w += widthOf(hintText(b))
	}
	return w
}

// layoutFooter fits head's hints, then tail's, into the width: tail's always stay, and
// head's that do not fit go from the end.
func (a *App) layoutFooter(head, tail []key.Binding) string {
	st := a.ctx.Styles
	room := a.width - 2 // a space at either end
	if tw := hintsWidth(tail); tw > 0 {
		room -= tw + widthOf(footerSep)
	}
	used, n := 0, 0
	for _, b := range head {
		w := widthOf(hintText(b))
		if n > 0 {
			w += widthOf(footerSep)
		}
		if used+w > room {
			break
		}
		used += w
		n++
	}
	keyStyle, descStyle := layout.Painter(st.HelpKey), layout.Painter(st.HelpDesc)
	var parts []string
	for _, b := range append(head[:n:n], tail...) {
		parts = append(parts, keyStyle(b.Help().Key)+descStyle(" "+b.Help().Desc))
	}
	return layout.Fit(" "+strings.Join(parts, footerSep), a.width)
}
