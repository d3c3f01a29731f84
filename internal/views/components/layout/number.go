package layout

import "strconv"

// Integer is the integer types the screens show numbers of.
type Integer interface {
	~int | ~int64
}

// Thousands writes n with thousands separators: "1,234", "-9,223,372,036,854,775,808".
// Every value of int64 is written exactly, without recursion or negation: numbers from
// outside (an API answer, the request ledger's file) may be any of them.
func Thousands[N Integer](n N) string {
	digits := strconv.FormatInt(int64(n), 10)
	sign := ""
	if digits[0] == '-' {
		sign, digits = "-", digits[1:]
	}
	if len(digits) <= 3 {
		return sign + digits
	}
	b := make([]byte, 0, len(sign)+len(digits)+(len(digits)-1)/3)
	b = append(b, sign...)
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	b = append(b, digits[:head]...)
	for i := head; i < len(digits); i += 3 {
		b = append(b, ',')
		b = append(b, digits[i:i+3]...)
	}
	return string(b)
}

// Count is how a screen shows a count (of conversations, requests, slots, data points):
// with thousands separators, or "—" when it is below zero, which no count can be (a server
// or a file that says so tells nothing the screen could show). It is the one place a count
// from outside is formatted.
func Count[N Integer](n N) string {
	if n < 0 {
		return "—"
	}
	return Thousands(n)
}

// Plural is one when n is 1, else many: the word that goes with a count.
func Plural[N Integer](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
