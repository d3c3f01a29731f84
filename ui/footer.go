package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/parley-tui/parley/views/layout"
)

// footerSep separates two hints in the footer.
const footerSep = "  "

// footerBindings are the keys the footer names: the top modal's short help when a modal
// has the keys, with the way out (the back key: cancel, close) always shown; else the
// active screen's (its focused pane's), then help and quit, always shown. They come from
// the bindings, so a rebound key shows as bound.
func (a *App) footerBindings() (hints, always []key.Binding) {
	k := a.ctx.Keys
	if n := len(a.overlays); n > 0 {
		for _, b := range a.overlays[n-1].ShortHelp() {
			if sharesKey(b, k.Back) {
				always = append(always, b)
			} else {
				hints = append(hints, b)
			}
		}
		return hints, always
	}
	return a.Screen().ShortHelp(), []key.Binding{k.Help, k.Quit}
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
// come in the order their owner lists them, most useful first; those that do not fit the
// width are dropped from the end, never wrapped, and help and quit always stay.
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
				return false // help or quit, or a key listed already
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
	for _, b := range append(head[:len(head):len(head)], tail...) {
		ck.WriteString("\x00" + b.Help().Key + "\x01" + b.Help().Desc)
	}
	if ck.String() == a.bars.footKey {
		return a.bars.foot
	}
	a.bars.footKey, a.bars.foot = ck.String(), a.layoutFooter(head, tail)
	return a.bars.foot
}

// layoutFooter fits head's hints, then tail's, into the width.
func (a *App) layoutFooter(head, tail []key.Binding) string {
	st := a.ctx.Styles
	text := func(b key.Binding) string { return b.Help().Key + " " + b.Help().Desc }
	tailW := 0
	for i, b := range tail {
		if i > 0 {
			tailW += widthOf(footerSep)
		}
		tailW += widthOf(text(b))
	}
	room := a.width - 2 // a space at either end
	if tailW > 0 {
		room -= tailW + widthOf(footerSep)
	}
	used, n := 0, 0
	for _, b := range head {
		w := widthOf(text(b))
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
