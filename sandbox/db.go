package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// querier is what *sql.DB, *sql.Conn and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// eachRow runs query and calls scan on each row of the result, in order, and closes the
// rows before it returns; the first error (of the query, a scan or reading the rows) ends it.
func eachRow(ctx context.Context, q querier, query string, args []any, scan func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// column runs query, whose rows have one column, and returns its values in order.
func column[T any](ctx context.Context, q querier, query string, args ...any) ([]T, error) {
	var out []T
	err := eachRow(ctx, q, query, args, func(rows *sql.Rows) error {
		var v T
		if err := rows.Scan(&v); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// reseedAfter is how old (by the seed clock) a database may be before it is seeded anew, so
// that "the last 7 days" of demo analytics are never empty.
const reseedAfter = 7 * 24 * time.Hour

// migrations[i] brings the schema from version i to version i+1.
var migrations = []string{
	schemaV1,
	searchSchema(),
}

const schemaV1 = `
CREATE TABLE organizations (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	token TEXT NOT NULL UNIQUE,
	position INTEGER NOT NULL
);
CREATE TABLE operator_groups (
	id INTEGER PRIMARY KEY,
	organization_id INTEGER NOT NULL,
	name TEXT NOT NULL
);
CREATE TABLE operators (
	id INTEGER PRIMARY KEY,
	organization_id INTEGER NOT NULL,
	name TEXT NOT NULL,
	display_name TEXT NOT NULL,
	email TEXT NOT NULL,
	role TEXT NOT NULL,
	is_bot INTEGER NOT NULL,
	is_away INTEGER NOT NULL,
	is_online INTEGER NOT NULL,
	locale TEXT NOT NULL,
	operator_group_id INTEGER,
	total_slots INTEGER NOT NULL,
	away_changed_at INTEGER NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX operators_org ON operators(organization_id, id);
CREATE TABLE widgets (
	id INTEGER PRIMARY KEY,
	organization_id INTEGER NOT NULL,
	name TEXT NOT NULL,
	language_name TEXT NOT NULL
);
CREATE TABLE topics (
	id INTEGER PRIMARY KEY,
	organization_id INTEGER NOT NULL,
	text TEXT NOT NULL,
	text_key TEXT NOT NULL,
	UNIQUE (organization_id, text_key)
);
CREATE TABLE contacts (
	id INTEGER PRIMARY KEY,
	organization_id INTEGER NOT NULL,
	name TEXT,
	email TEXT,
	email_verified INTEGER NOT NULL,
	phone_number TEXT,
	mobile_number TEXT,
	is_mobile_number_verified INTEGER NOT NULL,
	company TEXT,
	position TEXT,
	gender TEXT,
	salutation TEXT,
	street TEXT,
	city TEXT,
	country TEXT,
	loc_lat REAL NOT NULL,
	loc_lon REAL NOT NULL,
	locale TEXT NOT NULL,
	external_customer_id TEXT,
	contact_by_email INTEGER NOT NULL,
	contact_by_phone INTEGER NOT NULL,
	contact_by_service_channels INTEGER NOT NULL,
	contact_by_service_messenger INTEGER NOT NULL,
	is_blocked INTEGER NOT NULL,
	needs_register INTEGER NOT NULL,
	url_facebook TEXT,
	url_linkedin TEXT,
	url_profile_picture TEXT,
	url_twitter TEXT,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	first_message_sent_at INTEGER,
	last_message_sent_at INTEGER
);
CREATE INDEX contacts_org_created ON contacts(organization_id, created_at);
CREATE INDEX contacts_org_name ON contacts(organization_id, name);
CREATE INDEX contacts_org_email ON contacts(organization_id, email COLLATE NOCASE);
CREATE INDEX contacts_org_ext ON contacts(organization_id, external_customer_id);
CREATE INDEX contacts_org_mobile ON contacts(organization_id, mobile_number);
CREATE TABLE contact_uuids (
	uuid TEXT PRIMARY KEY,
	contact_id INTEGER NOT NULL,
	widget_id INTEGER NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX contact_uuids_contact ON contact_uuids(contact_id);
CREATE TABLE conversations (
	id INTEGER PRIMARY KEY,
	organization_id INTEGER NOT NULL,
	contact_id INTEGER NOT NULL,
	contact_uuid TEXT NOT NULL,
	widget_id INTEGER NOT NULL,
	operator_assigned_to INTEGER,
	status TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	last_message_sent_at INTEGER NOT NULL,
	last_activity_at INTEGER NOT NULL,
	contact_first_message_sent_at INTEGER,
	contact_last_message_sent_at INTEGER,
	contact_last_update_at INTEGER NOT NULL,
	accepts_messages INTEGER NOT NULL,
	data_privacy INTEGER NOT NULL,
	expiry_state INTEGER NOT NULL,
	feedback_message TEXT,
	language_name TEXT NOT NULL,
	locale TEXT NOT NULL,
	marked_read_contact INTEGER NOT NULL,
	marked_read_operator INTEGER NOT NULL,
	page_impressions INTEGER NOT NULL,
	rate INTEGER,
	slot_reserved INTEGER NOT NULL,
	channel_type TEXT NOT NULL,
	channel_state TEXT NOT NULL,
	custom TEXT NOT NULL,
	addon_urls TEXT NOT NULL
);
CREATE INDEX conversations_org_last ON conversations(organization_id, last_message_sent_at);
CREATE INDEX conversations_org_updated ON conversations(organization_id, updated_at);
CREATE INDEX conversations_org_status ON conversations(organization_id, status);
CREATE INDEX conversations_contact ON conversations(contact_id);
CREATE INDEX conversations_uuid ON conversations(contact_uuid);
CREATE INDEX conversations_operator ON conversations(operator_assigned_to);
CREATE TABLE conversation_topics (
	conversation_id INTEGER NOT NULL,
	topic_id INTEGER NOT NULL,
	PRIMARY KEY (conversation_id, topic_id)
) WITHOUT ROWID;
CREATE INDEX conversation_topics_topic ON conversation_topics(topic_id, conversation_id);
CREATE TABLE parts (
	id INTEGER PRIMARY KEY,
	conversation_id INTEGER NOT NULL,
	widget_id INTEGER NOT NULL,
	created_at INTEGER NOT NULL,
	ended_at INTEGER NOT NULL,
	browser_name TEXT NOT NULL,
	browser_os TEXT NOT NULL,
	browser_version TEXT NOT NULL,
	city TEXT NOT NULL,
	country TEXT NOT NULL,
	lat REAL NOT NULL,
	lon REAL NOT NULL,
	referrer TEXT
);
CREATE INDEX parts_conversation ON parts(conversation_id, id);
CREATE INDEX parts_widget ON parts(widget_id, conversation_id);
CREATE TABLE messages (
	conversation_id INTEGER NOT NULL,
	part_id INTEGER NOT NULL,
	seq INTEGER NOT NULL,
	sent_at INTEGER NOT NULL,
	body TEXT NOT NULL,
	url TEXT,
	state_type INTEGER NOT NULL,
	operator_id INTEGER,
	operator_name TEXT NOT NULL,
	operator_display_name TEXT NOT NULL,
	operator_is_bot INTEGER NOT NULL,
	sender_type TEXT NOT NULL,
	sender_id INTEGER NOT NULL,
	name TEXT NOT NULL,
	display_name TEXT NOT NULL,
	marked_read_operator INTEGER NOT NULL,
	marked_read_contact INTEGER NOT NULL,
	PRIMARY KEY (conversation_id, part_id, seq)
) WITHOUT ROWID;
CREATE TABLE notes (
	id INTEGER PRIMARY KEY,
	organization_id INTEGER NOT NULL,
	contact_id INTEGER NOT NULL,
	body TEXT NOT NULL,
	operator_id INTEGER,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX notes_contact ON notes(contact_id, id);
CREATE INDEX notes_org ON notes(organization_id, id);
CREATE TABLE navigation (
	id INTEGER PRIMARY KEY,
	organization_id INTEGER NOT NULL,
	contact_id INTEGER,
	conversation_id INTEGER,
	url TEXT NOT NULL,
	title TEXT NOT NULL,
	referrer TEXT,
	created_at INTEGER NOT NULL
);
CREATE INDEX navigation_org ON navigation(organization_id, id);
CREATE INDEX navigation_contact ON navigation(contact_id);
CREATE INDEX navigation_conversation ON navigation(conversation_id);
CREATE TABLE analytics (
	id INTEGER PRIMARY KEY,
	metric TEXT NOT NULL,
	organization_id INTEGER NOT NULL,
	widget_ids TEXT NOT NULL,
	operator_id INTEGER,
	operator_group_id INTEGER,
	time INTEGER NOT NULL,
	value REAL,
	value_str TEXT,
	conversation_id INTEGER,
	conversation_part_id INTEGER,
	conversation_session_id INTEGER,
	is_chatbot_metric INTEGER NOT NULL,
	chatbot_interaction INTEGER,
	human_interaction INTEGER
);
CREATE INDEX analytics_metric_time ON analytics(metric, time);
CREATE VIRTUAL TABLE conversations_fts USING fts5(
	name, email, street, city, messages,
	tokenize = 'porter unicode61 remove_diacritics 2',
	prefix = '2 3 4'
);
CREATE VIRTUAL TABLE contacts_fts USING fts5(
	name, email, street, city, country, notes,
	tokenize = 'porter unicode61 remove_diacritics 2',
	prefix = '2 3 4'
);
`

type metaState struct {
	schemaVersion int
	dataVersion   int // seedDataVersion of the generator that seeded it; 0 if not recorded
	seed          int64
	size          Size
	seededAt      int64 // micros
	complete      bool
}

func readMeta(ctx context.Context, q querier) (metaState, error) {
	var m metaState
	rows, err := q.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return m, fmt.Errorf("read meta: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return m, fmt.Errorf("read meta row: %w", err)
		}
		switch k {
		case "schema_version":
			m.schemaVersion, _ = strconv.Atoi(v)
		case "seed_data_version":
			m.dataVersion, _ = strconv.Atoi(v)
		case "seed":
			m.seed, _ = strconv.ParseInt(v, 10, 64)
		case "size":
			m.size = Size(v)
		case "seeded_at":
			m.seededAt, _ = strconv.ParseInt(v, 10, 64)
		case "seed_complete":
			m.complete = v == "1"
		}
	}
	if err := rows.Err(); err != nil {
		return m, fmt.Errorf("read meta rows: %w", err)
	}
	return m, nil
}

func setMeta(ctx context.Context, q querier, key, value string) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES (?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("write meta %s: %w", key, err)
	}
	return nil
}

func getMeta(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read meta %s: %w", key, err)
	}
	return v, nil
}

// usable reports whether a database in state m can be served as it is (after migrations).
func (m metaState) usable(o Options, now time.Time) bool {
	if !m.complete || m.seed != o.Seed || m.size != o.Size {
		return false
	}
	// Data from another version of the generator may lack what this one guarantees.
	if m.dataVersion != seedDataVersion {
		return false
	}
	if m.schemaVersion < 1 || m.schemaVersion > len(migrations) {
		return false
	}
	age := now.Sub(time.UnixMicro(m.seededAt))
	return age <= reseedAfter && age >= -reseedAfter
}

// openDB opens the database and makes sure it is migrated and seeded. It reports whether an
// existing seeded database was reused.
func openDB(ctx context.Context, o Options) (*sql.DB, bool, error) {
	dsn := ":memory:"
	if o.DBPath != "" {
		if strings.ContainsAny(o.DBPath, "?#") {
			return nil, false, fmt.Errorf("sandbox database path %q must not contain '?' or '#'", o.DBPath)
		}
		dsn = o.DBPath
	}
	open := func() (*sql.DB, bool, error) {
		if o.DBPath != "" {
			if err := privateFiles(o.DBPath); err != nil {
				return nil, false, err
			}
		}
		return openDSN(ctx, dsn, o)
	}
	db, reused, err := open()
	if err != nil && o.DBPath != "" && isDamaged(err) {
		// The file is a cache of generated data: a damaged one is replaced.
		for _, suffix := range dbFileSuffixes {
			if rmErr := os.Remove(o.DBPath + suffix); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
				return nil, false, fmt.Errorf("remove damaged sandbox database: %w (after %w)", rmErr, err)
			}
		}
		db, reused, err = open()
	}
	return db, reused, err
}

// dbFileSuffixes name the database file and the files SQLite keeps beside it.
var dbFileSuffixes = []string{"", "-wal", "-shm", "-journal"}

// privateFiles makes the database file at path, and the files SQLite keeps beside it, readable
// and writable by their owner only: the database holds the tokens. SQLite creates a missing
// database file with mode 0644 (less the umask) and its -wal, -shm and -journal files with
// the database file's mode; so a missing file is created here first, with mode 0600, and
// files an earlier version left readable by others are narrowed to their owner.
func privateFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create sandbox database: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("create sandbox database: %w", err)
	}
	for _, suffix := range dbFileSuffixes {
		fi, err := os.Stat(path + suffix)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sandbox database: %w", err)
		}
		if perm := fi.Mode().Perm(); perm&0o077 != 0 {
			if err := os.Chmod(path+suffix, perm&0o700); err != nil {
				return fmt.Errorf("sandbox database: make it private: %w", err)
			}
		}
	}
	return nil
}

// isDamaged reports errors of a file that is not a usable SQLite database.
func isDamaged(err error) bool {
	s := err.Error()
	return strings.Contains(s, "not a database") || strings.Contains(s, "malformed") || strings.Contains(s, "SQLITE_CORRUPT")
}

func openDSN(ctx context.Context, dsn string, o Options) (*sql.DB, bool, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, false, fmt.Errorf("open sandbox database: %w", err)
	}
	// One connection: an in-memory database lives in its connection, and SQLite serializes
	// writers anyway. The connection is never recycled.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if o.Image != nil {
		if err := restore(ctx, db, o.Image); err != nil {
			_ = db.Close()
			return nil, false, err
		}
	}
	reused, err := prepareDB(ctx, db, o)
	if err != nil {
		_ = db.Close()
		return nil, false, err
	}
	return db, reused, nil
}

func prepareDB(ctx context.Context, db *sql.DB, o Options) (bool, error) {
	pragmas := []string{
		`PRAGMA busy_timeout = 120000`,
		`PRAGMA temp_store = MEMORY`,
		`PRAGMA cache_size = -65536`,
		`PRAGMA foreign_keys = OFF`,
	}
	if o.DBPath != "" {
		pragmas = append(pragmas, `PRAGMA journal_mode = WAL`, `PRAGMA synchronous = NORMAL`)
	}
	for _, p := range pragmas {
		if _, err := db.ExecContext(ctx, p); err != nil {
			return false, fmt.Errorf("sandbox database %s: %w", p, err)
		}
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`); err != nil {
		return false, fmt.Errorf("create meta table: %w", err)
	}
	now := o.Now()
	m, err := readMeta(ctx, db)
	if err != nil {
		return false, err
	}
	if m.usable(o, now) {
		if m.schemaVersion < len(migrations) {
			if err := migrateInTx(ctx, db, m.schemaVersion); err != nil {
				return false, err
			}
		}
		return true, nil
	}

	conn, err := db.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("sandbox database connection: %w", err)
	}
	defer conn.Close()
	// BEGIN IMMEDIATE takes the write lock at once, so that two processes opening the same
	// file do not both seed it: the second one waits and then finds it seeded.
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return false, fmt.Errorf("begin seeding: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			_, _ = conn.ExecContext(context.Background(), `ROLLBACK`)
		}
	}()
	m, err = readMeta(ctx, conn)
	if err != nil {
		return false, err
	}
	if m.usable(o, now) {
		if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
			return false, fmt.Errorf("commit: %w", err)
		}
		committed = true
		if m.schemaVersion < len(migrations) {
			if err := migrateInTx(ctx, db, m.schemaVersion); err != nil {
				return false, err
			}
		}
		return true, nil
	}
	if err := dropAll(ctx, conn); err != nil {
		return false, err
	}
	if err := migrate(ctx, conn, 0); err != nil {
		return false, err
	}
	start := time.Now()
	if err := seed(ctx, conn, o, now); err != nil {
		return false, err
	}
	for _, kv := range [][2]string{
		{"seed", strconv.FormatInt(o.Seed, 10)},
		{"seed_data_version", strconv.Itoa(seedDataVersion)},
		{"size", string(o.Size)},
		{"seeded_at", strconv.FormatInt(now.UnixMicro(), 10)},
		{"seed_duration_ms", strconv.FormatInt(time.Since(start).Milliseconds(), 10)},
		{"seed_complete", "1"},
	} {
		if err := setMeta(ctx, conn, kv[0], kv[1]); err != nil {
			return false, err
		}
	}
	if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
		return false, fmt.Errorf("commit seeded data: %w", err)
	}
	committed = true
	if o.DBPath != "" {
		if _, err := conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			return false, fmt.Errorf("checkpoint: %w", err)
		}
	}
	return false, nil
}

func migrateInTx(ctx context.Context, db *sql.DB, from int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin migration: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := migrate(ctx, tx, from); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit migration: %w", err)
	}
	return nil
}

// migrate applies the migrations after version from.
func migrate(ctx context.Context, q querier, from int) error {
	for v := from; v < len(migrations); v++ {
		if _, err := q.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migrate sandbox schema to version %d: %w", v+1, err)
		}
		if err := setMeta(ctx, q, "schema_version", strconv.Itoa(v+1)); err != nil {
			return err
		}
	}
	return nil
}

// dropAll removes every table but meta, and clears meta.
func dropAll(ctx context.Context, q querier) error {
	for _, virtual := range []bool{true, false} {
		cond := `sql NOT LIKE 'CREATE VIRTUAL%'`
		if virtual {
			cond = `sql LIKE 'CREATE VIRTUAL%'`
		}
		names, err := column[string](ctx, q, `SELECT name FROM sqlite_master WHERE type = 'table'
			AND name NOT LIKE 'sqlite_%' AND name <> 'meta' AND `+cond)
		if err != nil {
			return fmt.Errorf("list tables: %w", err)
		}
		for _, n := range names {
			if _, err := q.ExecContext(ctx, `DROP TABLE IF EXISTS "`+strings.ReplaceAll(n, `"`, `""`)+`"`); err != nil {
				return fmt.Errorf("drop table %s: %w", n, err)
			}
		}
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM meta`); err != nil {
		return fmt.Errorf("clear meta: %w", err)
	}
	return nil
}

// loadInfo reads tokens and notable ids into the server.
func (s *Server) loadInfo(ctx context.Context) error {
	info := Info{OrgTokens: map[int64]string{}}
	s.tokens = map[string]tokenInfo{}
	s.ownerOf = map[int64]int64{}
	rows, err := s.db.QueryContext(ctx, `SELECT id, token FROM organizations ORDER BY position`)
	if err != nil {
		return fmt.Errorf("load organizations: %w", err)
	}
	for rows.Next() {
		var id int64
		var tok string
		if err := rows.Scan(&id, &tok); err != nil {
			rows.Close()
			return fmt.Errorf("load organizations: %w", err)
		}
		info.OrgIDs = append(info.OrgIDs, id)
		info.OrgTokens[id] = tok
		s.tokens[tok] = tokenInfo{orgID: id}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load organizations: %w", err)
	}
	if len(info.OrgIDs) == 0 {
		return errors.New("sandbox database has no organizations")
	}
	info.DefaultOrgID = info.OrgIDs[0]
	tok, err := getMeta(ctx, s.db, "customer_token")
	if err != nil {
		return err
	}
	info.CustomerToken = tok
	s.tokens[tok] = tokenInfo{customer: true, orgID: info.DefaultOrgID}

	rows, err = s.db.QueryContext(ctx, `SELECT organization_id, MIN(id) FROM operators WHERE role = 'owner' GROUP BY organization_id`)
	if err != nil {
		return fmt.Errorf("load owners: %w", err)
	}
	for rows.Next() {
		var org, id int64
		if err := rows.Scan(&org, &id); err != nil {
			rows.Close()
			return fmt.Errorf("load owners: %w", err)
		}
		s.ownerOf[org] = id
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load owners: %w", err)
	}
	info.OwnerOperatorID = s.ownerOf[info.DefaultOrgID]
	for key, dst := range map[string]*int64{
		"customer_id":             &s.customerID,
		"restricted_operator_id":  &info.RestrictedOperatorID,
		"long_conversation_id":    &info.LongConversationID,
		"hostile_conversation_id": &info.HostileConversationID,
	} {
		v, err := getMeta(ctx, s.db, key)
		if err != nil {
			return err
		}
		*dst, _ = strconv.ParseInt(v, 10, 64)
	}
	s.info = info
	return nil
}
