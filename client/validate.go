package client

import (
	"fmt"
	"net/mail"
	"net/url"
	"strings"
)

// The checks of contact values below run before anything is sent (the contact's writable
// fields in package writes, the filters of Contacts); the API refuses the same values with
// a 400 (docs/api-notes.md, "Writable fields"). Empty values pass: whether a field may be
// empty is for the form or command to say.

// ValidEmail accepts an address of the shape local@domain.tld.
func ValidEmail(s string) error {
	return checkValue(s, "%q is not an email address (name@example.com)", func(s string) bool {
		a, err := mail.ParseAddress(s)
		if err != nil || a.Address != s || a.Name != "" {
			return false
		}
		local, domain, ok := strings.Cut(s, "@")
		return ok && local != "" && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
	})
}

// ValidCountry accepts a two-letter country code (any case; sent in upper case).
func ValidCountry(s string) error {
	return checkValue(s, "%q: the country is a two-letter code such as DE or US", func(s string) bool {
		return len(s) == 2 && isLetter(s[0]) && isLetter(s[1])
	})
}

// ValidLocale accepts a locale of the form ll_CC (de_DE, en_US).
func ValidLocale(s string) error {
	return checkValue(s, "%q: the locale has the form ll_CC, such as de_DE or en_US", func(s string) bool {
		return len(s) == 5 && s[2] == '_' && isLower(s[0]) && isLower(s[1]) && isUpper(s[3]) && isUpper(s[4])
	})
}

// ValidURL accepts an absolute http or https URL.
func ValidURL(s string) error {
	return checkValue(s, "%q is not a web address starting with http:// or https://", func(s string) bool {
		u, err := url.Parse(s)
		return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(s, " \t\n")
	})
}

// checkValue is the shape of every check: s without the spaces around it passes when it is
// empty or valid accepts it; otherwise the error is problem with s quoted in it.
func checkValue(s, problem string, valid func(string) bool) error {
	s = strings.TrimSpace(s)
	if s == "" || valid(s) {
		return nil
	}
	return fmt.Errorf(problem, s)
}

func isLetter(b byte) bool { return isLower(b) || isUpper(b) }
func isLower(b byte) bool  { return b >= 'a' && b <= 'z' }
func isUpper(b byte) bool  { return b >= 'A' && b <= 'Z' }
