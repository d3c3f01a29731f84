package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// The spec shows no fields of operators, notes, navigation events, slots and the away
// status (docs/api-notes.md). Their types read tolerantly: a field the server did not send
// stays unknown (Opt) instead of becoming a zero the server never said, plausible other
// names and shapes are read too, and every field parley does not read is kept (Extra) so
// that the screens can show what the server sent.

// Opt is a value the server may send, send as null, or leave out. Known is true only when
// a value arrived; a screen shows an unknown one as "—", never as the zero value. A value
// of another type is an error, as for every other field.
type Opt[T any] struct {
	V     T
	Known bool
	// Null is true when the field was there with the value null (Known is then false).
	Null bool
}

// Some is the known value v.
func Some[T any](v T) Opt[T] { return Opt[T]{V: v, Known: true} }

// Get returns the value and whether it is known.
func (o Opt[T]) Get() (T, bool) { return o.V, o.Known }

// UnmarshalJSON reads a value of T, or null (unknown, Null set).
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*o = Opt[T]{Null: true}
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = Opt[T]{V: v, Known: true}
	return nil
}

// MarshalJSON writes the value, or null when it is not known.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.Known {
		return []byte("null"), nil
	}
	return json.Marshal(o.V)
}

// ExtraField is one field of an answer that parley does not read: its key and its value as
// compact JSON (API text: sanitize before showing it).
type ExtraField struct {
	Key   string
	Value json.RawMessage
}

// Extra is the fields of an object that parley does not read, sorted by key.
type Extra []ExtraField

// Pairs renders the fields as "key=value", the value as compact JSON (API text: sanitize
// before showing it).
func (e Extra) Pairs() []string {
	out := make([]string, len(e))
	for i, f := range e {
		out[i] = f.Key + "=" + string(f.Value)
	}
	return out
}

// Get returns the value of key, if the object had it.
func (e Extra) Get(key string) (json.RawMessage, bool) {
	for _, f := range e {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// object is what is left of a JSON object once the fields of its type are decoded: the
// other fields by key, from which alternative names are taken before the rest becomes the
// type's Extra.
type object map[string]json.RawMessage

// decodeObject decodes b, a JSON object, into plain (a pointer to a struct type without an
// UnmarshalJSON of its own, so errors name the field as usual) and returns the fields that
// plain has no json tag for.
func decodeObject(b []byte, plain any) (object, error) {
	if err := json.Unmarshal(b, plain); err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	tags := fieldTags(reflect.TypeOf(plain).Elem())
	rest := object{}
	for k, v := range all {
		if !slices.Contains(tags, k) {
			rest[k] = v
		}
	}
	return rest, nil
}

// decodeKeeping decodes b, a JSON object, into plain (as decodeObject), lets take (when not
// nil) read alternative names from the fields plain has no json tag for, and keeps what is
// left in *extra. plain is the value being decoded, zeroed by the caller, under its plain
// type; extra is its Extra.
func decodeKeeping(b []byte, plain any, extra *Extra, take func(object)) error {
	rest, err := decodeObject(b, plain)
	if err != nil {
		return err
	}
	if take != nil {
		take(rest)
	}
	*extra = rest.extra()
	return nil
}

// fieldTags are the JSON names of a struct type's fields.
func fieldTags(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		name := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// take reads the first of keys that the object has with a value of dst's type (null and
// values of another type are passed over) into dst and removes that key (the others stay,
// to be shown). It reports whether one was read.
func (o object) take(dst any, keys ...string) bool {
	for _, k := range keys {
		raw, ok := o[k]
		if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			continue
		}
		if json.Unmarshal(raw, dst) == nil {
			delete(o, k)
			return true
		}
	}
	return false
}

// takeOpt is take for an Opt that is still unknown.
func takeOpt[T any](o object, dst *Opt[T], keys ...string) {
	if dst.Known {
		return
	}
	var v T
	if o.take(&v, keys...) {
		*dst = Some(v)
	}
}

// extra is the object's fields, sorted by key, the values compacted.
func (o object) extra() Extra {
	if len(o) == 0 {
		return nil
	}
	out := make(Extra, 0, len(o))
	for k, v := range o {
		out = append(out, ExtraField{Key: k, Value: compact(v)})
	}
	slices.SortFunc(out, func(a, b ExtraField) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// compact is raw JSON without insignificant white space.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// Alternative names of fields, tried after the names of docs/api-notes.md.
var (
	altAway      = []string{"away"}
	altOnline    = []string{"online"}
	altMaxSlots  = []string{"max_slots", "total_slots", "slots_max", "max_chats"}
	altSlotsUsed = []string{"used", "current", "used_slots", "occupied", "occupied_slots", "in_use"}
	altSlotsMax  = []string{"max", "total", "max_slots", "capacity", "limit"}
	altSlotsList = []string{"slots", "results", "reserved", "conversations"}
)

// UnmarshalJSON reads an operator: the fields of docs/api-notes.md, max_slots (or
// another name of it), and keeps the rest in Extra.
func (o *Operator) UnmarshalJSON(b []byte) error {
	type plain Operator
	*o = Operator{}
	return decodeKeeping(b, (*plain)(o), &o.Extra, func(rest object) {
		takeOpt(rest, &o.IsAway, altAway...)
		takeOpt(rest, &o.IsOnline, altOnline...)
		takeOpt(rest, &o.MaxSlots, altMaxSlots...)
	})
}

// UnmarshalJSON reads a note, keeping the fields it does not know in Extra.
func (n *Note) UnmarshalJSON(b []byte) error {
	type plain Note
	*n = Note{}
	return decodeKeeping(b, (*plain)(n), &n.Extra, nil)
}

// UnmarshalJSON reads a navigation event, keeping the fields it does not know in Extra.
func (e *NavigationEvent) UnmarshalJSON(b []byte) error {
	type plain NavigationEvent
	*e = NavigationEvent{}
	return decodeKeeping(b, (*plain)(e), &e.Extra, nil)
}

// UnmarshalJSON reads the slots answer in any of the shapes a server may plausibly give:
// {"current_slots", "total_slots"} (the sandbox's), the same under other names ("used" and
// "max", …), or the occupied slots as an array (bare, or under "slots" or "results"), whose
// length is the use. What it does not say stays unknown.
func (s *Slots) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var held []json.RawMessage
		if err := json.Unmarshal(b, &held); err != nil {
			return err
		}
		*s = Slots{CurrentSlots: Some(len(held)), Held: compactAll(held)}
		return nil
	}
	type plain Slots
	*s = Slots{}
	return decodeKeeping(b, (*plain)(s), &s.Extra, func(rest object) {
		if s.OperatorID == 0 {
			rest.take(&s.OperatorID, "id")
		}
		takeOpt(rest, &s.CurrentSlots, altSlotsUsed...)
		takeOpt(rest, &s.TotalSlots, altSlotsMax...)
		var held []json.RawMessage
		if rest.take(&held, altSlotsList...) {
			s.Held = compactAll(held)
			if !s.CurrentSlots.Known {
				s.CurrentSlots = Some(len(held))
			}
		}
	})
}

func compactAll(raw []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(raw))
	for i, r := range raw {
		out[i] = compact(r)
	}
	return out
}

// Total is the slot total: the answer's, else maxSlots, the operator record's max_slots (a
// server that lists the occupied slots keeps the total on the operator). Unknown when
// neither says.
func (s Slots) Total(maxSlots Opt[int]) Opt[int] {
	if s.TotalSlots.Known {
		return s.TotalSlots
	}
	return maxSlots
}

// UnmarshalJSON reads the answer of the away PATCH: {"operator_id", "is_away",
// "changed_at"} (the sandbox's), or the whole operator record (Operator is then set, and
// the online status is known from it). is_online in the away answer is read too.
func (a *AwayStatus) UnmarshalJSON(b []byte) error {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if _, ok := probe["id"]; ok {
		if _, hasOp := probe["operator_id"]; !hasOp {
			var op Operator
			if err := json.Unmarshal(b, &op); err != nil {
				return err
			}
			*a = AwayStatus{OperatorID: op.ID, IsAway: op.IsAway, IsOnline: op.IsOnline, Operator: &op}
			return nil
		}
	}
	type plain AwayStatus
	*a = AwayStatus{}
	return decodeKeeping(b, (*plain)(a), &a.Extra, func(rest object) {
		takeOpt(rest, &a.IsAway, altAway...)
		takeOpt(rest, &a.IsOnline, append([]string{"is_online"}, altOnline...)...)
	})
}
