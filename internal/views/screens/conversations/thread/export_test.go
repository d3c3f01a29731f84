package thread

// IDs are the ids of the loaded messages, oldest first.
func IDs(m Model) []string {
	out := make([]string, len(m.items))
	for i, it := range m.items {
		out[i] = it.id
	}
	return out
}
