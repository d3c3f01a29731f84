package sat

import (
	"math"
	"math/big"
	"testing"
	"time"
)

// clamp8 is the exact result n brought into int8's range, and whether it was in it.
func clamp8(n int) (int8, bool) {
	switch {
	case n > math.MaxInt8:
		return math.MaxInt8, false
	case n < math.MinInt8:
		return math.MinInt8, false
	}
	return int8(n), true
}

// Every pair of int8 values gives the exact result clamped to the type, as computed in int.
func TestEveryInt8Pair(t *testing.T) {
	for a := math.MinInt8; a <= math.MaxInt8; a++ {
		if got, want := Neg(int8(a)), clampOnly(-a); got != want {
			t.Fatalf("Neg(%d) = %d, want %d", a, got, want)
		}
		if got, want := Abs(int8(a)), clampOnly(max(a, -a)); got != want {
			t.Fatalf("Abs(%d) = %d, want %d", a, got, want)
		}
		for b := math.MinInt8; b <= math.MaxInt8; b++ {
			for _, op := range []struct {
				name  string
				f     func(int8, int8) (int8, bool)
				exact int
			}{{"+", AddOK[int8], a + b}, {"-", SubOK[int8], a - b}, {"×", MulOK[int8], a * b}} {
				got, ok := op.f(int8(a), int8(b))
				want, wantOK := clamp8(op.exact)
				if got != want || ok != wantOK {
					t.Fatalf("%d %s %d = %d, %v; want %d, %v", a, op.name, b, got, ok, want, wantOK)
				}
			}
		}
	}
}

func clampOnly(n int) int8 { v, _ := clamp8(n); return v }

func TestBounds(t *testing.T) {
	if lo, hi := Bounds[int64](); lo != math.MinInt64 || hi != math.MaxInt64 {
		t.Errorf("int64: %d, %d", lo, hi)
	}
	if lo, hi := Bounds[int32](); lo != math.MinInt32 || hi != math.MaxInt32 {
		t.Errorf("int32: %d, %d", lo, hi)
	}
	if lo, hi := Bounds[int](); lo != math.MinInt || hi != math.MaxInt {
		t.Errorf("int: %d, %d", lo, hi)
	}
	if _, hi := Bounds[time.Duration](); hi != time.Duration(math.MaxInt64) {
		t.Errorf("time.Duration: %d", hi)
	}
}

func TestSum(t *testing.T) {
	if s := Sum[int64](math.MaxInt64, 1, 1); s != math.MaxInt64 {
		t.Errorf("Sum(max, 1, 1) = %d", s)
	}
	if s := Sum[int64](math.MinInt64, -1); s != math.MinInt64 {
		t.Errorf("Sum(min, -1) = %d", s)
	}
	if s := Sum(1, 2, 3); s != 6 {
		t.Errorf("Sum(1, 2, 3) = %d", s)
	}
}

// For int64 the results agree with exact arithmetic clamped to the type.
func FuzzInt64(f *testing.F) {
	for _, p := range [][2]int64{{0, 0}, {math.MaxInt64, 1}, {math.MinInt64, -1}, {math.MinInt64, math.MinInt64},
		{math.MaxInt64, math.MaxInt64}, {math.MinInt64, 1}, {-1, math.MinInt64}, {3037000500, 3037000500}, {-3037000500, 3037000500}} {
		f.Add(p[0], p[1])
	}
	lo, hi := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	clamp := func(n *big.Int) (int64, bool) {
		switch {
		case n.Cmp(hi) > 0:
			return math.MaxInt64, false
		case n.Cmp(lo) < 0:
			return math.MinInt64, false
		}
		return n.Int64(), true
	}
	f.Fuzz(func(t *testing.T, a, b int64) {
		x, y := big.NewInt(a), big.NewInt(b)
		for _, op := range []struct {
			name  string
			f     func(int64, int64) (int64, bool)
			exact *big.Int
		}{
			{"+", AddOK[int64], new(big.Int).Add(x, y)},
			{"-", SubOK[int64], new(big.Int).Sub(x, y)},
			{"×", MulOK[int64], new(big.Int).Mul(x, y)},
		} {
			got, ok := op.f(a, b)
			want, wantOK := clamp(op.exact)
			if got != want || ok != wantOK {
				t.Fatalf("%d %s %d = %d, %v; want %d, %v", a, op.name, b, got, ok, want, wantOK)
			}
		}
		if got, want := Neg(a), func() int64 { v, _ := clamp(new(big.Int).Neg(x)); return v }(); got != want {
			t.Fatalf("Neg(%d) = %d, want %d", a, got, want)
		}
	})
}
