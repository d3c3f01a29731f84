package forms

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseID reads an optional positive integer id ("" = 0).
func ParseID(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("%q is not a positive whole number", s)
	}
	return v, nil
}
