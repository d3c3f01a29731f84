package sandbox

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

var contactOrderings = orderings("ct", "created_at", "name COLLATE NOCASE", "email COLLATE NOCASE")

func (rq *request) contactWhere() (*whereB, error) {
	w := &whereB{}
	w.add("ct.organization_id = ?", rq.org)
	if n, ok, err := rq.intParam("id"); err != nil {
		return nil, err
	} else if ok {
		w.add("ct.id = ?", n)
	}
	if v, ok := rq.str("email"); ok {
		w.add("ct.email = ? COLLATE NOCASE", v)
	}
	if v, ok := rq.str("name"); ok {
		w.add("ct.name = ? COLLATE NOCASE", v)
	}
	if v, ok := rq.str("locale"); ok {
		w.add("ct.locale = ?", v)
	}
	if b, ok, err := rq.boolParam("verified"); err != nil {
		return nil, err
	} else if ok {
		w.add("(ct.email_verified OR ct.is_mobile_number_verified) = ?", b2i(b))
	}
	if us, ok, err := rq.timeBound("to_date_time", true); err != nil {
		return nil, err
	} else if ok {
		w.add("coalesce(ct.first_message_sent_at, ct.created_at) < ?", us)
	}
	if us, ok, err := rq.timeBound("from_date_time", false); err != nil {
		return nil, err
	} else if ok {
		w.add("coalesce(ct.last_message_sent_at, ct.created_at) >= ?", us)
	}
	if err := rq.addExclude(w, "ct.id"); err != nil {
		return nil, err
	}
	return w, nil
}

// contactList is the contacts list (GET, its /all/ and its DELETE).
var contactList = searchable{from: "contacts ct", alias: "ct", where: (*request).contactWhere,
	index: contactIndex, orderings: contactOrderings,
	load: func(rq *request, ids []int64) (any, error) { return rq.loadContacts(ids) }}

func (rq *request) listContacts() (int, any, error) { return rq.list(contactList) }

func (rq *request) allContacts() (int, any, error) { return rq.all(contactList) }

func (rq *request) loadContacts(ids []int64) ([]contactJSON, error) {
	writable := rq.writable(capEditContact, 0)
	cs, err := inOrderOf(rq, "contacts", ids, `SELECT `+contactColumns("ct")+`,
		(SELECT count(*) FROM conversations c WHERE c.contact_id = ct.id)
		FROM contacts ct WHERE ct.id IN `, func(rows *sql.Rows) (int64, contactJSON, error) {
		var c contactJSON
		var n int
		if err := rows.Scan(append(contactTargets(&c), &n)...); err != nil {
			return 0, c, err
		}
		finishContact(&c, writable)
		c.ConversationCount = &n
		c.ContactUUIDs = &[]string{}
		return c.ID, c, nil
	})
	if err != nil || len(cs) == 0 {
		return cs, err
	}
	uuids := make(map[int64]*[]string, len(cs))
	for _, c := range cs {
		uuids[c.ID] = c.ContactUUIDs
	}
	err = eachRow(rq.ctx, rq.s.db, `SELECT contact_id, uuid FROM contact_uuids WHERE contact_id IN (`+placeholders(len(ids))+`)
		ORDER BY created_at, widget_id, uuid`, int64Args(ids), func(rows *sql.Rows) error {
		var id int64
		var u string
		if err := rows.Scan(&id, &u); err != nil {
			return err
		}
		if list := uuids[id]; list != nil {
			*list = append(*list, u)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load contact uuids: %w", err)
	}
	return cs, nil
}

func (rq *request) findContact(id int64) error { return rq.find("contacts", id, "1", new(int)) }

func (rq *request) getContact() (int, any, error) {
	if err := rq.findContact(rq.route.id); err != nil {
		return 0, nil, err
	}
	return rq.oneContact(rq.route.id, http.StatusOK)
}

func (rq *request) oneContact(id int64, status int) (int, any, error) {
	return one(id, status, rq.loadContacts)
}

// --- writes --------------------------------------------------------------------------------

var (
	localeRe  = regexp.MustCompile(`^[a-z]{2}_[A-Z]{2}$`)
	countryRe = regexp.MustCompile(`^[A-Za-z]{2}$`)
)

var contactStringFields = []string{"name", "email", "phone_number", "mobile_number", "company", "position",
	"gender", "salutation", "street", "city", "country", "external_customer_id", "url_facebook", "url_linkedin",
	"url_twitter", "url_profile_picture"}

var contactBoolFields = []string{"contact_by_email", "contact_by_phone", "contact_by_service_channels",
	"contact_by_service_messenger"}

// contactChanges validates the writable fields of a contact body and returns column → value.
func contactChanges(body map[string]json.RawMessage) (map[string]any, error) {
	ch := map[string]any{}
	for _, f := range contactStringFields {
		raw, ok := body[f]
		if !ok {
			continue
		}
		if isNull(raw) {
			ch[f] = nil
			continue
		}
		var s string
		if err := decodeValue(raw, &s); err != nil {
			return nil, badRequest("%s: expected a string or null.", f)
		}
		if len(s) > 2000 {
			return nil, badRequest("%s: at most 2000 bytes.", f)
		}
		switch {
		case f == "email":
			s = strings.TrimSpace(s)
			at := strings.Index(s, "@")
			if at <= 0 || at == len(s)-1 || strings.ContainsAny(s, " \t\r\n") {
				return nil, badRequest("email: %q is not a valid email address.", s)
			}
		case f == "country":
			if !countryRe.MatchString(s) {
				return nil, badRequest("country: expected a two-letter country code, got %q.", s)
			}
			s = strings.ToUpper(s)
		case strings.HasPrefix(f, "url_"):
			if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
				return nil, badRequest("%s: expected an http(s) URL.", f)
			}
		}
		ch[f] = s
	}
	if raw, ok := body["locale"]; ok {
		var s string
		if err := decodeValue(raw, &s); err != nil || !localeRe.MatchString(s) {
			return nil, badRequest("locale: expected the form ll_CC, e.g. en_US.")
		}
		ch["locale"] = s
	}
	for _, f := range contactBoolFields {
		raw, ok := body[f]
		if !ok {
			continue
		}
		var b bool
		if err := decodeValue(raw, &b); err != nil {
			return nil, badRequest("%s: expected a boolean.", f)
		}
		ch[f] = b2i(b)
	}
	return ch, nil
}

// applyContactChanges updates a contact, resets verification of a changed email or mobile
// number, touches its conversations and keeps both search indexes in sync.
func applyContactChanges(rq *request, q querier, id int64, ch map[string]any) error {
	now := rq.s.opts.Now().UnixMicro()
	var oldEmail, oldMobile sql.NullString
	if err := q.QueryRowContext(rq.ctx, `SELECT email, mobile_number FROM contacts WHERE id = ?`, id).Scan(&oldEmail, &oldMobile); err != nil {
		return fmt.Errorf("read contact: %w", err)
	}
	sets := []string{"updated_at = max(updated_at, ?)"}
	args := []any{now}
	cols := make([]string, 0, len(ch))
	for _, f := range append(append(append([]string{}, contactStringFields...), "locale"), contactBoolFields...) {
		if _, ok := ch[f]; ok {
			cols = append(cols, f)
		}
	}
	for _, c := range cols {
		sets = append(sets, c+" = ?")
		args = append(args, ch[c])
	}
	if v, ok := ch["email"]; ok && !sameNullString(oldEmail, v) {
		sets = append(sets, "email_verified = 0")
	}
	if v, ok := ch["mobile_number"]; ok && !sameNullString(oldMobile, v) {
		sets = append(sets, "is_mobile_number_verified = 0")
	}
	if _, err := q.ExecContext(rq.ctx, "UPDATE contacts SET "+strings.Join(sets, ", ")+" WHERE id = ?", append(args, id)...); err != nil {
		return fmt.Errorf("update contact: %w", err)
	}
	if _, err := q.ExecContext(rq.ctx, `UPDATE conversations SET contact_last_update_at = ?, updated_at = max(updated_at, ?)
		WHERE contact_id = ?`, now, now, id); err != nil {
		return fmt.Errorf("touch conversations: %w", err)
	}
	return reindexContact(rq, q, id)
}

func sameNullString(old sql.NullString, v any) bool {
	s, ok := v.(string)
	if !ok {
		return !old.Valid
	}
	return old.Valid && strings.EqualFold(old.String, s)
}

func (rq *request) patchContact() (int, any, error) {
	body, err := rq.writeBody(capEditContact, 0)
	if err != nil {
		return 0, nil, err
	}
	id := rq.route.id
	if err := rq.findContact(id); err != nil {
		return 0, nil, err
	}
	ch, err := contactChanges(body)
	if err != nil {
		return 0, nil, err
	}
	if err := rq.s.inTx(rq, func(q querier) error { return applyContactChanges(rq, q, id, ch) }); err != nil {
		return 0, nil, err
	}
	return rq.oneContact(id, http.StatusOK)
}

// identifierFields are the contact fields a PUT finds its contact by: those that identify a
// contact. An id is none (PATCH updates by id; nothing is created with a chosen id).
const identifierFields = "email, external_customer_id, mobile_number, phone_number"

// putContact is PUT /contact_identities/?identifier=FIELD: update the contact matching the
// body's FIELD value, or create one.
func (rq *request) putContact() (int, any, error) {
	if err := rq.require(capEditContact, 0); err != nil {
		return 0, nil, err
	}
	field, _ := rq.str("identifier")
	switch field {
	case "email", "external_customer_id", "mobile_number", "phone_number":
	case "":
		return 0, nil, badRequest("identifier: required; one of %s.", identifierFields)
	default:
		return 0, nil, badRequest("identifier: %q is not one of %s.", field, identifierFields)
	}
	body, err := rq.patchObject()
	if err != nil {
		return 0, nil, err
	}
	raw, ok := body[field]
	if !ok || isNull(raw) {
		return 0, nil, badRequest("%s: the body must carry the identifier field's value.", field)
	}
	ch, err := contactChanges(body)
	if err != nil {
		return 0, nil, err
	}
	var id int64
	var v string
	if err := decodeValue(raw, &v); err != nil || strings.TrimSpace(v) == "" {
		return 0, nil, badRequest("%s: expected a non-empty string.", field)
	}
	cmp := field + " = ?"
	if field == "email" {
		cmp = "email = ? COLLATE NOCASE"
		v = strings.TrimSpace(v)
	}
	err = rq.s.db.QueryRowContext(rq.ctx, `SELECT id FROM contacts WHERE organization_id = ? AND `+cmp+` ORDER BY id LIMIT 1`, rq.org, v).Scan(&id)
	switch {
	case err == nil:
		if ex, err := rq.excluded(id); err != nil {
			return 0, nil, err
		} else if ex {
			return 0, nil, notFound()
		}
		if err := rq.s.inTx(rq, func(q querier) error { return applyContactChanges(rq, q, id, ch) }); err != nil {
			return 0, nil, err
		}
		return rq.oneContact(id, http.StatusOK)
	case !errors.Is(err, sql.ErrNoRows):
		return 0, nil, fmt.Errorf("look up contact: %w", err)
	}
	return rq.create("contacts", func(q querier, id, now int64) error {
		if _, err := q.ExecContext(rq.ctx, `INSERT INTO contacts(id, organization_id, email_verified,
			is_mobile_number_verified, loc_lat, loc_lon, locale, contact_by_email, contact_by_phone,
			contact_by_service_channels, contact_by_service_messenger, is_blocked, needs_register, created_at, updated_at)
			VALUES (?, ?, 0, 0, 0, 0, 'en_US', 0, 0, 0, 0, 0, 0, ?, ?)`, id, rq.org, now, now); err != nil {
			return fmt.Errorf("create contact: %w", err)
		}
		return applyContactChanges(rq, q, id, ch)
	}, rq.oneContact)
}

// --- deletes -------------------------------------------------------------------------------

// deleteContacts removes contacts with everything that belongs to them: notes, navigation
// events, conversation contact UUIDs and all their conversations (whatever their status).
func deleteContacts(rq *request, q querier, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	in := "(" + placeholders(len(ids)) + ")"
	args := int64Args(ids)
	convs, err := column[int64](rq.ctx, q, `SELECT id FROM conversations WHERE contact_id IN `+in, args...)
	if err != nil {
		return fmt.Errorf("delete contacts: %w", err)
	}
	for len(convs) > 0 {
		n := min(len(convs), 500)
		if err := deleteConversations(rq, q, convs[:n]); err != nil {
			return err
		}
		convs = convs[n:]
	}
	// Their ids are never handed out again (nor their notes').
	if err := keepIDsRetired(rq, q, "contacts", `SELECT max(id) FROM contacts WHERE id IN `+in, args...); err != nil {
		return err
	}
	if err := keepIDsRetired(rq, q, "notes", `SELECT max(id) FROM notes WHERE contact_id IN `+in, args...); err != nil {
		return err
	}
	for _, st := range []string{
		`DELETE FROM notes WHERE contact_id IN ` + in,
		`DELETE FROM navigation WHERE contact_id IN ` + in,
		`DELETE FROM contact_uuids WHERE contact_id IN ` + in,
		`DELETE FROM contacts_fts WHERE rowid IN ` + in,
		`DELETE FROM contacts WHERE id IN ` + in,
	} {
		if _, err := q.ExecContext(rq.ctx, st, args...); err != nil {
			return fmt.Errorf("delete contacts: %w", err)
		}
	}
	return nil
}

func (rq *request) deleteContact() (int, any, error) {
	id := rq.route.id
	return rq.remove(0, func() error {
		if err := rq.findContact(id); err != nil {
			return err
		}
		var ongoing int
		if err := rq.s.db.QueryRowContext(rq.ctx, `SELECT count(*) FROM conversations WHERE contact_id = ? AND status != 'ended'`,
			id).Scan(&ongoing); err != nil {
			return fmt.Errorf("count ongoing conversations: %w", err)
		}
		if ongoing > 0 {
			return badRequest("Contact %d has %d ongoing conversation(s); a contact is deleted with its conversations, and only ended ones can be deleted.", id, ongoing)
		}
		return nil
	}, func(q querier) error { return deleteContacts(rq, q, []int64{id}) })
}

// noOngoingConversation keeps contacts with an ongoing conversation out of a list DELETE:
// deleting a contact deletes its conversations, and "ongoing conversations are not
// deleted" by a list DELETE.
const noOngoingConversation = `NOT EXISTS (SELECT 1 FROM conversations oc WHERE oc.contact_id = ct.id AND oc.status != 'ended')`

func (rq *request) bulkDeleteContacts() (int, any, error) {
	return rq.bulkDelete(contactList, noOngoingConversation, deleteContacts)
}
