package sandbox

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

var conversationOrderings = orderings("c", "id", "last_message_sent_at", "contact_first_message_sent_at",
	"contact_last_update_at", "contact_last_message_sent_at")

// conversationWhere builds the organization, filter and exclude_ids conditions.
func (rq *request) conversationWhere() (*whereB, error) {
	w := &whereB{}
	w.add("c.organization_id = ?", rq.org)
	if v, ok := rq.str("contact_uuid"); ok {
		w.add("c.contact_uuid = ?", v)
	}
	if v, ok := rq.str("status"); ok {
		w.add("c.status = ?", v)
	}
	ints := []struct {
		param, cond string
	}{
		{"operator_id", "c.operator_assigned_to = ?"},
		{"topics", "EXISTS (SELECT 1 FROM conversation_topics ctp WHERE ctp.conversation_id = c.id AND ctp.topic_id = ?)"},
		{"id__gt", "c.id > ?"},
		{"id__lt", "c.id < ?"},
		{"contact_identity_id", "c.contact_id = ?"},
	}
	for _, f := range ints {
		n, ok, err := rq.intParam(f.param)
		if err != nil {
			return nil, err
		}
		if ok {
			w.add(f.cond, n)
		}
	}
	for _, p := range []string{"um_widget_id", "chat_widget_id"} {
		n, ok, err := rq.intParam(p)
		if err != nil {
			return nil, err
		}
		if ok {
			w.add("(c.widget_id = ? OR EXISTS (SELECT 1 FROM parts wp WHERE wp.conversation_id = c.id AND wp.widget_id = ?))", n, n)
		}
	}
	times := []struct {
		param string
		col   string
		upper bool
	}{
		{"contact_first_message_to_date", "c.contact_first_message_sent_at", true},
		{"contact_first_message_from_date", "c.contact_first_message_sent_at", false},
		{"contact_last_message_to_date", "c.contact_last_message_sent_at", true},
		{"contact_last_message_from_date", "c.contact_last_message_sent_at", false},
		{"updated_at_to_date", "c.updated_at", true},
		{"updated_at_from_date", "c.updated_at", false},
		{"last_activity_to_date", "c.last_activity_at", true},
		{"last_activity_from_date", "c.last_activity_at", false},
	}
	for _, f := range times {
		us, ok, err := rq.timeBound(f.param, f.upper)
		if err != nil {
			return nil, err
		}
		if ok {
			if f.upper {
				w.add(f.col+" < ?", us)
			} else {
				w.add(f.col+" >= ?", us)
			}
		}
	}
	if err := rq.addExclude(w, "c.id"); err != nil {
		return nil, err
	}
	return w, nil
}

// conversationList is the conversations list (GET, its /all/ and its DELETE); its rows
// come without their parts.
var conversationList = searchable{from: "conversations c", alias: "c", where: (*request).conversationWhere,
	index: conversationIndex, orderings: conversationOrderings,
	load: func(rq *request, ids []int64) (any, error) { return rq.loadConversations(ids, false) }}

func (rq *request) listConversations() (int, any, error) { return rq.list(conversationList) }

func (rq *request) allConversations() (int, any, error) { return rq.all(conversationList) }

// findConversation returns 404 unless the conversation exists in the organization and is not
// excluded.
func (rq *request) findConversation(id int64) (status string, err error) {
	err = rq.find("conversations", id, "status", &status)
	return status, err
}

func (rq *request) getConversation() (int, any, error) {
	if _, err := rq.findConversation(rq.route.id); err != nil {
		return 0, nil, err
	}
	return rq.oneConversation(rq.route.id)
}

func (rq *request) oneConversation(id int64) (int, any, error) {
	return one(id, http.StatusOK, func(ids []int64) ([]conversationJSON, error) { return rq.loadConversations(ids, true) })
}

func (rq *request) loadConversations(ids []int64, withParts bool) ([]conversationJSON, error) {
	out := make([]conversationJSON, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	db := rq.s.db
	cust := rq.s.customerID
	writable := rq.writable(capEditConversation, 0)
	in, args := "("+placeholders(len(ids))+")", int64Args(ids)
	byID := map[int64]*conversationJSON{}
	loaded := make([]*conversationJSON, 0, len(ids))
	err := eachRow(rq.ctx, db, `SELECT c.id, c.organization_id, c.contact_uuid, c.operator_assigned_to,
		c.status, c.created_at, c.updated_at, c.last_message_sent_at, c.contact_first_message_sent_at,
		c.contact_last_message_sent_at, c.contact_last_update_at, c.accepts_messages, c.data_privacy, c.expiry_state,
		c.feedback_message, c.language_name, c.locale, c.marked_read_contact, c.marked_read_operator,
		c.page_impressions, c.rate, c.slot_reserved, c.channel_type, c.channel_state, c.custom, c.addon_urls,
		w.id, w.name, w.language_name, `+contactColumns("ct")+`
		FROM conversations c JOIN contacts ct ON ct.id = c.contact_id JOIN widgets w ON w.id = c.widget_id
		WHERE c.id IN `+in, args, func(rows *sql.Rows) error {
		c := &conversationJSON{}
		var custom, addons string
		targets := []any{&c.ID, &c.OrganizationID, &c.ConversationContactUUID, &c.OperatorAssignedTo,
			&c.Status, &c.CreatedAt, &c.UpdatedAt, &c.LastMessageSentAt, &c.ContactFirstMessageSentAt,
			&c.ContactLastMessageSentAt, &c.ContactLastUpdateAt, &c.AcceptsMessages, &c.DataPrivacy, &c.ExpiryState,
			&c.FeedbackMessage, &c.LanguageName, &c.Locale, &c.MarkedReadContact, &c.MarkedReadOperator,
			&c.PageImpressions, &c.Rate, &c.SlotReserved, &c.ContactChannel.Type, &c.ContactChannel.State, &custom, &addons,
			&c.Widget.ID, &c.Widget.Name, &c.Widget.LanguageName}
		targets = append(targets, contactTargets(&c.Contact)...)
		if err := rows.Scan(targets...); err != nil {
			return err
		}
		c.Custom = json.RawMessage(custom)
		c.AddonURLs = json.RawMessage(addons)
		c.CustomerID = cust
		c.StatusDescription = statusDescription(c.Status)
		c.Topics = []topicJSON{}
		c.WidgetGoals = []any{}
		c.UnreadMessagesOperator = []any{}
		c.ReadPermission, c.WritePermission = true, writable
		finishContact(&c.Contact, writable)
		byID[c.ID] = c
		loaded = append(loaded, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load conversations: %w", err)
	}
	if len(loaded) == 0 {
		return out, nil
	}
	// Topics.
	err = eachRow(rq.ctx, db, `SELECT ctp.conversation_id, t.id, t.organization_id, t.text
		FROM conversation_topics ctp JOIN topics t ON t.id = ctp.topic_id
		WHERE ctp.conversation_id IN `+in+` ORDER BY t.id`, args, func(rows *sql.Rows) error {
		var cid int64
		t := topicJSON{ReadPermission: true, WritePermission: writable}
		if err := rows.Scan(&cid, &t.ID, &t.OrganizationID, &t.Text); err != nil {
			return err
		}
		if c := byID[cid]; c != nil {
			c.Topics = append(c.Topics, t)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load topics: %w", err)
	}
	// Last messages, one index lookup per conversation in one statement.
	err = eachRow(rq.ctx, db, `SELECT `+prefixed("m", messageColumns)+` FROM conversations c
		JOIN messages m ON m.conversation_id = c.id AND (m.part_id, m.seq) = (
			SELECT l.part_id, l.seq FROM messages l WHERE l.conversation_id = c.id ORDER BY l.part_id DESC, l.seq DESC LIMIT 1)
		WHERE c.id IN `+in, args, func(rows *sql.Rows) error {
		m := &messageJSON{}
		if err := rows.Scan(messageTargets(m)...); err != nil {
			return err
		}
		m.finish()
		if c := byID[m.ConversationID]; c != nil {
			c.LastMessage = m
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load last messages: %w", err)
	}
	if withParts {
		for _, c := range loaded {
			parts, err := rq.loadParts(c.ID, writable)
			if err != nil {
				return nil, err
			}
			c.ConversationPartSet = &parts
		}
	}
	for _, id := range ids {
		if c := byID[id]; c != nil {
			out = append(out, *c)
		}
	}
	return out, nil
}

func (rq *request) loadParts(convID int64, writable bool) ([]partJSON, error) {
	parts := []partJSON{}
	err := eachRow(rq.ctx, rq.s.db, `SELECT p.id, w.name, p.created_at, p.ended_at, p.browser_name,
		p.browser_os, p.browser_version, p.city, p.country, p.lat, p.lon, p.referrer
		FROM parts p JOIN widgets w ON w.id = p.widget_id WHERE p.conversation_id = ? ORDER BY p.id`, []any{convID}, func(rows *sql.Rows) error {
		p := partJSON{PartType: "ChatMeta", ReadPermission: true, WritePermission: writable}
		var widget string
		if err := rows.Scan(&p.ID, &widget, &p.CreatedAt, &p.EndedAt, &p.Browser.Name, &p.Browser.OS,
			&p.Browser.Version, &p.Location.City, &p.Location.Country, &p.Location.Lat, &p.Location.Lon, &p.Referrer); err != nil {
			return err
		}
		p.NameFriendly = "Chat via " + widget
		p.Duration = hms(int64(p.EndedAt) - int64(p.CreatedAt))
		parts = append(parts, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load parts: %w", err)
	}
	return parts, nil
}

func finishContact(c *contactJSON, writable bool) {
	c.Verified = c.EmailVerified || c.IsMobileNumberVerified
	c.ReadPermission, c.WritePermission = true, writable
}

// --- PATCH -----------------------------------------------------------------------------------

func (rq *request) patchConversation() (int, any, error) {
	body, err := rq.writeBody(capEditConversation, 0)
	if err != nil {
		return 0, nil, err
	}
	id := rq.route.id
	if _, err := rq.findConversation(id); err != nil {
		return 0, nil, err
	}
	if rq.s.variants[VariantReadOnlyFields] {
		for _, f := range []string{"status", "operator_assigned_to", "marked_read_operator"} {
			if _, ok := body[f]; ok {
				return 0, nil, badRequest("%s: this field is read-only.", f)
			}
		}
	}
	sets := []string{}
	args := []any{}
	var topics []string
	topicsSet := false
	for k, raw := range body {
		switch k {
		case "topics":
			if isNull(raw) {
				topics, topicsSet = nil, true
				continue
			}
			var ts []string
			if err := json.Unmarshal(raw, &ts); err != nil {
				return 0, nil, badRequest("topics: expected an array of strings.")
			}
			for _, t := range ts {
				t = strings.TrimSpace(t)
				if t == "" {
					return 0, nil, badRequest("topics: a topic must not be blank.")
				}
				if len([]rune(t)) > 100 {
					return 0, nil, badRequest("topics: a topic is at most 100 characters long.")
				}
				topics = append(topics, t)
			}
			topicsSet = true
		case "status":
			var s string
			if err := decodeValue(raw, &s); err != nil || (s != "new" && s != "pending" && s != "ended") {
				return 0, nil, badRequest("status: must be one of new, pending, ended.")
			}
			sets = append(sets, "status = ?")
			args = append(args, s)
			if s == "ended" {
				sets = append(sets, "slot_reserved = 0")
			}
		case "operator_assigned_to":
			if isNull(raw) {
				sets = append(sets, "operator_assigned_to = NULL", "slot_reserved = 0")
				continue
			}
			var op int64
			if err := decodeValue(raw, &op); err != nil {
				return 0, nil, badRequest("operator_assigned_to: expected an operator id or null.")
			}
			var one int
			err := rq.s.db.QueryRowContext(rq.ctx, `SELECT 1 FROM operators WHERE id = ? AND organization_id = ?`, op, rq.org).Scan(&one)
			if errors.Is(err, sql.ErrNoRows) {
				return 0, nil, badRequest("operator_assigned_to: unknown operator %d.", op)
			}
			if err != nil {
				return 0, nil, fmt.Errorf("check operator: %w", err)
			}
			sets = append(sets, "operator_assigned_to = ?")
			args = append(args, op)
		case "marked_read_operator":
			var b bool
			if err := decodeValue(raw, &b); err != nil {
				return 0, nil, badRequest("marked_read_operator: expected a boolean.")
			}
			sets = append(sets, "marked_read_operator = ?")
			args = append(args, b2i(b))
		}
	}
	now := rq.s.opts.Now().UnixMicro()
	tx, err := rq.s.db.BeginTx(rq.ctx, nil)
	if err != nil {
		return 0, nil, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	sets = append(sets, "updated_at = max(updated_at, ?)")
	args = append(args, now)
	if _, err := tx.ExecContext(rq.ctx, "UPDATE conversations SET "+strings.Join(sets, ", ")+" WHERE id = ?", append(args, id)...); err != nil {
		return 0, nil, fmt.Errorf("update conversation: %w", err)
	}
	if topicsSet {
		if _, err := tx.ExecContext(rq.ctx, `DELETE FROM conversation_topics WHERE conversation_id = ?`, id); err != nil {
			return 0, nil, fmt.Errorf("clear topics: %w", err)
		}
		for _, t := range topics {
			key := topicKey(t)
			if _, err := tx.ExecContext(rq.ctx, `INSERT INTO topics(organization_id, text, text_key) VALUES (?, ?, ?)
				ON CONFLICT(organization_id, text_key) DO NOTHING`, rq.org, t, key); err != nil {
				return 0, nil, fmt.Errorf("create topic: %w", err)
			}
			if _, err := tx.ExecContext(rq.ctx, `INSERT OR IGNORE INTO conversation_topics(conversation_id, topic_id)
				SELECT ?, id FROM topics WHERE organization_id = ? AND text_key = ?`, id, rq.org, key); err != nil {
				return 0, nil, fmt.Errorf("link topic: %w", err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, nil, fmt.Errorf("commit: %w", err)
	}
	return rq.oneConversation(id)
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// decodeValue is json.Unmarshal that refuses null (which Unmarshal would silently skip).
func decodeValue(raw json.RawMessage, v any) error {
	if isNull(raw) {
		return errors.New("null")
	}
	return json.Unmarshal(raw, v)
}

// --- DELETE ----------------------------------------------------------------------------------

func (rq *request) deleteConversation() (int, any, error) {
	id := rq.route.id
	return rq.remove(0, func() error {
		status, err := rq.findConversation(id)
		if err != nil {
			return err
		}
		if status != "ended" {
			return badRequest("Conversation %d is ongoing (status %q); only ended conversations can be deleted.", id, status)
		}
		return nil
	}, func(q querier) error { return deleteConversations(rq, q, []int64{id}) })
}

func (rq *request) bulkDeleteConversations() (int, any, error) {
	return rq.bulkDelete(conversationList, "c.status = 'ended'", deleteConversations)
}

func (s *Server) inTx(rq *request, fn func(q querier) error) error {
	tx, err := s.db.BeginTx(rq.ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// deleteConversations removes conversations with their messages, parts, topic links and
// search rows, unlinks their navigation events and updates their contacts' message times.
func deleteConversations(rq *request, q querier, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	in := "(" + placeholders(len(ids)) + ")"
	args := int64Args(ids)
	contacts, err := column[int64](rq.ctx, q, `SELECT DISTINCT contact_id FROM conversations WHERE id IN `+in, args...)
	if err != nil {
		return fmt.Errorf("delete conversations: %w", err)
	}
	for _, st := range []string{
		`DELETE FROM messages WHERE conversation_id IN ` + in,
		`DELETE FROM parts WHERE conversation_id IN ` + in,
		`DELETE FROM conversation_topics WHERE conversation_id IN ` + in,
		`UPDATE navigation SET conversation_id = NULL WHERE conversation_id IN ` + in,
		`DELETE FROM conversations_fts WHERE rowid IN ` + in,
		`DELETE FROM conversations WHERE id IN ` + in,
	} {
		if _, err := q.ExecContext(rq.ctx, st, args...); err != nil {
			return fmt.Errorf("delete conversations: %w", err)
		}
	}
	if len(contacts) > 0 {
		cin := "(" + placeholders(len(contacts)) + ")"
		if _, err := q.ExecContext(rq.ctx, `UPDATE contacts SET
			first_message_sent_at = (SELECT min(contact_first_message_sent_at) FROM conversations WHERE contact_id = contacts.id),
			last_message_sent_at = (SELECT max(contact_last_message_sent_at) FROM conversations WHERE contact_id = contacts.id)
			WHERE id IN `+cin, int64Args(contacts)...); err != nil {
			return fmt.Errorf("update contact message times: %w", err)
		}
	}
	return nil
}

// --- messages --------------------------------------------------------------------------------

type msgKey struct{ part, seq int64 }

func parseMessageID(s string) (conv int64, k msgKey, err error) {
	f := strings.Split(s, ".")
	if len(f) != 3 {
		return 0, k, fmt.Errorf("bad message id")
	}
	var n [3]int64
	for i, x := range f {
		if x == "" || x[0] == '+' || x[0] == '-' {
			return 0, k, fmt.Errorf("bad message id")
		}
		n[i], err = strconv.ParseInt(x, 10, 64)
		if err != nil {
			return 0, k, fmt.Errorf("bad message id")
		}
	}
	return n[0], msgKey{n[1], n[2]}, nil
}

func (rq *request) listMessages() (int, any, error) {
	conv := rq.route.id
	// exclude_ids on this endpoint lists message ids.
	var excl []msgKey
	for _, v := range rq.q["exclude_ids"] {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			c, k, err := parseMessageID(f)
			if err != nil {
				return 0, nil, badRequest("exclude_ids: %q is not a message id (<conversation_id>.<part_id>.<sequence>).", f)
			}
			if c == conv {
				excl = append(excl, k)
			}
		}
	}
	var one int
	err := rq.s.db.QueryRowContext(rq.ctx, `SELECT 1 FROM conversations WHERE id = ? AND organization_id = ?`, conv, rq.org).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, notFound()
	}
	if err != nil {
		return 0, nil, fmt.Errorf("find conversation: %w", err)
	}
	desc := true
	if v, ok := rq.str("ordering"); ok {
		switch v {
		case "-id":
		case "id":
			desc = false
		default:
			return 0, nil, badRequest("Invalid ordering %q; allowed: -id, id.", v)
		}
	}
	limit, err := rq.limitParam(maxLimit)
	if err != nil {
		return 0, nil, err
	}
	base := &whereB{}
	base.add("conversation_id = ?", conv)
	for _, k := range excl {
		base.add("NOT (part_id = ? AND seq = ?)", k.part, k.seq)
	}
	w := base.clone()
	backward := false
	if c, ok := rq.str("cursor"); ok {
		backward = strings.HasPrefix(c, "-")
		cc, k, err := parseMessageID(strings.TrimPrefix(c, "-"))
		if err != nil || cc != conv {
			return 0, nil, badRequest("Invalid cursor %q.", c)
		}
		// Forward follows the ordering; backward goes the other way.
		older := desc != backward
		if older {
			w.add("(part_id, seq) < (?, ?)", k.part, k.seq)
		} else {
			w.add("(part_id, seq) > (?, ?)", k.part, k.seq)
		}
	}
	scanDesc := desc != backward
	dir := "ASC"
	if scanDesc {
		dir = "DESC"
	}
	rows, err := rq.s.db.QueryContext(rq.ctx, "SELECT "+messageColumns+" FROM messages"+w.sql()+
		" ORDER BY part_id "+dir+", seq "+dir+" LIMIT ?", append(w.args, limit)...)
	if err != nil {
		return 0, nil, fmt.Errorf("list messages: %w", err)
	}
	msgs := []messageJSON{}
	for rows.Next() {
		var m messageJSON
		if err := rows.Scan(messageTargets(&m)...); err != nil {
			rows.Close()
			return 0, nil, fmt.Errorf("scan message: %w", err)
		}
		m.finish()
		msgs = append(msgs, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("list messages: %w", err)
	}
	if backward {
		for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
			msgs[i], msgs[j] = msgs[j], msgs[i]
		}
	}
	env := cursorEnvelope{Results: msgs}
	if len(msgs) > 0 {
		first, last := msgs[0], msgs[len(msgs)-1]
		// "After" the page in display order: older when newest first.
		afterCond, beforeCond := "(part_id, seq) > (?, ?)", "(part_id, seq) < (?, ?)"
		if desc {
			afterCond, beforeCond = beforeCond, afterCond
		}
		if ok, err := rq.msgExists(base, afterCond, last); err != nil {
			return 0, nil, err
		} else if ok {
			env.Next = rq.link(func(q url.Values) {
				q.Set("cursor", last.ID)
				q.Set("limit", strconv.Itoa(limit))
			})
		}
		if ok, err := rq.msgExists(base, beforeCond, first); err != nil {
			return 0, nil, err
		} else if ok {
			env.Previous = rq.link(func(q url.Values) {
				q.Set("cursor", "-"+first.ID)
				q.Set("limit", strconv.Itoa(limit))
			})
		}
	}
	return http.StatusOK, env, nil
}

func (rq *request) msgExists(base *whereB, cond string, m messageJSON) (bool, error) {
	w := base.clone()
	w.add(cond, m.PartID, m.seq)
	var one int
	if err := rq.s.db.QueryRowContext(rq.ctx, "SELECT EXISTS(SELECT 1 FROM messages"+w.sql()+")", w.args...).Scan(&one); err != nil {
		return false, fmt.Errorf("messages exist: %w", err)
	}
	return one == 1, nil
}
