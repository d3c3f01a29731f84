package credentials

import (
	"strings"
)

// Profile names the API a token is for: a base URL and, optionally, the organization.
// A token stored without an organization serves every organization of that base URL for
// which none is stored (a customer token covers all its organizations).
type Profile struct {
	// BaseURL is the API base address, as normalized by config.NormalizeBaseURL.
	BaseURL string
	// OrganizationID is the organization id, "" for none.
	OrganizationID string
}

// Key is the name the profile's token is stored under in the keyring (its "username"
// attribute) and in the credentials file: the base URL, plus "#org=ID" with an organization.
func (p Profile) Key() string {
	base := strings.TrimRight(p.BaseURL, "/")
	if p.OrganizationID == "" {
		return base
	}
	return base + "#org=" + p.OrganizationID
}

// lookupKeys lists the keys tried for p, most specific first.
func (p Profile) lookupKeys() []string {
	if p.OrganizationID == "" {
		return []string{p.Key()}
	}
	return []string{p.Key(), Profile{BaseURL: p.BaseURL}.Key()}
}

func (p Profile) String() string { return p.Key() }
