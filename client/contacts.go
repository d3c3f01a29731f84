package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ListContacts returns one offset page of contacts.
func (c *Client) ListContacts(ctx context.Context, opts ContactListOptions) (*Page[Contact], error) {
	return filteredPage[Contact](ctx, c, "/contact_identities/", ContactOrderings, opts)
}

// SearchContacts runs search_query on the contacts list: results in rank order.
func (c *Client) SearchContacts(ctx context.Context, query string, limit int) (*Page[Contact], error) {
	return c.ListContacts(ctx, ContactListOptions{ListOptions: ListOptions{Search: query, Limit: limit}})
}

// SearchContactsJSON is SearchContacts, narrowed by filter, with each contact as the
// server sent it (fields the client does not know and the server's timestamp format kept),
// for passing on.
func (c *Client) SearchContactsJSON(ctx context.Context, query string, filter ContactFilter, limit int) (*Page[json.RawMessage], error) {
	return filteredPage[json.RawMessage](ctx, c, "/contact_identities/", ContactOrderings, ContactListOptions{ListOptions: ListOptions{Search: query, Limit: limit}, Filter: filter})
}

// ContactsAllPage returns one cursor page of /contact_identities/all/.
func (c *Client) ContactsAllPage(ctx context.Context, opts AllContactsOptions) (*CursorPage[Contact], error) {
	return allPage[Contact](ctx, c, "/contact_identities/all/", opts)
}

// ContactsAll walks /contact_identities/all/ by cursor to the end.
func (c *Client) ContactsAll(ctx context.Context, opts AllContactsOptions) iter.Seq2[Contact, error] {
	return walkCursor(ctx, c, func() (*CursorPage[Contact], error) { return c.ContactsAllPage(ctx, opts) })
}

// GetContact returns one contact: from the client's memory when a contacts list or this
// GET brought it within the time-to-live (contacts carry no version), and with Fresh(ctx)
// only when Within(ctx) allows its age.
func (c *Client) GetContact(ctx context.Context, id int64) (*Contact, error) {
	if c.memo != nil {
		if ct, at, ok := c.memo.contact(c.org, c.readAs(), id); ok && c.mayRecall(ctx, at) {
			c.logRequest(RequestInfo{Method: http.MethodGet, Path: contactPath(id), Family: FamilyContacts, Status: http.StatusOK, Cached: true})
			return &ct, nil
		}
	}
	return call[Contact](ctx, c, request{method: http.MethodGet, url: c.endpoint(contactPath(id), nil)})
}

// ContactUpdate is a contact PATCH (or PUT) body: nil fields are not sent; a pointer to ""
// for a nullable text field sends null (clears it).
type ContactUpdate struct {
	Name                      *string
	Email                     *string
	PhoneNumber               *string
	MobileNumber              *string
	Company                   *string
	Position                  *string
	Gender                    *string
	Salutation                *string
	Street                    *string
	City                      *string
	Country                   *string
	Locale                    *string
	ExternalCustomerID        *string
	ContactByEmail            *bool
	ContactByPhone            *bool
	ContactByServiceChannels  *bool
	ContactByServiceMessenger *bool
	URLFacebook               *string
	URLLinkedIn               *string
	URLTwitter                *string
	URLProfilePicture         *string
}

// Texts are u's text fields by the API's name.
func (u *ContactUpdate) Texts() map[string]**string {
	return map[string]**string{
		"name":                 &u.Name,
		"email":                &u.Email,
		"phone_number":         &u.PhoneNumber,
		"mobile_number":        &u.MobileNumber,
		"company":              &u.Company,
		"position":             &u.Position,
		"gender":               &u.Gender,
		"salutation":           &u.Salutation,
		"street":               &u.Street,
		"city":                 &u.City,
		"country":              &u.Country,
		"locale":               &u.Locale,
		"external_customer_id": &u.ExternalCustomerID,
		"url_facebook":         &u.URLFacebook,
		"url_linkedin":         &u.URLLinkedIn,
		"url_twitter":          &u.URLTwitter,
		"url_profile_picture":  &u.URLProfilePicture,
	}
}

// ContactBy are u's "may be contacted by" flags by the API's name.
func (u *ContactUpdate) ContactBy() map[string]**bool {
	return map[string]**bool{
		"contact_by_email":             &u.ContactByEmail,
		"contact_by_phone":             &u.ContactByPhone,
		"contact_by_service_channels":  &u.ContactByServiceChannels,
		"contact_by_service_messenger": &u.ContactByServiceMessenger,
	}
}

// ContactBy are c's "may be contacted by" flags by the API's name, as ContactUpdate's.
func (c Contact) ContactBy() map[string]bool {
	return map[string]bool{
		"contact_by_email":             c.ContactByEmail,
		"contact_by_phone":             c.ContactByPhone,
		"contact_by_service_channels":  c.ContactByServiceChannels,
		"contact_by_service_messenger": c.ContactByServiceMessenger,
	}
}

// Fields lists the JSON names and values of the set fields. A text set to "" is null
// (cleared), but for the locale, which a contact always has.
func (u ContactUpdate) Fields() map[string]any {
	m := map[string]any{}
	for k, p := range u.Texts() {
		switch {
		case *p == nil:
		case **p == "" && k != "locale":
			m[k] = nil
		default:
			m[k] = **p
		}
	}
	for k, p := range u.ContactBy() {
		if *p != nil {
			m[k] = **p
		}
	}
	return m
}

// MarshalJSON writes the set fields at top level.
func (u ContactUpdate) MarshalJSON() ([]byte, error) { return json.Marshal(u.Fields()) }

// UpdateContact PATCHes a contact and returns it as the server now has it.
func (c *Client) UpdateContact(ctx context.Context, id int64, u ContactUpdate) (*Contact, error) {
	return call[Contact](ctx, c, request{method: http.MethodPatch, url: c.endpoint(contactPath(id), nil), body: u})
}

// Identifier fields of the PUT upsert: the contact fields that identify a contact
// (docs/api-notes.md). The spec names the parameter {contact_field}; an id is no contact
// data (a contact is updated by id with PATCH, and nothing is created with a chosen id).
const (
	IdentifierEmail              = "email"
	IdentifierExternalCustomerID = "external_customer_id"
	IdentifierMobileNumber       = "mobile_number"
	IdentifierPhoneNumber        = "phone_number"
)

// Identifiers are the identifier fields, in the order a form offers them.
var Identifiers = []string{IdentifierEmail, IdentifierExternalCustomerID, IdentifierMobileNumber, IdentifierPhoneNumber}

// UpsertContact sends PUT /contact_identities/?identifier=FIELD: the contact whose FIELD
// equals the body's value is updated, or a new one is created (created reports which). The
// body must carry a non-blank value of FIELD; without one nothing is sent.
func (c *Client) UpsertContact(ctx context.Context, identifier string, u ContactUpdate) (ct *Contact, created bool, err error) {
	if !slices.Contains(Identifiers, identifier) {
		return nil, false, fmt.Errorf("client: identifier %q is not one of %s", identifier, strings.Join(Identifiers, ", "))
	}
	if v, ok := u.Fields()[identifier].(string); !ok || strings.TrimSpace(v) == "" {
		return nil, false, fmt.Errorf("client: identifier %s: the body carries no %s to find the contact by", identifier, identifier)
	}
	q := url.Values{"identifier": {identifier}}
	var out Contact
	status, err := c.do(ctx, request{method: http.MethodPut, url: c.endpoint(v3+"/contact_identities/", q), body: u}, &out)
	if err != nil {
		return nil, false, err
	}
	return &out, status == http.StatusCreated, nil
}

// DeleteContact deletes one contact.
func (c *Client) DeleteContact(ctx context.Context, id int64) error {
	return c.remove(ctx, contactPath(id), nil, false)
}

// DeleteContacts deletes exactly the given contacts (`delete_ids`).
func (c *Client) DeleteContacts(ctx context.Context, ids []int64) error {
	return c.BulkDeleteContacts(ctx, BulkDelete[ContactFilter]{DeleteIDs: ids})
}

// BulkDeleteContacts sends a list DELETE of contacts (irrevocable; see BulkDelete).
func (c *Client) BulkDeleteContacts(ctx context.Context, b BulkDelete[ContactFilter]) error {
	return b.send(ctx, c, v3+"/contact_identities/")
}

func contactPath(id int64) string { return idPath("contact_identities", id) }
