package detail

import (
	"encoding/json"
	"testing"
)

// Custom data shows its numbers as the server sent them, keys sorted: an int64 at either
// end read through float64 showed as 9223372036854776000.
func TestCustomDataKeepsNumbersAsSent(t *testing.T) {
	got := compactJSON(json.RawMessage(` {"b": 9223372036854775807, "a": -9223372036854775808, "c": [1.5e300, 12]} `))
	if want := `{"a":-9223372036854775808,"b":9223372036854775807,"c":[1.5e300,12]}`; got != want {
		t.Errorf("compactJSON = %s, want %s", got, want)
	}
}
