package listing

import (
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// TopicsCell exposes topicsCell to the tests.
var TopicsCell = topicsCell

// KnownTopics are the names of the topics the filter form offers.
func KnownTopics(m Model) []string {
	topics, _ := m.known()
	return list.Map(topics, func(o forms.Option) string { return o.Name })
}
