package client

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parley-tui/parley/internal/when"
)

// A list resource's query is declared once, here: each filter parameter with its name, its
// place in the filter struct, its validation, the words a person reads for it (the form's
// label and group, the header's short form, the command-line flag and its help) and the
// rule that judges a row by its own fields; each ordering with its words. The query
// encoding below, the filter forms, the saved views and the config file's check of them,
// the command-line flags, the list headers and the team hub's merge all read it.

// Kind is what a filter parameter's value is.
type Kind int

const (
	// KindText is text, sent as given (without the spaces around it).
	KindText Kind = iota
	// KindEnum is one of the Choices; the command line sends another word with a warning
	// (the spec lists the values it has seen, not all there are).
	KindEnum
	// KindID is a positive integer id.
	KindID
	// KindDate is an instant, sent as ISO 8601 to the microsecond.
	KindDate
	// KindBool is true or false.
	KindBool
)

// Choice is one value of an enum or a yes/no parameter, in a person's words.
type Choice struct {
	Value string // as sent
	Label string // the form's option ("● new", "✓ verified")
	Short string // the header's words ("" = Value)
	Help  string // what a shell's completion says of it ("" = nothing)
}

// Verdict is what a row's own fields say about whether a filter lists it.
type Verdict int

const (
	// CannotTell: only the server knows (a field the answer left out, a widget a part of the
	// conversation may have used).
	CannotTell Verdict = iota
	// Listed: the filter lists the row.
	Listed
	// NotListed: the filter leaves the row out.
	NotListed
)

// Param is one filter parameter of a list endpoint. Exactly one of Text, ID, Date and Bool
// is set: the field of the filter struct F that holds the value, which also gives the kind
// (Text with Choices is an enum). R is the resource the list lists.
type Param[F, R any] struct {
	Name string // the API's query parameter

	Text func(*F) *string
	ID   func(*F) *int64
	Date func(*F) *time.Time
	Bool func(*F) **bool

	// Label is the form field's title; Group the title of the form group it is in (the
	// fields of a group in the order declared).
	Label, Group string
	// Short is the header's form of the set value: a format with one verb, given the value
	// as shown (a name for an id with Names, a date as when.Format writes it, a choice's
	// Short words). "" for the resource's Status, which the header shows apart.
	Short string
	// Flag is the command-line flag ("" = none); Usage its help.
	Flag, Usage string
	// Names is the resource an id is one of (operator, topic, widget): its name stands for
	// the id in the header where known, and the form offers the known ones to pick.
	Names string
	// Any is a picking field's words for "not set" (with Names or Choices).
	Any string
	// Choices are an enum's values or a yes/no parameter's two.
	Choices []Choice
	// Hint is the form field's placeholder ("" = none).
	Hint string
	// Upper marks a date that ends a range: a day alone given on the command line means the
	// whole day, as the API reads a date in an upper bound.
	Upper bool
	// Leavable marks a filter whose set a row can leave by a change of its own (a status, an
	// operator, topics, a later message or update): a revalidation of a held answer leaves
	// it out and asks about the wider set, in which such a change shows. The others (the
	// contact, the widget, ids, "from" dates) hold a row once it matches, or it enters them
	// only by a change, which shows.
	Leavable bool
	// Check validates a text value beyond its kind (an email, a locale); "" always passes.
	Check func(string) error
	// Match is the team hub's rule: what the row's own fields say about the set value. Nil
	// when they cannot say anything: a query with the parameter set is then not known at
	// all, whatever the other parameters say.
	Match func(F, R) Verdict
}

// UpdatedFrom is the conversation list's parameter for the conversations updated since a
// time: what a refresh, the hub's poll and a revalidation ask for changes with.
const UpdatedFrom = "updated_at_from_date"

// OperatorMe is the value a saved view may hold for an operator parameter (Names
// "operator") instead of an id: the operator parley acts as when the view is shown (the
// built-in view Mine holds it).
const OperatorMe = "me"

// TakesMe reports whether the parameter is an operator's id, which a saved view may hold
// as OperatorMe.
func (p Param[F, R]) TakesMe() bool { return p.ID != nil && p.Names == "operator" }

// Kind is the kind of the parameter's value.
func (p Param[F, R]) Kind() Kind {
	switch {
	case p.ID != nil:
		return KindID
	case p.Date != nil:
		return KindDate
	case p.Bool != nil:
		return KindBool
	case len(p.Choices) > 0:
		return KindEnum
	}
	return KindText
}

// IsSet reports whether f sets the parameter.
func (p Param[F, R]) IsSet(f F) bool { return p.Value(f) != "" }

// Clear unsets the parameter in f.
func (p Param[F, R]) Clear(f *F) {
	switch {
	case p.ID != nil:
		*p.ID(f) = 0
	case p.Date != nil:
		*p.Date(f) = time.Time{}
	case p.Bool != nil:
		*p.Bool(f) = nil
	default:
		*p.Text(f) = ""
	}
}

// Value is the parameter's value in f as the API takes it ("" = not set).
func (p Param[F, R]) Value(f F) string {
	switch {
	case p.ID != nil:
		if v := *p.ID(&f); v != 0 {
			return strconv.FormatInt(v, 10)
		}
	case p.Date != nil:
		if t := *p.Date(&f); !t.IsZero() {
			return formatFilterTime(t)
		}
	case p.Bool != nil:
		if b := *p.Bool(&f); b != nil {
			return strconv.FormatBool(*b)
		}
	default:
		return *p.Text(&f)
	}
	return ""
}

// Parse sets the parameter in f from s as the API takes it, the way a saved view and the
// config file hold it: an id a positive integer, a date a date or ISO 8601
// (when.ParseStamp), a yes/no true or false, an enum one of its choices, a text what its
// Check accepts (an empty text clears it). The error says what is wrong with s.
func (p Param[F, R]) Parse(f *F, s string) error {
	s = strings.TrimSpace(s)
	switch p.Kind() {
	case KindID:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a positive integer id", s)
		}
		*p.ID(f) = n
	case KindDate:
		t, err := when.ParseStamp(s)
		if err != nil {
			return err
		}
		*p.Date(f) = t
	case KindBool:
		var b bool
		switch strings.ToLower(s) {
		case "true":
			b = true
		case "false":
		default:
			return fmt.Errorf("%q is not true or false", s)
		}
		*p.Bool(f) = &b
	case KindEnum:
		if !slices.ContainsFunc(p.Choices, func(c Choice) bool { return c.Value == s }) {
			return fmt.Errorf("%q is not %s", s, p.ChoiceWords())
		}
		*p.Text(f) = s
	default:
		if p.Check != nil {
			if err := p.Check(s); err != nil {
				return err
			}
		}
		*p.Text(f) = s
	}
	return nil
}

// ChoiceWords lists the choices' values: "new, pending or ended".
func (p Param[F, R]) ChoiceWords() string {
	vs := make([]string, len(p.Choices))
	for i, c := range p.Choices {
		vs[i] = c.Value
	}
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// Choice is the choice of value v (false when none is v).
func (p Param[F, R]) Choice(v string) (Choice, bool) {
	i := slices.IndexFunc(p.Choices, func(c Choice) bool { return c.Value == v })
	if i < 0 {
		return Choice{}, false
	}
	return p.Choices[i], true
}

// Ordering is one value of a list's ordering parameter.
type Ordering struct {
	// Value is as sent: a field, with a leading "-" for descending. For an Implied ordering
	// it only names the order (in a query, a saved view, the config file), never sent.
	Value string
	// Words name it in a narrow header ("last msg↓", "name A→Z").
	Words string
	// Says names it in a person's words, where there is room ("by last message, newest
	// first").
	Says string
	// Implied: the server's order when a request names none, which the spec gives no value
	// to send (the contact list's id descending).
	Implied bool
}

// Resource is what a list endpoint takes besides paging and search: its filter parameters
// (in the order forms, headers and help show them), its orderings and their words.
type Resource[F, R any] struct {
	Params []Param[F, R]
	// Orderings are the values of the ordering parameter, in the order the ordering key
	// walks them.
	Orderings []Ordering
	// Default is the ordering the server uses when a request names none: one of Orderings.
	Default string
	// Shown is the ordering the resource's list shows when its query names none and the
	// config file names no other: one of Orderings, what each row's time then shows.
	Shown string
	// Status names the status parameter, which a saved view keeps under a key of its own
	// and the header shows apart ("" = the resource has none).
	Status string
	// Check judges the parameters together (a range the wrong way round): the parameter the
	// problem is shown at ("" = the filter as a whole) and the problem.
	Check func(F) (param string, err error)
}

// Param is the parameter called name.
func (r Resource[F, R]) Param(name string) (Param[F, R], bool) {
	i := slices.IndexFunc(r.Params, func(p Param[F, R]) bool { return p.Name == name })
	if i < 0 {
		return Param[F, R]{}, false
	}
	return r.Params[i], true
}

// Names are the parameters' names, sorted.
func (r Resource[F, R]) Names() []string {
	out := make([]string, len(r.Params))
	for i, p := range r.Params {
		out[i] = p.Name
	}
	slices.Sort(out)
	return out
}

// IsZero reports whether f sets no parameter.
func (r Resource[F, R]) IsZero(f F) bool {
	return !slices.ContainsFunc(r.Params, func(p Param[F, R]) bool { return p.IsSet(f) })
}

// encode adds the parameters f sets to q.
func (r Resource[F, R]) encode(f F, q url.Values) {
	for _, p := range r.Params {
		if v := p.Value(f); v != "" {
			q.Set(p.Name, v)
		}
	}
}

// Values encodes the parameters f sets as the API takes them.
func (r Resource[F, R]) Values(f F) url.Values {
	q := url.Values{}
	r.encode(f, q)
	return q
}

// Match judges, from row's own fields, whether the API lists row for filter f: match is
// meaningful only when known. known is false when a parameter set has no rule, or when
// none leaves the row out and one cannot tell; a parameter that leaves it out decides.
func (r Resource[F, R]) Match(f F, row R) (match, known bool) {
	for _, p := range r.Params {
		if p.Match == nil && p.IsSet(f) {
			return false, false
		}
	}
	unknown := false
	for _, p := range r.Params {
		if !p.IsSet(f) {
			continue
		}
		switch p.Match(f, row) {
		case NotListed:
			return false, true
		case CannotTell:
			unknown = true
		}
	}
	return !unknown, !unknown
}

// OrderingValues are the orderings that can be sent.
func (r Resource[F, R]) OrderingValues() []string {
	var out []string
	for _, o := range r.Orderings {
		if !o.Implied {
			out = append(out, o.Value)
		}
	}
	return out
}

// Request is the ordering parameter a request for ordering o sends: none ("") for the
// server's default, so that query has one URL (and one entry in the response cache).
func (r Resource[F, R]) Request(o string) string {
	if o == r.Default {
		return ""
	}
	return o
}

// OrderingCycle are the orderings in the order the ordering key walks them, the server's
// default included: every ordering a query, a saved view or the config file may name.
func (r Resource[F, R]) OrderingCycle() []string {
	out := make([]string, len(r.Orderings))
	for i, o := range r.Orderings {
		out[i] = o.Value
	}
	return out
}

// OrderingWords name ordering o in the header ("" = the server's default); an unknown
// one is named as given.
func (r Resource[F, R]) OrderingWords(o string) string {
	if x, ok := r.ordering(o); ok {
		return x.Words
	}
	return o
}

// OrderingSays names ordering o in a person's words ("" = the server's default); an
// unknown one is named as given.
func (r Resource[F, R]) OrderingSays(o string) string {
	if x, ok := r.ordering(o); ok {
		return x.Says
	}
	return o
}

// ordering is the declared ordering o ("" = the server's default), if it is one.
func (r Resource[F, R]) ordering(o string) (Ordering, bool) {
	if o == "" {
		o = r.Default
	}
	if i := slices.IndexFunc(r.Orderings, func(x Ordering) bool { return x.Value == o }); i >= 0 {
		return r.Orderings[i], true
	}
	return Ordering{}, false
}

// yes is a rule's verdict on a condition the row's fields decide.
func yes(ok bool) Verdict {
	if ok {
		return Listed
	}
	return NotListed
}

// onOrAfter is the rule of a lower time bound, inclusive to the microsecond (as the client
// sends it): a null time is after nothing, one the answer left out only the server can
// judge.
func onOrAfter(at *Time, from time.Time) Verdict {
	if v, ok := null(at); !ok {
		return v
	}
	return yes(!at.Before(from.Truncate(time.Microsecond)))
}

// onOrBefore is the rule of an upper time bound, as onOrAfter.
func onOrBefore(at *Time, to time.Time) Verdict {
	if v, ok := null(at); !ok {
		return v
	}
	return yes(!at.After(to.Truncate(time.Microsecond)))
}

// null is the verdict on a time that is not there: nil (null in the answer) is within no
// bound, a zero one (left out of the answer) cannot be told. ok: the time is there.
func null(at *Time) (v Verdict, ok bool) {
	switch {
	case at == nil:
		return NotListed, false
	case at.IsZero():
		return CannotTell, false
	}
	return 0, true
}

// The conversation list (spec: Filters (conversations list, delete and all); Ordering).
type cf = ConversationFilter

// Conversations is the conversation list's query.
var Conversations = Resource[ConversationFilter, Conversation]{
	Params: []Param[ConversationFilter, Conversation]{
		{Name: "status", Leavable: true, Text: func(f *cf) *string { return &f.Status }, Label: "Status", Group: "Who and what",
			Flag: "status", Usage: "status: new, pending or ended (another word is sent as given, with a warning)", Any: "any",
			Choices: []Choice{{StatusNew, "● new", "", "not yet answered"}, {StatusPending, "◐ pending", "", "in progress"},
				{StatusEnded, "○ ended", "", "closed"}},
			// Compared as sent, not folded.
			Match: func(f cf, c Conversation) Verdict { return yes(c.Status == f.Status) }},
		{Name: "operator_id", Leavable: true, ID: func(f *cf) *int64 { return &f.OperatorID }, Label: "Operator", Group: "Who and what",
			Short: "assigned to %s", Names: "operator", Any: "any operator", Flag: "operator-id", Usage: "conversations of this operator",
			Match: func(f cf, c Conversation) Verdict {
				return yes(c.OperatorAssignedTo != nil && *c.OperatorAssignedTo == f.OperatorID)
			}},
		{Name: "topics", Leavable: true, ID: func(f *cf) *int64 { return &f.TopicID }, Label: "Topic", Group: "Who and what",
			Short: "topic:%s", Names: "topic", Any: "any topic", Flag: "topic", Usage: "conversations with this topic id",
			Match: func(f cf, c Conversation) Verdict {
				return yes(slices.ContainsFunc(c.Topics, func(t Topic) bool { return t.ID == f.TopicID }))
			}},
		{Name: "um_widget_id", ID: func(f *cf) *int64 { return &f.WidgetID }, Label: "Widget", Group: "Who and what",
			Short: "widget:%s", Names: "widget", Any: "any widget", Flag: "widget", Usage: "conversations via this widget id",
			// Another widget than its own: a part of it may have gone through that one (lists
			// carry no parts).
			Match: func(f cf, c Conversation) Verdict {
				if c.Widget.ID == f.WidgetID {
					return Listed
				}
				return CannotTell
			}},
		{Name: "contact_identity_id", ID: func(f *cf) *int64 { return &f.ContactIdentityID }, Label: "Contact id", Group: "Ids",
			Short: "contact:%s", Flag: "contact", Usage: "conversations of this contact id",
			Match: func(f cf, c Conversation) Verdict { return yes(c.Contact.ID == f.ContactIdentityID) }},
		{Name: "contact_uuid", Text: func(f *cf) *string { return &f.ContactUUID }, Label: "Contact UUID (conversation contact)",
			Group: "Ids", Short: "uuid:%s", Flag: "contact-uuid", Usage: "conversation contact UUID (contact_uuid)",
			Match: func(f cf, c Conversation) Verdict { return yes(c.ConversationContactUUID == f.ContactUUID) }},
		{Name: "id__gt", ID: func(f *cf) *int64 { return &f.IDGreaterThan }, Label: "Id greater than", Group: "Ids",
			Short: "id>%s", Flag: "id-gt", Usage: "id greater than",
			Match: func(f cf, c Conversation) Verdict { return yes(c.ID > f.IDGreaterThan) }},
		{Name: "id__lt", ID: func(f *cf) *int64 { return &f.IDLessThan }, Label: "Id smaller than", Group: "Ids",
			Short: "id<%s", Flag: "id-lt", Usage: "id smaller than",
			Match: func(f cf, c Conversation) Verdict { return yes(c.ID < f.IDLessThan) }},
		{Name: "contact_first_message_from_date", Date: func(f *cf) *time.Time { return &f.ContactFirstMessageFromDate },
			Label: "First contact message after", Group: "Contact messages", Short: "first≥%s",
			Flag: "first-message-from", Usage: "first contact message sent after",
			Match: func(f cf, c Conversation) Verdict {
				return onOrAfter(c.ContactFirstMessageSentAt, f.ContactFirstMessageFromDate)
			}},
		{Name: "contact_first_message_to_date", Date: func(f *cf) *time.Time { return &f.ContactFirstMessageToDate },
			Label: "First contact message before", Group: "Contact messages", Short: "first≤%s", Upper: true,
			Flag: "first-message-to", Usage: "first contact message sent up to",
			Match: func(f cf, c Conversation) Verdict {
				return onOrBefore(c.ContactFirstMessageSentAt, f.ContactFirstMessageToDate)
			}},
		{Name: "contact_last_message_from_date", Date: func(f *cf) *time.Time { return &f.ContactLastMessageFromDate },
			Label: "Last contact message after", Group: "Contact messages", Short: "last≥%s",
			Flag: "last-message-from", Usage: "last contact message sent after",
			Match: func(f cf, c Conversation) Verdict {
				return onOrAfter(c.ContactLastMessageSentAt, f.ContactLastMessageFromDate)
			}},
		{Name: "contact_last_message_to_date", Leavable: true, Date: func(f *cf) *time.Time { return &f.ContactLastMessageToDate },
			Label: "Last contact message before", Group: "Contact messages", Short: "last≤%s", Upper: true,
			Flag: "last-message-to", Usage: "last contact message sent up to",
			Match: func(f cf, c Conversation) Verdict {
				return onOrBefore(c.ContactLastMessageSentAt, f.ContactLastMessageToDate)
			}},
		{Name: UpdatedFrom, Date: func(f *cf) *time.Time { return &f.UpdatedAtFromDate },
			Label: "Updated after", Group: "Activity", Short: "updated≥%s", Flag: "updated-from", Usage: "last update after",
			Match: func(f cf, c Conversation) Verdict { return onOrAfter(&c.UpdatedAt, f.UpdatedAtFromDate) }},
		{Name: "updated_at_to_date", Leavable: true, Date: func(f *cf) *time.Time { return &f.UpdatedAtToDate },
			Label: "Updated before", Group: "Activity", Short: "updated≤%s", Upper: true, Flag: "updated-to", Usage: "last update up to",
			Match: func(f cf, c Conversation) Verdict { return onOrBefore(&c.UpdatedAt, f.UpdatedAtToDate) }},
		// The last activity: a conversation carries no such time, so no rule.
		{Name: "last_activity_from_date", Date: func(f *cf) *time.Time { return &f.LastActivityFromDate },
			Label: "Last activity after", Group: "Activity", Short: "activity≥%s", Flag: "activity-from", Usage: "last activity after"},
		{Name: "last_activity_to_date", Leavable: true, Date: func(f *cf) *time.Time { return &f.LastActivityToDate },
			Label: "Last activity before", Group: "Activity", Short: "activity≤%s", Upper: true,
			Flag: "activity-to", Usage: "last activity up to"},
	},
	Orderings: []Ordering{
		{Value: "-id", Words: "id↓", Says: "newest first"}, {Value: "id", Words: "id↑", Says: "oldest first"},
		{Value: "-last_message_sent_at", Words: "last msg↓", Says: "by last message, newest first"},
		{Value: "last_message_sent_at", Words: "last msg↑", Says: "by last message, oldest first"},
		{Value: "-contact_last_message_sent_at", Words: "contact last↓", Says: "by the contact's last message, newest first"},
		{Value: "contact_last_message_sent_at", Words: "contact last↑", Says: "by the contact's last message, oldest first"},
		{Value: "-contact_first_message_sent_at", Words: "contact first↓", Says: "by the contact's first message, newest first"},
		{Value: "contact_first_message_sent_at", Words: "contact first↑", Says: "by the contact's first message, oldest first"},
		{Value: "-contact_last_update_at", Words: "contact upd↓", Says: "by the contact's last update, newest first"},
		{Value: "contact_last_update_at", Words: "contact upd↑", Says: "by the contact's last update, oldest first"},
	},
	Default: "-id",
	// By last message, newest first: what each row's age shows.
	Shown:  "-last_message_sent_at",
	Status: "status",
	Check: func(f cf) (string, error) {
		if f.IDGreaterThan > 0 && f.IDLessThan > 0 && f.IDGreaterThan >= f.IDLessThan-1 {
			return "id__gt", fmt.Errorf("no id is greater than %d and smaller than %d", f.IDGreaterThan, f.IDLessThan)
		}
		return "", nil
	},
}

// The contact list (spec: Filters (contacts list, delete and all); Ordering).
type kf = ContactFilter

// Contacts is the contact list's query.
var Contacts = Resource[ContactFilter, Contact]{
	Params: []Param[ContactFilter, Contact]{
		{Name: "name", Text: func(f *kf) *string { return &f.Name }, Label: "Name", Group: "Who", Hint: "exact name",
			Short: "name:%q", Flag: "name", Usage: "contacts with this name"},
		{Name: "email", Text: func(f *kf) *string { return &f.Email }, Label: "Email", Group: "Who", Hint: "name@example.com",
			Check: ValidEmail, Short: "email:%s", Flag: "email", Usage: "the contact with this email"},
		{Name: "id", ID: func(f *kf) *int64 { return &f.ID }, Label: "Contact id", Group: "Who",
			Short: "id:%s", Flag: "id", Usage: "the contact with this id"},
		{Name: "locale", Text: func(f *kf) *string { return &f.Locale }, Label: "Locale", Group: "Who", Hint: "de_DE",
			Check: ValidLocale, Short: "locale:%s", Flag: "locale", Usage: "contacts with this locale (ll_CC, such as de_DE)"},
		{Name: "from_date_time", Date: func(f *kf) *time.Time { return &f.FromDateTime }, Label: "Active after", Group: "Activity",
			Short: "active≥%s", Flag: "active-from", Usage: "contacts active after"},
		{Name: "to_date_time", Date: func(f *kf) *time.Time { return &f.ToDateTime }, Label: "Active before", Group: "Activity",
			Short: "active≤%s", Upper: true, Flag: "active-to", Usage: "contacts active up to"},
		{Name: "verified", Bool: func(f *kf) **bool { return &f.Verified }, Label: "Verified (email or mobile)", Group: "Activity",
			Short: "%s", Any: "any", Flag: "verified", Usage: "contacts with (true) or without (false) a verified email or mobile number",
			Choices: []Choice{{Value: "true", Label: "✓ verified", Short: "verified"}, {Value: "false", Label: "not verified", Short: "unverified"}}},
	},
	Orderings: []Ordering{
		{Value: "-id", Words: "newest", Says: "newest first", Implied: true},
		{Value: "-created_at", Words: "created ↓", Says: "by creation, newest first"},
		{Value: "created_at", Words: "created ↑", Says: "by creation, oldest first"},
		{Value: "name", Words: "name A→Z", Says: "by name, A to Z"}, {Value: "-name", Words: "name Z→A", Says: "by name, Z to A"},
		{Value: "email", Words: "email A→Z", Says: "by email, A to Z"}, {Value: "-email", Words: "email Z→A", Says: "by email, Z to A"},
	},
	// The server's order when a request names none (spec: id descending); the spec gives
	// the contact list no id ordering to send.
	Default: "-id",
	// By creation, newest first, what each row's time then shows: the API orders contacts
	// by no time of their last message.
	Shown: "-created_at",
	Check: func(f kf) (string, error) {
		if !f.FromDateTime.IsZero() && !f.ToDateTime.IsZero() && !f.FromDateTime.Before(f.ToDateTime) {
			return "", fmt.Errorf("active after (%s) must be before active before (%s)",
				when.Format(f.FromDateTime), when.Format(f.ToDateTime))
		}
		return "", nil
	},
}
