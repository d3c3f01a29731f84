package sandbox

import (
	"maps"
	"slices"
	"testing"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/specfields"
)

// TestResponseTypesMatchSpecAndClient: the sandbox's response types and the client's types
// are written apart (docs/api-notes.md, "Two sets of API types"); each must have exactly
// the fields the API's tables (or docs/api-notes.md) name, and a field both have goes by
// one Go name on both sides.
func TestResponseTypesMatchSpecAndClient(t *testing.T) {
	for _, c := range []struct {
		object          string
		sandbox, client any
		extra           []string // the sandbox's beyond the tables: a variant's (variants.go)
	}{
		{specfields.Conversation, conversationJSON{}, client.Conversation{}, nil},
		{specfields.Part, partJSON{}, client.ConversationPart{}, nil},
		{specfields.Topic, topicJSON{}, client.Topic{}, nil},
		{specfields.Message, messageJSON{}, client.Message{}, nil},
		{specfields.Contact, contactJSON{}, client.Contact{}, nil},
		{specfields.Channel, channelJSON{}, client.ContactChannel{}, nil},
		{specfields.Widget, widgetJSON{}, client.Widget{}, nil},
		{specfields.Browser, partBrowser{}, client.Browser{}, nil},
		{specfields.Location, partLocation{}, client.Location{}, nil},
		{specfields.State, messageState{}, client.MessageState{}, nil},
		{specfields.Sender, messageSender{}, client.Sender{}, nil},
		{specfields.ConvRef, idObj{}, client.IDRef{}, nil},
		{specfields.DataPoint, pointJSON{}, client.DataPoint{}, nil},
		{specfields.Note, noteJSON{}, client.Note{}, nil},
		{specfields.Navigation, navigationJSON{}, client.NavigationEvent{}, nil},
		{specfields.Operator, operatorJSON{}, client.Operator{}, []string{"max_slots"}},
		{specfields.Slots, slotsJSON{}, client.Slots{}, nil},
		{specfields.Away, awayJSON{}, client.AwayStatus{}, nil},
	} {
		want := specfields.Fields(c.object)
		if len(want) == 0 {
			t.Fatalf("%s: no fields listed", c.object)
		}
		sb, cl := specfields.JSONNames(c.sandbox), specfields.JSONNames(c.client)
		for _, side := range []struct {
			v     any
			names map[string]string
			extra []string
		}{{c.sandbox, sb, c.extra}, {c.client, cl, nil}} {
			got := specfields.Without(slices.Collect(maps.Keys(side.names)), side.extra...)
			if missing, extra := specfields.Diff(got, want); len(missing)+len(extra) > 0 {
				t.Errorf("%s (%T): missing %v, extra %v", c.object, side.v, missing, extra)
			}
		}
		for _, name := range want {
			if s, ok := sb[name]; ok && cl[name] != "" && s != cl[name] {
				t.Errorf("%s.%s: the sandbox's field is %s, the client's %s", c.object, name, s, cl[name])
			}
		}
	}
}
