package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"reflect"
	"strings"
	"unicode"
)

// checker is what every type a success answer is decoded into implements: the endpoint's
// promise about its answer. check says, after "the API answered 200 but ", why the decoded
// value cannot be believed ("the note it returned has no id"), or "" when it can. do()
// takes only checkers, so no endpoint decodes an answer without declaring what it expects.
type checker interface {
	check() string
}

// resource is an API object that must carry its id to be of any use.
type resource interface {
	// identity names it in an error ("conversation") and reports whether it carries its id.
	identity() (kind string, hasID bool)
}

// checkResource is the check of a single resource.
func checkResource(r resource) string {
	if kind, ok := r.identity(); !ok {
		return "the " + kind + " it returned has no id"
	}
	return ""
}

// checkItems is the check of a list: it must have come with results, and every item that is
// a resource must carry its id.
func checkItems[T any](results []T, noResults bool) string {
	if noResults || results == nil {
		return "the list it returned has no results"
	}
	for i, item := range results {
		if r, ok := any(item).(resource); ok {
			if kind, ok := r.identity(); !ok {
				return fmt.Sprintf("%s %d of the %d it returned has no id", kind, i+1, len(results))
			}
		}
	}
	return ""
}

func (c Conversation) identity() (string, bool) { return "conversation", c.ID != 0 }
func (c *Conversation) check() string           { return checkResource(c) }

func (c Contact) identity() (string, bool) { return "contact", c.ID != 0 }
func (c *Contact) check() string           { return checkResource(c) }

func (m Message) identity() (string, bool) { return "message", m.ID != "" }

func (n Note) identity() (string, bool) { return "note", n.ID != 0 }
func (n *Note) check() string           { return checkResource(n) }

func (o Operator) identity() (string, bool) { return "operator", o.ID != 0 }
func (o *Operator) check() string           { return checkResource(o) }

// Slots: the spec shows no fields, so any object or array is read; what it does not say
// stays unknown (shown as "—").
func (s *Slots) check() string { return "" }

// The away status: any JSON object is read (the operators screen reads the operator again
// when the answer does not state what it needs), but an answer that is an operator record
// must carry its id, as every operator must.
func (a *AwayStatus) check() string {
	if a.Operator != nil {
		return checkResource(a.Operator)
	}
	return ""
}

func (p *Page[T]) check() string       { return checkItems(p.Results, p.noResults) }
func (p *CursorPage[T]) check() string { return checkItems(p.Results, p.noResults) }

// accept decodes a success answer's body into out and checks it. The error, a
// *BadResponseError, says in plain words why the answer cannot be believed.
func accept(method, path string, status int, h http.Header, body []byte, out checker) error {
	bad := func(reason string, err error) error {
		return &BadResponseError{Method: method, Path: path, Status: status, Reason: fmt.Sprintf("the API answered %d %s", status, reason), Err: err}
	}
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		return bad("with an empty body", nil)
	case isHTML(h, trimmed):
		return bad("with an HTML page instead of JSON"+titleNote(trimmed), nil)
	}
	// Start from nothing: out may hold what a body that failed its checks left in it.
	if v := reflect.ValueOf(out); v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().SetZero()
	}
	if err := json.Unmarshal(trimmed, out); err != nil {
		// Unmarshal checks the whole body is JSON before it decodes anything: a syntax
		// error is a body that is not JSON at all.
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return bad("with a body that is not valid JSON"+syntaxNote(syn, len(trimmed)), err)
		}
		return bad("with JSON of another shape ("+shapeNote(err)+")", err)
	}
	if reason := out.check(); reason != "" {
		return bad("but "+reason, nil)
	}
	return nil
}

// isHTML reports a body that is an HTML page: it starts with a tag, or it is declared HTML and
// is not JSON.
func isHTML(h http.Header, body []byte) bool {
	b := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
	if len(b) > 0 && b[0] == '<' {
		return true
	}
	ct := strings.ToLower(h.Get("Content-Type"))
	return (strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "application/xhtml")) && len(b) > 0 && !json.Valid(b)
}

// asciiLower is b with the ASCII capitals in lower case and every other byte as it is, so
// an index into it is an index into b (bytes.ToLower changes the length of invalid UTF-8
// and of some letters).
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// maxTitle bounds the page title quoted in an error.
const maxTitle = 60

// titleNote is " (title: …)" with the page's title as plain text (entities decoded, control
// characters dropped, white space collapsed, cut at a word), or "" when it has none.
func titleNote(page []byte) string {
	if len(page) > 64<<10 {
		page = page[:64<<10]
	}
	lower := asciiLower(page)
	start := bytes.Index(lower, []byte("<title"))
	if start < 0 {
		return ""
	}
	open := bytes.IndexByte(lower[start:], '>')
	if open < 0 {
		return ""
	}
	from := start + open + 1
	end := bytes.Index(lower[from:], []byte("</title"))
	if end < 0 {
		return ""
	}
	title := html.UnescapeString(string(page[from : from+end]))
	title = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, title)
	title = strings.Join(strings.Fields(title), " ")
	if title == "" {
		return ""
	}
	if len(title) > maxTitle {
		cutAt := strings.LastIndexByte(title[:maxTitle+1], ' ')
		if cutAt <= 0 {
			cutAt = maxTitle
		}
		title = strings.TrimSpace(cut(title, cutAt))
		title = strings.TrimSuffix(title, "…") + "…"
	}
	return " (title: " + title + ")"
}

// syntaxNote says where a body that is not JSON breaks off, when it is JSON cut short.
func syntaxNote(syn *json.SyntaxError, n int) string {
	if syn.Error() == "unexpected end of JSON input" {
		return fmt.Sprintf(" (it breaks off after %d bytes)", n)
	}
	return ""
}

// shapeNote says in plain words why JSON did not fit the expected type: "id is a string where
// a number belongs".
func shapeNote(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		what := "a " + te.Value
		switch te.Value {
		case "array", "object":
			what = "an " + te.Value
		}
		if strings.HasPrefix(te.Value, "number") {
			what = "a number"
		}
		belongs := kindWord(te.Type)
		if te.Field == "" {
			return what + " where " + belongs + " belongs"
		}
		return te.Field + " is " + what + " where " + belongs + " belongs"
	}
	return cut(err.Error(), 120)
}

// kindWord names a Go type as JSON would: "a number", "an object".
func kindWord(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another value"
}
