package sandbox

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// --- notes -----------------------------------------------------------------------------------

var noteOrderings = orderings("n", "id", "created_at")

func (rq *request) listNotes() (int, any, error) {
	return plainList(rq, "notes", "n", []idFilter{{"contact_identity_id", "n.contact_id = ?"}}, noteOrderings, rq.loadNotes)
}

func (rq *request) loadNotes(ids []int64) ([]noteJSON, error) {
	writable := rq.writable(capCreateNote, 0)
	return inOrderOf(rq, "notes", ids, `SELECT id, organization_id, contact_id, body, operator_id, created_at, updated_at
		FROM notes WHERE id IN `, func(rows *sql.Rows) (int64, noteJSON, error) {
		n := noteJSON{ReadPermission: true, WritePermission: writable}
		err := rows.Scan(&n.ID, &n.OrganizationID, &n.ContactIdentityID, &n.Body, &n.OperatorID, &n.CreatedAt, &n.UpdatedAt)
		return n.ID, n, err
	})
}

func (rq *request) findNote(id int64) (contactID int64, err error) {
	err = rq.find("notes", id, "contact_id", &contactID)
	return contactID, err
}

func (rq *request) oneNote(id int64, status int) (int, any, error) {
	return one(id, status, rq.loadNotes)
}

func (rq *request) getNote() (int, any, error) {
	if _, err := rq.findNote(rq.route.id); err != nil {
		return 0, nil, err
	}
	return rq.oneNote(rq.route.id, http.StatusOK)
}

func (rq *request) createNote() (int, any, error) {
	body, err := rq.writeBody(capCreateNote, 0)
	if err != nil {
		return 0, nil, err
	}
	var contactID int64
	raw, ok := body["contact_identity_id"]
	if !ok || decodeValue(raw, &contactID) != nil {
		return 0, nil, badRequest("contact_identity_id: required integer.")
	}
	var text string
	raw, ok = body["body"]
	if !ok || decodeValue(raw, &text) != nil {
		return 0, nil, badRequest("body: required string.")
	}
	if strings.TrimSpace(text) == "" {
		return 0, nil, badRequest("body: may not be blank.")
	}
	if len(text) > 10000 {
		return 0, nil, badRequest("body: at most 10000 bytes.")
	}
	var one int
	err = rq.s.db.QueryRowContext(rq.ctx, `SELECT 1 FROM contacts WHERE id = ? AND organization_id = ?`, contactID, rq.org).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, badRequest("contact_identity_id: unknown contact %d.", contactID)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("check contact: %w", err)
	}
	var author any
	if !(rq.op.implicit && !rq.tok.customer) {
		author = rq.op.id
	}
	return rq.create("notes", func(q querier, id, now int64) error {
		if _, err := q.ExecContext(rq.ctx, `INSERT INTO notes(id, organization_id, contact_id, body, operator_id, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, rq.org, contactID, text, author, now, now); err != nil {
			return fmt.Errorf("create note: %w", err)
		}
		return reindexContact(rq, q, contactID)
	}, rq.oneNote)
}

func (rq *request) deleteNote() (int, any, error) {
	var contactID int64
	return rq.remove(0, func() (err error) {
		contactID, err = rq.findNote(rq.route.id)
		return err
	}, func(q querier) error {
		if err := keepIDsRetired(rq, q, "notes", `SELECT ?`, rq.route.id); err != nil {
			return err
		}
		if _, err := q.ExecContext(rq.ctx, `DELETE FROM notes WHERE id = ?`, rq.route.id); err != nil {
			return fmt.Errorf("delete note: %w", err)
		}
		return reindexContact(rq, q, contactID)
	})
}

// --- navigation ------------------------------------------------------------------------------

var navigationOrderings = orderings("v", "id")

func (rq *request) listNavigation() (int, any, error) {
	return plainList(rq, "navigation", "v", []idFilter{
		{"contact_identity_id", "v.contact_id = ?"},
		{"conversation_id", "v.conversation_id = ?"},
	}, navigationOrderings, rq.loadNavigation)
}

func (rq *request) loadNavigation(ids []int64) ([]navigationJSON, error) {
	return inOrderOf(rq, "navigation", ids, `SELECT id, organization_id, contact_id, conversation_id, url, title,
		referrer, created_at FROM navigation WHERE id IN `, func(rows *sql.Rows) (int64, navigationJSON, error) {
		var v navigationJSON
		err := rows.Scan(&v.ID, &v.OrganizationID, &v.ContactIdentityID, &v.ConversationID, &v.URL, &v.Title,
			&v.Referrer, &v.CreatedAt)
		return v.ID, v, err
	})
}

// --- operators -------------------------------------------------------------------------------

var operatorOrderings = orderings("o", "id", "name COLLATE NOCASE")

func (rq *request) listOperators() (int, any, error) {
	return plainList(rq, "operators", "o", nil, operatorOrderings, rq.loadOperators)
}

func (rq *request) loadOperators(ids []int64) ([]operatorJSON, error) {
	return inOrderOf(rq, "operators", ids, `SELECT id, organization_id, name, display_name, email, role, is_bot,
		is_away, is_online, locale, operator_group_id, created_at, updated_at, total_slots
		FROM operators WHERE id IN `, func(rows *sql.Rows) (int64, operatorJSON, error) {
		o := operatorJSON{ReadPermission: true}
		var slots int
		if err := rows.Scan(&o.ID, &o.OrganizationID, &o.Name, &o.DisplayName, &o.Email, &o.Role, &o.IsBot,
			&o.IsAway, &o.IsOnline, &o.Locale, &o.OperatorGroupID, &o.CreatedAt, &o.UpdatedAt, &slots); err != nil {
			return 0, o, err
		}
		if rq.s.variants[VariantSlotsList] {
			o.MaxSlots = &slots
		}
		o.WritePermission = rq.writable(capEditOperator, o.ID)
		return o.ID, o, nil
	})
}

// operatorWrite begins a write to the operator of the route: the session may do c to it,
// the body is a JSON object (writeBody) and the operator is there.
func (rq *request) operatorWrite(c capability) (id int64, body map[string]json.RawMessage, err error) {
	id = rq.route.id
	if body, err = rq.writeBody(c, id); err != nil {
		return 0, nil, err
	}
	if err := rq.findOperator(id); err != nil {
		return 0, nil, err
	}
	return id, body, nil
}

func (rq *request) findOperator(id int64) error { return rq.find("operators", id, "1", new(int)) }

func (rq *request) oneOperator(id int64) (int, any, error) {
	return one(id, http.StatusOK, rq.loadOperators)
}

func (rq *request) getOperator() (int, any, error) {
	if err := rq.findOperator(rq.route.id); err != nil {
		return 0, nil, err
	}
	return rq.oneOperator(rq.route.id)
}

func (rq *request) patchOperator() (int, any, error) {
	id, body, err := rq.operatorWrite(capEditOperator)
	if err != nil {
		return 0, nil, err
	}
	sets := []string{"updated_at = ?"}
	args := []any{rq.s.opts.Now().UnixMicro()}
	for _, f := range []string{"name", "display_name", "email", "locale"} {
		raw, ok := body[f]
		if !ok {
			continue
		}
		var s string
		if err := decodeValue(raw, &s); err != nil || strings.TrimSpace(s) == "" {
			return 0, nil, badRequest("%s: expected a non-empty string.", f)
		}
		if len(s) > 200 {
			return 0, nil, badRequest("%s: at most 200 bytes.", f)
		}
		switch f {
		case "email":
			if at := strings.Index(s, "@"); at <= 0 || at == len(s)-1 || strings.ContainsAny(s, " \t\r\n") {
				return 0, nil, badRequest("email: %q is not a valid email address.", s)
			}
		case "locale":
			if !localeRe.MatchString(s) {
				return 0, nil, badRequest("locale: expected the form ll_CC, e.g. en_US.")
			}
		}
		sets = append(sets, f+" = ?")
		args = append(args, s)
	}
	// is_away is ignored here: only /operators/{id}/away/ changes it.
	if _, err := rq.s.db.ExecContext(rq.ctx, "UPDATE operators SET "+strings.Join(sets, ", ")+" WHERE id = ?", append(args, id)...); err != nil {
		return 0, nil, fmt.Errorf("update operator: %w", err)
	}
	return rq.oneOperator(id)
}

func (rq *request) deleteOperator() (int, any, error) {
	id := rq.route.id
	return rq.remove(id, func() error {
		if err := rq.findOperator(id); err != nil {
			return err
		}
		if rq.s.ownerOf[rq.org] == id {
			return badRequest("Operator %d is the organization's owner and cannot be deleted.", id)
		}
		return nil
	}, func(q querier) error {
		if _, err := q.ExecContext(rq.ctx, `UPDATE conversations SET operator_assigned_to = NULL, slot_reserved = 0
			WHERE operator_assigned_to = ?`, id); err != nil {
			return fmt.Errorf("unassign conversations: %w", err)
		}
		if _, err := q.ExecContext(rq.ctx, `DELETE FROM operators WHERE id = ?`, id); err != nil {
			return fmt.Errorf("delete operator: %w", err)
		}
		return nil
	})
}

type slotsJSON struct {
	OperatorID   int64 `json:"operator_id"`
	CurrentSlots int   `json:"current_slots"`
	TotalSlots   int   `json:"total_slots"`
}

// slotsUsedMaxJSON is the slots answer of VariantSlotsUsedMax.
type slotsUsedMaxJSON struct {
	Used int `json:"used"`
	Max  int `json:"max"`
}

// slotJSON is one occupied slot in the answer of VariantSlotsList.
type slotJSON struct {
	ConversationID int64 `json:"conversation_id"`
	ReservedAt     stamp `json:"reserved_at"`
}

// operatorSlots answers an operator's slot use: the operator's conversations in status new
// hold its slots, at most total_slots of them (the oldest ones first).
func (rq *request) operatorSlots() (int, any, error) {
	id := rq.route.id
	if err := rq.findOperator(id); err != nil {
		return 0, nil, err
	}
	var total int
	if err := rq.s.db.QueryRowContext(rq.ctx, `SELECT total_slots FROM operators WHERE id = ?`, id).Scan(&total); err != nil {
		return 0, nil, fmt.Errorf("operator slots: %w", err)
	}
	rows, err := rq.s.db.QueryContext(rq.ctx, `SELECT id, created_at FROM conversations
		WHERE operator_assigned_to = ? AND status = 'new' ORDER BY created_at, id LIMIT ?`, id, total)
	if err != nil {
		return 0, nil, fmt.Errorf("operator slots: %w", err)
	}
	defer rows.Close()
	held := []slotJSON{}
	for rows.Next() {
		var sl slotJSON
		if err := rows.Scan(&sl.ConversationID, &sl.ReservedAt); err != nil {
			return 0, nil, fmt.Errorf("scan slot: %w", err)
		}
		held = append(held, sl)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("operator slots: %w", err)
	}
	switch {
	case rq.s.variants[VariantSlotsUsedMax]:
		return http.StatusOK, slotsUsedMaxJSON{Used: len(held), Max: total}, nil
	case rq.s.variants[VariantSlotsList]:
		return http.StatusOK, held, nil
	}
	return http.StatusOK, slotsJSON{OperatorID: id, CurrentSlots: len(held), TotalSlots: total}, nil
}

type awayJSON struct {
	OperatorID int64 `json:"operator_id"`
	IsAway     bool  `json:"is_away"`
	ChangedAt  stamp `json:"changed_at"`
}

// operatorAway sets the away status. The sandbox's own choice: away also marks the operator
// offline, and the answer is the away status. With VariantAwayIndependent the online status
// stays as it is and the answer is the whole operator.
func (rq *request) operatorAway() (int, any, error) {
	id, body, err := rq.operatorWrite(capToggleAway)
	if err != nil {
		return 0, nil, err
	}
	raw, ok := body["is_away"]
	var away bool
	if !ok || decodeValue(raw, &away) != nil {
		return 0, nil, badRequest("is_away: required boolean.")
	}
	independent := rq.s.variants[VariantAwayIndependent]
	now := rq.s.opts.Now().UnixMicro()
	if _, err := rq.s.db.ExecContext(rq.ctx, `UPDATE operators SET is_away = ?, away_changed_at = ?,
		is_online = CASE WHEN ? AND NOT ? THEN 0 ELSE is_online END WHERE id = ?`, b2i(away), now, b2i(away), b2i(independent), id); err != nil {
		return 0, nil, fmt.Errorf("update away status: %w", err)
	}
	if independent {
		return rq.oneOperator(id)
	}
	return http.StatusOK, awayJSON{OperatorID: id, IsAway: away, ChangedAt: stamp(now)}, nil
}

// --- ids ---------------------------------------------------------------------------------------

// SQLite hands out max(id)+1, so the id of the newest row came back after its delete: a
// retried DELETE, or an id kept by a client, could then hit another resource. The highest
// id a table ever had is kept in meta ("retired_id_<table>") and new rows go above it.

// keepIDsRetired records the highest id that maxQuery (one value) finds among rows about
// to be deleted from table.
func keepIDsRetired(rq *request, q querier, table, maxQuery string, args ...any) error {
	var top sql.NullInt64
	if err := q.QueryRowContext(rq.ctx, maxQuery, args...).Scan(&top); err != nil {
		return fmt.Errorf("retire %s ids: %w", table, err)
	}
	if !top.Valid {
		return nil
	}
	return raiseRetired(rq, q, table, top.Int64)
}

func raiseRetired(rq *request, q querier, table string, id int64) error {
	cur, err := retiredID(rq, q, table)
	if err != nil || id <= cur {
		return err
	}
	return setMeta(rq.ctx, q, "retired_id_"+table, strconv.FormatInt(id, 10))
}

func retiredID(rq *request, q querier, table string) (int64, error) {
	v, err := getMeta(rq.ctx, q, "retired_id_"+table)
	if err != nil || v == "" {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("meta retired_id_%s: %w", table, err)
	}
	return n, nil
}

// create answers a request that makes a row of table: in one transaction insert writes it
// with a new id (nextID) at now; the answer is the new resource as answer gives it, 201.
func (rq *request) create(table string, insert func(q querier, id, now int64) error, answer func(id int64, status int) (int, any, error)) (int, any, error) {
	var id int64
	err := rq.s.inTx(rq, func(q querier) error {
		now := rq.s.opts.Now().UnixMicro()
		var err error
		if id, err = nextID(rq, q, table); err != nil {
			return err
		}
		return insert(q, id, now)
	})
	if err != nil {
		return 0, nil, err
	}
	return answer(id, http.StatusCreated)
}

// remove answers a DELETE of one row: the delete permission (target: the operator the
// permission concerns, 0 for none), then check (the row is there and may go; its error is
// the answer), then del in one transaction; 204.
func (rq *request) remove(target int64, check func() error, del func(q querier) error) (int, any, error) {
	if err := rq.require(capDelete, target); err != nil {
		return 0, nil, err
	}
	if err := check(); err != nil {
		return 0, nil, err
	}
	if err := rq.s.inTx(rq, del); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

// nextID is the id of a new row of table: above every id it has or ever had.
func nextID(rq *request, q querier, table string) (int64, error) {
	var top sql.NullInt64
	if err := q.QueryRowContext(rq.ctx, `SELECT max(id) FROM `+table).Scan(&top); err != nil {
		return 0, fmt.Errorf("next %s id: %w", table, err)
	}
	retired, err := retiredID(rq, q, table)
	if err != nil {
		return 0, err
	}
	id := max(top.Int64, retired) + 1
	return id, raiseRetired(rq, q, table, id)
}
