package keymap

import (
	"cmp"
	"slices"

	"charm.land/bubbles/v2/key"
)

// Section is one group of the keys of a place, as help lists them.
type Section struct {
	Group Group
	Keys  []key.Binding
}

// shown are the entries the session may use in the place w, by rank (Prio), each with its
// binding as w words it.
func (k *KeyMap) shown(w Where) []placed {
	var out []placed
	for i := range table {
		s := &table[i]
		if !k.Allows(s.Name, w) || k.binding(s.Name).Help().Key == "" {
			continue
		}
		b := *k.binding(s.Name)
		for _, l := range s.Local {
			if l.In&w != 0 && l.Help != "" {
				b = As(b, l.Help)
			}
		}
		out = append(out, placed{s, b})
	}
	slices.SortStableFunc(out, func(a, b placed) int { return cmp.Compare(a.spec.Prio, b.spec.Prio) })
	return out
}

// placed is an entry with its binding as a place words it.
type placed struct {
	spec *Spec
	b    key.Binding
}

// Sections are every key the session may use in the place w, grouped as help lists them:
// the group of the place's most used footer key first, each group by rank.
func (k *KeyMap) Sections(w Where) []Section {
	rank := map[Group]int{}
	var out []Section
	for _, p := range k.shown(w) {
		r := p.spec.Prio
		if p.spec.Foot&w == 0 {
			r += 1000 // a group the footer names comes before those it does not
		}
		i := slices.IndexFunc(out, func(s Section) bool { return s.Group == p.spec.Group })
		if i < 0 {
			out = append(out, Section{Group: p.spec.Group})
			i, rank[p.spec.Group] = len(out)-1, r
		}
		rank[p.spec.Group] = min(rank[p.spec.Group], r)
		out[i].Keys = append(out[i].Keys, p.b)
	}
	slices.SortStableFunc(out, func(a, b Section) int { return cmp.Compare(rank[a.Group], rank[b.Group]) })
	return out
}

// Footer is what the footer names in the place w: hints, most used first (the footer drops
// from the end what does not fit), in the footer's words, a pair of actions in one hint
// ("J/K next/prev"); and pinned, always shown at the end (help, the palette, quit).
func (k *KeyMap) Footer(w Where) (hints, pinned []key.Binding) {
	shown := k.shown(w)
	partner := map[string]key.Binding{} // the leader's partner, by the leader's name
	inPair := map[string]bool{}         // the partners: shown with their leader
	for _, p := range shown {
		for _, q := range shown {
			if p.spec.Pair != "" && q.spec.Name == p.spec.Pair && p.spec.Foot&q.spec.Foot&w != 0 {
				partner[p.spec.Name], inPair[q.spec.Name] = q.b, true
			}
		}
	}
	for _, p := range shown {
		if inPair[p.spec.Name] || (p.spec.Foot&w == 0 && !p.spec.Pin) {
			continue
		}
		keys, label, words := p.b.Keys(), p.b.Help().Key, p.b.Help().Desc
		if n := p.spec.FootKeys; n > 0 && n < len(keys) {
			label = HelpKeys(keys[:n])
		}
		if q, ok := partner[p.spec.Name]; ok {
			keys, label, words = append(slices.Clone(keys), q.Keys()...), label+"/"+q.Help().Key, p.spec.Short
		} else if p.spec.Short != "" && p.spec.Pair == "" && words == p.spec.Help {
			words = p.spec.Short // the footer's words, unless the place words it its own way
		}
		b := key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, words))
		if p.spec.Pin {
			pinned = append(pinned, b)
		} else {
			hints = append(hints, b)
		}
	}
	return hints, pinned
}
