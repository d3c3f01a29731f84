package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/parley-tui/parley/client"
)

// KeyViews is the top-level key of the saved views.
const KeyViews = "views"

// The screens a saved view may belong to.
const (
	ViewConversations = "conversations"
	ViewContacts      = "contacts"
)

// AllView is the name of the view every list screen shows first: its list with no filter,
// no search and the default order. An entry of that name holds only a screen and an
// ordering: the default order of that screen's list (DefaultOrderings); a saved view may
// not take the name.
const AllView = "all"

// MaxViewName is the longest view name, in characters.
const MaxViewName = 40

// View is one saved view: a named query of the conversations or the contacts list.
type View struct {
	Name   string
	Screen string // ViewConversations or ViewContacts
	// Status is the conversation status (new, pending, ended; "" = every one).
	Status string
	// Filters are the list's other filters by their API query parameter (topics,
	// um_widget_id, email, verified…), values as the API takes them.
	Filters map[string]string
	// Search is the server search (search_query; "" = none).
	Search string
	// Ordering is the list's ordering ("" = the server's default).
	Ordering string
	// Hidden keeps the view out of the row (a built-in one the file does not want).
	Hidden bool
	// Line is where the view starts in the file (0 for a view not read from a file).
	Line int
}

// isAll reports whether v is an AllView entry (the default order of a screen's list).
func (v View) isAll() bool { return strings.EqualFold(strings.TrimSpace(v.Name), AllView) }

// DefaultOrderings are the default orders the file's AllView entries give the list
// screens, by screen; a screen without one keeps its list's own.
func DefaultOrderings(file []View) map[string]string {
	out := map[string]string{}
	for _, v := range file {
		if v.isAll() && v.Ordering != "" {
			out[v.Screen] = v.Ordering
		}
	}
	return out
}

// OperatorMe is the value of the operator_id filter that stands for the acting operator
// (the operator parley acts as when the view is shown): the built-in view Mine holds it.
const OperatorMe = client.OperatorMe

// BuiltinViews are the views that exist without configuration: Mine (the conversations
// assigned to the acting operator) and New (the conversations whose status is new). The
// views: section may place them (an entry with the name and the screen only), hide them
// (hidden: true) or replace them (an entry of that name with a query of its own).
func BuiltinViews() []View {
	return []View{
		{Name: "Mine", Screen: ViewConversations, Filters: map[string]string{"operator_id": OperatorMe}},
		{Name: "New", Screen: ViewConversations, Status: "new"},
	}
}

// ShownViews are the views the list screens show, from the file's views: the built-in
// views the file does not name first (in BuiltinViews' order), then the file's views in
// its order; an entry named as a built-in view with no query of its own is that view in
// that place; hidden views are left out.
func ShownViews(file []View) []View {
	builtins := BuiltinViews()
	named := func(b View) int {
		return slices.IndexFunc(file, func(v View) bool { return v.Screen == b.Screen && strings.EqualFold(v.Name, b.Name) })
	}
	var out []View
	for _, b := range builtins {
		if named(b) < 0 {
			out = append(out, b)
		}
	}
	for _, v := range file {
		if v.Hidden || v.isAll() {
			continue
		}
		if i := slices.IndexFunc(builtins, func(b View) bool { return b.Screen == v.Screen && strings.EqualFold(v.Name, b.Name) }); i >= 0 && v.queryless() {
			b := builtins[i]
			b.Line = v.Line
			v = b
		}
		out = append(out, v)
	}
	return out
}

// queryless reports whether v names no status, filter, search or ordering.
func (v View) queryless() bool {
	return v.Status == "" && len(v.Filters) == 0 && v.Search == "" && v.Ordering == ""
}

// Same reports whether v and o are the same query under the same name (Line aside).
func (v View) Same(o View) bool {
	if v.Name != o.Name || v.Screen != o.Screen || v.Status != o.Status || v.Search != o.Search || v.Ordering != o.Ordering ||
		v.Hidden != o.Hidden {
		return false
	}
	if len(v.Filters) != len(o.Filters) {
		return false
	}
	for k, x := range v.Filters {
		if y, ok := o.Filters[k]; !ok || x != y {
			return false
		}
	}
	return true
}

// viewScreen is what a view of one screen may hold, read from the declaration of the
// screen's list (client.Conversations, client.Contacts).
type viewScreen struct {
	// filters are the parameters a view keeps among its filters, sorted.
	filters []string
	// check checks the value of one of them (false: there is no such filter).
	check func(name, value string) (bool, error)
	// status checks a status (nil: the screen's list has none).
	status func(string) error
	// orderings are the orderings a query may name (the server's own order included).
	orderings []string
}

// screenOf reads a list's declaration.
func screenOf[F, R any](r client.Resource[F, R]) viewScreen {
	s := viewScreen{orderings: r.OrderingCycle()}
	for _, name := range r.Names() {
		if name != r.Status {
			s.filters = append(s.filters, name)
		}
	}
	s.check = func(name, value string) (bool, error) {
		p, ok := r.Param(name)
		if !ok || name == r.Status {
			return false, nil
		}
		if p.TakesMe() && strings.TrimSpace(value) == OperatorMe {
			return true, nil
		}
		var f F
		if err := p.Parse(&f, value); err != nil {
			if p.TakesMe() {
				return true, fmt.Errorf("%w, nor %s (the operator parley acts as)", err, OperatorMe)
			}
			return true, err
		}
		return true, nil
	}
	if p, ok := r.Param(r.Status); ok {
		s.status = func(v string) error {
			var f F
			return p.Parse(&f, v)
		}
	}
	return s
}

// viewScreens are the screens a view may belong to.
var viewScreens = map[string]viewScreen{
	ViewConversations: screenOf(client.Conversations),
	ViewContacts:      screenOf(client.Contacts),
}

var viewKeys = []string{"name", "screen", "status", "filters", "search", "ordering", "hidden"}

// CheckViewValue checks the value of filter name of a view of screen.
func CheckViewValue(screen, name, value string) error {
	s := viewScreens[screen]
	known, err := s.check(name, value)
	switch {
	case !known:
		return fmt.Errorf("unknown %s filter %q (known: %s)", screen, name, strings.Join(s.filters, ", "))
	case err != nil:
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// CheckView checks a view as a config file would hold it; the first problem found is the
// error.
func CheckView(v View) error {
	var p parser
	p.c = &Config{}
	p.checkView(nil, v)
	if len(p.problems) > 0 {
		return fmt.Errorf("%s", p.problems[0].Msg)
	}
	return nil
}

// checkView checks the fields of v, reporting at n.
func (p *parser) checkView(n *yaml.Node, v View) bool {
	ok := true
	bad := func(format string, args ...any) {
		p.addf(n, "views: "+format, args...)
		ok = false
	}
	switch name := v.Name; {
	case strings.TrimSpace(name) == "":
		bad("each view needs a name")
	case v.isAll():
		if v.Ordering == "" || v.Status != "" || len(v.Filters) > 0 || v.Search != "" || v.Hidden {
			bad("%q is the built-in view of the whole list: it takes only a screen and an ordering (the list's default order); give a view with a query another name", AllView)
		}
	case len([]rune(name)) > MaxViewName:
		bad("the name %q is longer than %d characters", name, MaxViewName)
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }):
		bad("a view name must not hold control characters")
	}
	s, known := viewScreens[v.Screen]
	if !known {
		bad("view %q: screen must be conversations or contacts", v.Name)
		return false
	}
	if v.Status != "" {
		if s.status == nil {
			bad("view %q: only conversations have a status", v.Name)
		} else if err := s.status(v.Status); err != nil {
			bad("view %q: status %v", v.Name, err)
		}
	}
	if v.Ordering != "" && !slices.Contains(s.orderings, v.Ordering) {
		bad("view %q: %q is not a %s ordering (known: %s)", v.Name, v.Ordering, v.Screen, strings.Join(s.orderings, ", "))
	}
	names := make([]string, 0, len(v.Filters))
	for k := range v.Filters {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if k == "status" {
			bad("view %q: status has a key of its own (status: %s), not a filter", v.Name, v.Filters[k])
			continue
		}
		if err := CheckViewValue(v.Screen, k, v.Filters[k]); err != nil {
			bad("view %q: %v", v.Name, err)
		}
	}
	return ok
}

// views reads the views: section, a list of views.
func (p *parser) views(n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.addf(n, "views must be a list of views, like \"- {name: New, screen: conversations, status: new}\"")
		return
	}
	seen := map[string]int{}
	for _, item := range n.Content {
		item = deref(item)
		if item.Kind != yaml.MappingNode {
			p.addf(item, "views: each view is a mapping with a name and a screen")
			continue
		}
		v, ok := View{Line: item.Line}, true
		got := map[string]bool{}
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, val := deref(item.Content[i]), deref(item.Content[i+1])
			if k.Kind != yaml.ScalarNode || !slices.Contains(viewKeys, k.Value) {
				p.addf(k, "views: unknown key %q (known: %s)", k.Value, strings.Join(viewKeys, ", "))
				ok = false
				continue
			}
			if got[k.Value] {
				p.addf(k, "views: %s is set twice in one view", k.Value)
				ok = false
				continue
			}
			got[k.Value] = true
			if isNull(val) {
				continue
			}
			if k.Value == "filters" {
				if val.Kind != yaml.MappingNode {
					p.addf(val, "views: filters map API filter names to values, like \"topics: 4\"")
					ok = false
					continue
				}
				v.Filters = map[string]string{}
				for j := 0; j+1 < len(val.Content); j += 2 {
					fk, fv := deref(val.Content[j]), deref(val.Content[j+1])
					if fk.Kind != yaml.ScalarNode || fv.Kind != yaml.ScalarNode {
						p.addf(fk, "views: each filter is a name and a single value")
						ok = false
						continue
					}
					if _, dup := v.Filters[fk.Value]; dup {
						p.addf(fk, "views: filter %s is set twice", fk.Value)
						ok = false
						continue
					}
					v.Filters[fk.Value] = strings.TrimSpace(fv.Value)
				}
				continue
			}
			if val.Kind != yaml.ScalarNode {
				p.addf(val, "views: %s must be a single value", k.Value)
				ok = false
				continue
			}
			s := strings.TrimSpace(val.Value)
			switch k.Value {
			case "name":
				v.Name = s
			case "screen":
				v.Screen = s
			case "status":
				v.Status = s
			case "search":
				v.Search = s
			case "ordering":
				v.Ordering = s
			case "hidden":
				b, err := parseBool(s)
				if err != nil {
					p.addf(val, "views: hidden: %v", err)
					ok = false
					continue
				}
				v.Hidden = b
			}
		}
		if !ok || !p.checkView(item, v) {
			continue
		}
		id := v.Screen + "\x00" + strings.ToLower(v.Name)
		if prev, dup := seen[id]; dup {
			p.addf(item, "views: %s view %q is there twice (first on line %d)", v.Screen, v.Name, prev)
			continue
		}
		seen[id] = item.Line
		p.c.Views = append(p.c.Views, v)
	}
}

// render writes v as an item of a block list at indent (the column of its dash).
func (v View) render(indent string) string {
	var b strings.Builder
	pad := indent + "  "
	fmt.Fprintf(&b, "%s- name: %s\n", indent, quote(v.Name))
	fmt.Fprintf(&b, "%sscreen: %s\n", pad, quote(v.Screen))
	if v.Status != "" {
		fmt.Fprintf(&b, "%sstatus: %s\n", pad, quote(v.Status))
	}
	if v.Search != "" {
		fmt.Fprintf(&b, "%ssearch: %s\n", pad, quote(v.Search))
	}
	if v.Ordering != "" {
		fmt.Fprintf(&b, "%sordering: %s\n", pad, quote(v.Ordering))
	}
	if v.Hidden {
		fmt.Fprintf(&b, "%shidden: true\n", pad)
	}
	if len(v.Filters) > 0 {
		fmt.Fprintf(&b, "%sfilters:\n", pad)
		names := make([]string, 0, len(v.Filters))
		for k := range v.Filters {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(&b, "%s  %s: %s\n", pad, k, quote(v.Filters[k]))
		}
	}
	return b.String()
}

func viewsWithoutLines(vs []View) []View {
	if len(vs) == 0 {
		return nil
	}
	out := make([]View, len(vs))
	for i, v := range vs {
		v.Line = 0
		if len(v.Filters) == 0 {
			v.Filters = nil
		}
		out[i] = v
	}
	return out
}

// AddView appends view v to the views: section of the config file at path and writes the
// file again, keeping everything else in it byte for byte: its settings, its comments and
// their layout. A missing file is created from the commented example. A file that does not
// parse is refused (with its problems), never overwritten; a view of the same screen and
// name is replaced in place.
func AddView(path string, v View) error {
	v.Line = 0
	if err := CheckView(v); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = Example()
	case err != nil:
		return fmt.Errorf("read config: %w", err)
	}
	before, err := Parse(data, path)
	if err != nil {
		return err
	}
	want := before
	want.Views = slices.Clone(before.Views)
	replace := -1
	for i, o := range before.Views {
		if o.Screen == v.Screen && strings.EqualFold(o.Name, v.Name) {
			replace = i
			want.Views[i] = v
		}
	}
	if replace < 0 {
		want.Views = append(want.Views, v)
	}
	out, err := addViewLines(data, v, replace)
	if err == nil {
		err = check(out, path, want)
	}
	if err != nil {
		return fmt.Errorf("save view %q in %s: %w", v.Name, path, err)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return writeFile(path, out, mode)
}

// addViewLines edits the file as text: the view replaces view number replace (≥ 0) or goes
// after the last line of the views: list; a file without one gets a views: section at its
// end. Lines outside the view's own are left as they are.
func addViewLines(data []byte, v View, replace int) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	text := string(data)
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	join := func(ls []string) []byte { return []byte(strings.Join(ls, "\n")) }
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if root != nil && root.Kind != yaml.MappingNode && !isNull(root) {
		return nil, errors.New("the file is not a mapping of keys to values")
	}
	if root != nil && root.Kind == yaml.MappingNode && root.Style&yaml.FlowStyle != 0 {
		return nil, errors.New("the file is written as one {…} mapping: add the view by hand")
	}
	var key, val, next *yaml.Node
	if root != nil && root.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == KeyViews {
				key, val = root.Content[i], root.Content[i+1]
				if i+2 < len(root.Content) {
					next = root.Content[i+2]
				}
			}
		}
	}
	fix := func(out []byte) []byte {
		if nl == "\n" {
			return out
		}
		return []byte(strings.ReplaceAll(string(out), "\n", nl))
	}
	switch {
	case key == nil:
		// No views: section: one at the end of the file.
		out := strings.TrimRight(strings.Join(lines, "\n"), "\n")
		if out != "" {
			out += "\n\n"
		}
		return fix([]byte(out + "views:\n" + v.render("  "))), nil
	case isNull(val):
		if key.Column != 1 || val.Line != key.Line && val.Line != 0 {
			return nil, errors.New("the views: line is not laid out as a plain key")
		}
		item := strings.Split(strings.TrimSuffix(v.render("  "), "\n"), "\n")
		lines = slices.Insert(lines, key.Line, item...)
		return fix(join(lines)), nil
	case val.Kind != yaml.SequenceNode || val.Style&yaml.FlowStyle != 0 || len(val.Content) == 0:
		return nil, errors.New("views: is not a block list (\"- name: …\" lines): add the view by hand")
	}
	first := val.Content[0]
	dash := lines[first.Line-1]
	col := strings.Index(dash, "-")
	if col < 0 || strings.TrimSpace(dash[:col]) != "" {
		return nil, errors.New("the views: list is not laid out one item per line")
	}
	indent := dash[:col]
	item := strings.Split(strings.TrimSuffix(v.render(indent), "\n"), "\n")
	// The list ends before the next top-level key, or at the end of the file; comments at
	// the left margin and blank lines just above that key are the key's own.
	end := len(lines)
	if next != nil {
		end = next.Line - 1
	}
	if replace >= 0 {
		start := val.Content[replace].Line - 1
		stop := end
		if replace+1 < len(val.Content) {
			stop = val.Content[replace+1].Line - 1
		}
		stop = lastContent(lines, start, stop) + 1
		lines = slices.Replace(lines, start, stop, item...)
		return fix(join(lines)), nil
	}
	at := lastContent(lines, key.Line-1, end) + 1
	lines = slices.Insert(lines, at, item...)
	return fix(join(lines)), nil
}

// lastContent is the index of the last line in lines[from:to] that holds more than blanks
// and comments; from when there is none. A comment after a view goes with what follows it.
func lastContent(lines []string, from, to int) int {
	for i := min(to, len(lines)) - 1; i > from; i-- {
		l := lines[i]
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		return i
	}
	return from
}
