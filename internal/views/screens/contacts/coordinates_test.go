package contacts

import (
	"math"
	"testing"
)

// Coordinates show as sent where they are a place on Earth, "—" where they cannot be one.
func TestCoordinates(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lat, lon float64
		want     string
	}{
		{52.52, 13.405, "52.5200, 13.4050"}, {-90, 180, "-90.0000, 180.0000"},
		{float64(math.MaxInt64), float64(math.MinInt64), "—, —"}, {91, -181, "—, —"}, {math.NaN(), math.Inf(1), "—, —"},
	} {
		if got := coordinates(c.lat, c.lon); got != c.want {
			t.Errorf("coordinates(%v, %v) = %q, want %q", c.lat, c.lon, got, c.want)
		}
	}
}
