// Package sat is saturating integer arithmetic for numbers that came from outside (JSON
// answers, files, flags, the environment), which may be anything their type holds: a sum,
// difference, product or negation that would overflow gives the nearest bound of the type
// instead of wrapping around to a number of the other sign. The *OK forms also report
// whether the exact result fitted, for callers that refuse an out-of-range result with an
// error instead.
//
// It imports nothing but unsafe (for the width of a type), so every package may use it.
package sat

import "unsafe"

// Int is the signed integer types (and types based on them, such as time.Duration).
type Int interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

// Bounds are the least and the greatest value of T.
func Bounds[T Int]() (lo, hi T) {
	var zero T
	bits := 8 * unsafe.Sizeof(zero)
	hi = T(^uint64(0) >> (65 - bits))
	return -hi - 1, hi
}

// AddOK is a+b, and whether it fitted in T; when it did not, the bound it passed.
func AddOK[T Int](a, b T) (T, bool) {
	s := a + b
	if (s > a) == (b > 0) {
		return s, true
	}
	lo, hi := Bounds[T]()
	if b > 0 {
		return hi, false
	}
	return lo, false
}

// Add is a+b, or the bound of T it passed.
func Add[T Int](a, b T) T {
	s, _ := AddOK(a, b)
	return s
}

// SubOK is a-b, and whether it fitted in T; when it did not, the bound it passed.
func SubOK[T Int](a, b T) (T, bool) {
	if lo, hi := Bounds[T](); b == lo { // -b does not fit: a-b = a+|lo|, past hi from 0 on
		if a >= 0 {
			return hi, false
		}
		return a - b, true
	}
	return AddOK(a, -b)
}

// Sub is a-b, or the bound of T it passed.
func Sub[T Int](a, b T) T {
	d, _ := SubOK(a, b)
	return d
}

// Neg is -a; the least value of T, whose negation does not fit, gives the greatest.
func Neg[T Int](a T) T {
	lo, hi := Bounds[T]()
	if a == lo {
		return hi
	}
	return -a
}

// Abs is |a|; the least value of T gives the greatest.
func Abs[T Int](a T) T {
	if a < 0 {
		return Neg(a)
	}
	return a
}

// MulOK is a×b, and whether it fitted in T; when it did not, the bound it passed.
func MulOK[T Int](a, b T) (T, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	lo, hi := Bounds[T]()
	// lo × -1 wraps to lo, which the division check cannot see: Go's lo / -1 is lo.
	if p/b == a && !(b == -1 && a == lo) {
		return p, true
	}
	if (a > 0) == (b > 0) {
		return hi, false
	}
	return lo, false
}

// Mul is a×b, or the bound of T it passed.
func Mul[T Int](a, b T) T {
	p, _ := MulOK(a, b)
	return p
}

// Sum adds xs, saturating at each step: once a bound is reached, the numbers after it can
// only move the sum back when they have the other sign.
func Sum[T Int](xs ...T) T {
	var s T
	for _, x := range xs {
		s = Add(s, x)
	}
	return s
}
