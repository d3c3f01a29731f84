package picker

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"
)

// Order is how the matches of a query are listed.
type Order uint8

const (
	// Best lists the best match first (ties in the items' order).
	Best Order = iota
	// Kept keeps the items' order (a list drawn in groups: help); the picker puts its
	// cursor on the best match.
	Kept
)

// Match is an item the query matches: its index and the runes of its text that matched.
type Match struct {
	Item  int   // the index of the item; Typed for the row of the query itself
	Runes []int // rune indexes into the item's text, ascending
	score int
}

// Typed is the Item of the row that stands for the query itself (Options.Typed: ":123").
const Typed = -1

// source is a subset of the texts, as fuzzy reads them.
type source struct {
	texts []string
	idx   []int
}

func (s source) String(i int) string { return s.texts[s.idx[i]] }
func (s source) Len() int            { return len(s.idx) }

// Find is the matching rule of every picker. The query's words (split at spaces) each
// match fuzzily: their characters in order, not necessarily side by side, case ignored
// (github.com/sahilm/fuzzy); a text matches when every word does, in any order ("resp
// first" finds um_operator_response_time_first). Best first: by the words' scores summed
// (runs of adjacent characters, the starts of words and an early first character score
// higher), ties in the texts' order; Kept keeps the texts' order. An empty query
// matches every text, with nothing marked.
func Find(query string, texts []string, order Order) []Match {
	words := strings.Fields(query)
	if len(words) == 0 {
		out := make([]Match, len(texts))
		for i := range texts {
			out[i] = Match{Item: i}
		}
		return out
	}
	cand := source{texts: texts, idx: make([]int, len(texts))}
	for i := range texts {
		cand.idx[i] = i
	}
	found := map[int]*Match{}
	for _, w := range words {
		next := make([]int, 0, len(cand.idx))
		for _, fm := range fuzzy.FindFromNoSort(w, cand) {
			i := cand.idx[fm.Index]
			m := found[i]
			if m == nil {
				m = &Match{Item: i}
				found[i] = m
			}
			m.score += fm.Score
			m.Runes = append(m.Runes, runeIndexes(texts[i], fm.MatchedIndexes)...)
			next = append(next, i)
		}
		cand.idx = next
	}
	out := make([]Match, 0, len(cand.idx))
	for _, i := range cand.idx {
		m := found[i]
		slices.Sort(m.Runes)
		m.Runes = slices.Compact(m.Runes)
		out = append(out, *m)
	}
	slices.SortStableFunc(out, func(a, b Match) int { return cmp.Compare(a.Item, b.Item) })
	if order == Best {
		slices.SortStableFunc(out, func(a, b Match) int { return cmp.Compare(b.score, a.score) })
	}
	return out
}

// runeIndexes turns byte offsets into s (ascending) into rune indexes.
func runeIndexes(s string, bytes []int) []int {
	out := make([]int, 0, len(bytes))
	r, at := 0, 0
	for _, b := range bytes {
		for at < b && at < len(s) {
			_, size := utf8.DecodeRuneInString(s[at:])
			at += size
			r++
		}
		out = append(out, r)
	}
	return out
}

// Below is how many of the ascending runes of a match are below n: those of a text's first
// n runes when the match's text is drawn in two parts.
func Below(runes []int, n int) int {
	for i, r := range runes {
		if r >= n {
			return i
		}
	}
	return len(runes)
}

// Shift is runes moved by n (the match of a text drawn after n other runes), without those
// that land before 0.
func Shift(runes []int, n int) []int {
	out := make([]int, 0, len(runes))
	for _, r := range runes {
		if r+n >= 0 {
			out = append(out, r+n)
		}
	}
	return out
}

// Cell draws text in exactly w cells (cut with "…", padded with spaces) in the style base,
// the matched runes (rune indexes into text) in base with match over it (Styles.Match:
// every picker marks its matches so). Each run is styled apart, so a selected row keeps
// its background across the marks; text must be plain (sanitized, no escape codes).
func Cell(text string, runes []int, w int, base, match lipgloss.Style) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(text) > w {
		text = ansi.Truncate(text, w, "…")
		if n := utf8.RuneCountInString(text); len(runes) > 0 {
			runes = slices.DeleteFunc(slices.Clone(runes), func(r int) bool { return r >= n-1 }) // not the "…"
		}
	}
	pad := w - ansi.StringWidth(text)
	if pad > 0 {
		text += strings.Repeat(" ", pad)
	}
	if len(runes) == 0 {
		return base.Render(text)
	}
	return lipgloss.StyleRunes(text, runes, match.Inherit(base), base)
}
