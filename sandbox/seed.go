package sandbox

import (
	"context"
	crand "crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"
)

// seedDataVersion identifies the output of the generator in this file and seeddata.go. It is
// stored in the meta table when a database is seeded, and a file whose stored version differs
// (or is missing, as in files seeded before it existed) is seeded anew rather than reused.
// Bump it whenever the generated data changes for the same seed, size and clock.
//
// Version 4: the tokens are random (see gen.secret); files of earlier versions hold tokens
// derived from the seed, which anyone can compute, and are seeded anew.
// Version 5: the hostile contact's name, a hostile message and a hostile note carry
// invisible characters (ZWNJ, tags, Hangul fillers, isolates).
// Version 6: the hostile conversation's link message carries its url with the escape
// sequences and bell that follow it in the text (a hostile url).
const seedDataVersion = 6

type sizeSpec struct {
	contacts      int
	conversations int
	messages      int
	longMessages  int
	analyticsDay  int // data points per metric per organization per day (average)
	navPerContact int
}

var sizeSpecs = map[Size]sizeSpec{
	SizeSmall:  {contacts: 60, conversations: 150, messages: 3000, longMessages: 1520, analyticsDay: 1, navPerContact: 3},
	SizeMedium: {contacts: 300, conversations: 1000, messages: 30000, longMessages: 1600, analyticsDay: 3, navPerContact: 6},
	SizeLarge:  {contacts: 5000, conversations: 20000, messages: 500000, longMessages: 2000, analyticsDay: 6, navPerContact: 4},
}

const (
	usSecond = int64(time.Second / time.Microsecond)
	usMinute = 60 * usSecond
	usHour   = 60 * usMinute
	usDay    = 24 * usHour
	seedDays = 120
)

// Id bases keep the kinds of ids apart, which makes mix-ups visible in tests and demos.
const (
	orgIDBase          = 1000
	operatorIDBase     = 2000
	widgetIDBase       = 3000
	topicIDBase        = 4000
	groupIDBase        = 5000
	contactIDBase      = 50000
	noteIDBase         = 60000
	navigationIDBase   = 80000
	conversationIDBase = 700000
	partIDBase         = 900000
)

type genOp struct {
	id      int64
	orgID   int64
	name    string
	display string
	first   string
	email   string
	role    string
	isBot   bool
	groupID int64
	slots   int
}

type genWidget struct {
	id       int64
	name     string
	language string
}

type genTopic struct {
	id   int64
	text string
}

type genContact struct {
	id        int64
	org       *genOrg
	name      *string
	first     string
	email     *string
	city      city
	country   *country
	locale    string
	createdAt int64
	firstMsg  int64 // 0 = none
	lastMsg   int64
	uuids     map[int64]string // widget id → conversation contact UUID
	weight    float64
	hostile   bool
}

type genOrg struct {
	id       int64
	spec     *orgSpec
	token    string
	humans   []*genOp
	bot      *genOp
	ops      []*genOp
	widgets  []genWidget
	topics   []genTopic
	groups   []int64
	contacts []*genContact
	cumW     []float64 // cumulative contact weights
	convIDs  []int64
	partIDs  []int64 // first part of each conversation, parallel to convIDs
	convDay  map[int64][]int
}

type convPlan struct {
	org       *genOrg
	contact   *genContact
	status    string
	createdAt int64
	messages  int
	parts     int
	long      bool
	hostile   bool
	id        int64
}

type gen struct {
	ctx     context.Context
	q       querier
	rng     *rand.Rand
	fillRNG *rand.Rand // fills empty analytics days; apart from rng so that no other value changes
	now     int64      // micros
	size    sizeSpec
	orgs    []*genOrg
	stmts   map[string]*sql.Stmt

	nextPart   int64
	longID     int64
	hostileID  int64
	restricted int64
}

// seed fills an empty, migrated database with deterministic demo data and fresh random
// tokens.
func seed(ctx context.Context, q querier, o Options, now time.Time) error {
	g := &gen{
		ctx:      ctx,
		q:        q,
		rng:      rand.New(rand.NewPCG(uint64(o.Seed), 0x9e3779b97f4a7c15)),
		fillRNG:  rand.New(rand.NewPCG(uint64(o.Seed), 0xd1b54a32d192ed03)),
		now:      now.UnixMicro(),
		size:     sizeSpecs[o.Size],
		stmts:    map[string]*sql.Stmt{},
		nextPart: partIDBase,
	}
	if o.LongThread > 0 {
		g.size.longMessages = o.LongThread
	}
	defer func() {
		for _, st := range g.stmts {
			_ = st.Close()
		}
	}()
	steps := []struct {
		name string
		fn   func() error
	}{
		{"organizations", g.seedOrganizations},
		{"contacts", g.planContacts},
		{"conversations", g.seedConversations},
		{"contacts", g.insertContacts},
		{"notes", g.seedNotes},
		{"navigation", g.seedNavigation},
		{"analytics", g.seedAnalytics},
		{"search index", g.buildSearchIndex},
		{"meta", g.writeMeta},
	}
	for _, st := range steps {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("seed %s: %w", st.name, err)
		}
		if err := st.fn(); err != nil {
			return fmt.Errorf("seed %s: %w", st.name, err)
		}
	}
	if _, err := q.ExecContext(ctx, `ANALYZE`); err != nil {
		return fmt.Errorf("seed: analyze: %w", err)
	}
	return nil
}

func (g *gen) exec(query string, args ...any) error {
	st, ok := g.stmts[query]
	if !ok {
		var err error
		st, err = g.q.PrepareContext(g.ctx, query)
		if err != nil {
			return fmt.Errorf("prepare %.40q: %w", query, err)
		}
		g.stmts[query] = st
	}
	if _, err := st.ExecContext(g.ctx, args...); err != nil {
		return fmt.Errorf("exec %.40q: %w", query, err)
	}
	return nil
}

// --- random helpers -------------------------------------------------------------------

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

func (g *gen) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return g.rng.IntN(n)
}

func (g *gen) between(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + g.rng.Int64N(hi-lo)
}

func pick[T any](g *gen, xs []T) T { return xs[g.intn(len(xs))] }

func (g *gen) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.intn(16)]
	}
	return string(b)
}

// secret is a new token: prefix and n hex digits from crypto/rand, so that no two databases
// share tokens and no token follows from the seed. It still draws n digits from the seeded
// generator, as the tokens did when they came from it, so that every other value of a seed's
// data stays what it was.
func (g *gen) secret(prefix string, n int) string {
	_ = g.hex(n)
	b := make([]byte, (n+1)/2)
	_, _ = crand.Read(b) // crypto/rand.Read never returns an error
	return prefix + hex.EncodeToString(b)[:n]
}

func (g *gen) uuid() string {
	h := g.hex(32)
	b := []byte(h)
	b[12] = '4'
	b[16] = "89ab"[g.intn(4)]
	return string(b[0:8]) + "-" + string(b[8:12]) + "-" + string(b[12:16]) + "-" + string(b[16:20]) + "-" + string(b[20:32])
}

func (g *gen) digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + g.intn(10))
	}
	if b[0] == '0' {
		b[0] = '1'
	}
	return string(b)
}

func strp(s string) *string { return &s }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// --- organizations, operators, widgets, topics ------------------------------------------

func (g *gen) seedOrganizations() error {
	opID := int64(operatorIDBase)
	widgetID := int64(widgetIDBase)
	topicID := int64(topicIDBase)
	groupID := int64(groupIDBase)
	for i := range orgSpecs {
		spec := &orgSpecs[i]
		org := &genOrg{id: int64(orgIDBase + i + 1), spec: spec, convDay: map[int64][]int{}}
		org.token = g.secret(fmt.Sprintf("org_%d_", org.id), 32)
		if err := g.exec(`INSERT INTO organizations(id, name, token, position) VALUES (?, ?, ?, ?)`,
			org.id, spec.name, org.token, i); err != nil {
			return err
		}
		for _, name := range spec.groups {
			groupID++
			org.groups = append(org.groups, groupID)
			if err := g.exec(`INSERT INTO operator_groups(id, organization_id, name) VALUES (?, ?, ?)`, groupID, org.id, name); err != nil {
				return err
			}
		}
		for j, h := range spec.humans {
			opID++
			role := "admin"
			switch {
			case j == 0:
				role = "owner"
			case i == 0 && j == len(spec.humans)-1:
				role = "agent"
			}
			first, _, _ := strings.Cut(h.display, " ")
			op := &genOp{
				id: opID, orgID: org.id, name: h.display, display: first, first: first,
				email: strings.ReplaceAll(asciiFold(first), " ", "") + "@" + spec.domain,
				role:  role, groupID: org.groups[j%len(org.groups)], slots: 4 + g.intn(5),
			}
			if role == "agent" {
				g.restricted = op.id
			}
			org.humans = append(org.humans, op)
			org.ops = append(org.ops, op)
		}
		opID++
		org.bot = &genOp{
			id: opID, orgID: org.id, name: spec.botName, display: spec.botName, first: spec.botName,
			email: "bot@" + spec.domain, role: "bot", isBot: true, groupID: org.groups[0], slots: 50,
		}
		org.ops = append(org.ops, org.bot)
		for k, op := range org.ops {
			created := g.now - int64(400-k*17)*usDay
			away := !op.isBot && g.chance(0.25)
			online := op.isBot || (!away && g.chance(0.7))
			locale := "en_US"
			if strings.HasSuffix(op.email, "northwind-outfitters.example") && k%2 == 1 {
				locale = "de_DE"
			}
			if err := g.exec(`INSERT INTO operators(id, organization_id, name, display_name, email, role, is_bot,
				is_away, is_online, locale, operator_group_id, total_slots, away_changed_at, created_at, updated_at)
				VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				op.id, org.id, op.name, op.display, op.email, op.role, b2i(op.isBot), b2i(away), b2i(online), locale,
				op.groupID, op.slots, g.now-g.between(usMinute, 8*usHour), created, min(g.now, created+g.between(usDay, 300*usDay))); err != nil {
				return err
			}
		}
		for _, w := range spec.widgets {
			widgetID++
			org.widgets = append(org.widgets, genWidget{id: widgetID, name: w[0], language: w[1]})
			if err := g.exec(`INSERT INTO widgets(id, organization_id, name, language_name) VALUES (?, ?, ?, ?)`,
				widgetID, org.id, w[0], w[1]); err != nil {
				return err
			}
		}
		for _, t := range spec.topics {
			topicID++
			org.topics = append(org.topics, genTopic{id: topicID, text: t})
			if err := g.exec(`INSERT INTO topics(id, organization_id, text, text_key) VALUES (?, ?, ?, ?)`,
				topicID, org.id, t, topicKey(t)); err != nil {
				return err
			}
		}
		g.orgs = append(g.orgs, org)
	}
	return nil
}

// topicKey is the case-insensitive identity of a topic text.
func topicKey(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// --- contacts -----------------------------------------------------------------------------

func (g *gen) pickCountry() *country {
	total := 0
	for _, c := range countries {
		total += c.weight
	}
	n := g.intn(total)
	for i := range countries {
		n -= countries[i].weight
		if n < 0 {
			return &countries[i]
		}
	}
	return &countries[0]
}

func (g *gen) pickOrg() *genOrg {
	n := g.intn(100)
	for _, o := range g.orgs {
		n -= o.spec.share
		if n < 0 {
			return o
		}
	}
	return g.orgs[0]
}

func (g *gen) planContacts() error {
	for i := 0; i < g.size.contacts; i++ {
		org := g.pickOrg()
		if i == 0 {
			org = g.orgs[0]
		}
		c := &genContact{id: int64(contactIDBase + i + 1), org: org, uuids: map[int64]string{}}
		c.country = g.pickCountry()
		c.city = pick(g, c.country.cities)
		c.locale = c.country.locale
		first := pick(g, c.country.first)
		last := pick(g, c.country.last)
		c.first = first.display
		full := first.display + " " + last.display
		if c.country.code == "JP" || c.country.code == "CN" {
			full = last.display + " " + first.display
		}
		if i > 0 && g.chance(0.04) {
			c.first = "Visitor"
		} else {
			c.name = strp(full)
		}
		if c.name != nil && g.chance(0.88) {
			domain := pick(g, companyDomains)
			local := first.ascii + "." + strings.ReplaceAll(last.ascii, " ", "")
			if g.chance(0.3) {
				local += g.digits(2)
			}
			c.email = strp(local + "@" + domain)
		}
		// A few contacts write a lot; most write once or twice.
		c.weight = 1 / math.Pow(float64(1+g.intn(40)), 0.8)
		if i == 0 {
			// The hostile contact: its name carries escape sequences and bidi overrides.
			c.hostile = true
			c.name = strp(hostileName)
			c.first = "Mallory"
			c.email = strp("mallory@evil.example")
			c.country = &countries[0]
			c.city = countries[0].cities[0]
			c.locale = "de_DE"
		}
		org.contacts = append(org.contacts, c)
	}
	for _, o := range g.orgs {
		sum := 0.0
		for _, c := range o.contacts {
			sum += c.weight
			o.cumW = append(o.cumW, sum)
		}
	}
	return nil
}

func (g *gen) pickContact(o *genOrg) *genContact {
	x := g.rng.Float64() * o.cumW[len(o.cumW)-1]
	i := sort.SearchFloat64s(o.cumW, x)
	if i >= len(o.contacts) {
		i = len(o.contacts) - 1
	}
	return o.contacts[i]
}

func (g *gen) insertContacts() error {
	for _, o := range g.orgs {
		for _, c := range o.contacts {
			if err := g.insertContact(c); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *gen) insertContact(c *genContact) error {
	if c.createdAt == 0 {
		c.createdAt = g.now - g.between(usHour, seedDays*usDay)
	}
	var firstMsg, lastMsg any
	if c.firstMsg != 0 {
		firstMsg, lastMsg = c.firstMsg, c.lastMsg
	}
	updated := c.createdAt + g.between(0, usDay)
	if c.lastMsg > updated {
		updated = c.lastMsg
	}
	if updated > g.now {
		updated = g.now
	}
	emailVerified := c.email != nil && g.chance(0.6)
	var phone, mobile, company, position, gender, salutation, ext any
	var urlFB, urlLI, urlPic, urlTW any
	if g.chance(0.45) {
		phone = c.country.phoneCode + " " + g.digits(3) + " " + g.digits(7)
	}
	mobileVerified := false
	if g.chance(0.6) {
		mobile = c.country.phoneCode + " 1" + g.digits(2) + " " + g.digits(7)
		mobileVerified = g.chance(0.45)
	}
	if g.chance(0.45) {
		company = pick(g, companies)
		if g.chance(0.7) {
			position = pick(g, positions)
		}
	}
	switch g.intn(5) {
	case 0, 1:
		gender, salutation = "f", "ms"
	case 2, 3:
		gender, salutation = "m", "mr"
	}
	if g.chance(0.5) {
		ext = "CUS-" + g.digits(6)
	}
	slug := strconv.FormatInt(c.id, 36)
	if c.name != nil {
		slug = strings.ToLower(asciiFold(c.first)) + "-" + g.hex(4)
	}
	if g.chance(0.1) {
		urlFB = "https://www.facebook.com/" + slug
	}
	if g.chance(0.2) {
		urlLI = "https://www.linkedin.com/in/" + slug
	}
	if g.chance(0.3) {
		urlPic = "https://avatars.example.net/u/" + g.hex(16) + ".jpg"
	}
	if g.chance(0.1) {
		urlTW = "https://twitter.com/" + strings.ReplaceAll(slug, "-", "_")
	}
	street := streetLine(g, c.country)
	if err := g.exec(`INSERT INTO contacts(id, organization_id, name, email, email_verified, phone_number,
		mobile_number, is_mobile_number_verified, company, position, gender, salutation, street, city, country,
		loc_lat, loc_lon, locale, external_customer_id, contact_by_email, contact_by_phone,
		contact_by_service_channels, contact_by_service_messenger, is_blocked, needs_register, url_facebook,
		url_linkedin, url_profile_picture, url_twitter, created_at, updated_at, first_message_sent_at,
		last_message_sent_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		c.id, c.org.id, c.name, c.email, b2i(emailVerified), phone, mobile, b2i(mobileVerified), company, position,
		gender, salutation, street, c.city.name, c.country.code,
		round4(c.city.lat+(g.rng.Float64()-0.5)*0.08), round4(c.city.lon+(g.rng.Float64()-0.5)*0.08),
		c.locale, ext, b2i(c.email != nil && g.chance(0.7)), b2i(phone != nil && g.chance(0.4)),
		b2i(g.chance(0.5)), b2i(g.chance(0.3)), b2i(!c.hostile && g.chance(0.02)), b2i(g.chance(0.1)),
		urlFB, urlLI, urlPic, urlTW, c.createdAt, updated, firstMsg, lastMsg); err != nil {
		return err
	}
	// The UUIDs are recorded in widget order so that the seed stays deterministic.
	for _, w := range c.org.widgets {
		if u, ok := c.uuids[w.id]; ok {
			if err := g.exec(`INSERT INTO contact_uuids(uuid, contact_id, widget_id, created_at) VALUES (?, ?, ?, ?)`,
				u, c.id, w.id, c.createdAt); err != nil {
				return err
			}
		}
	}
	return nil
}

func streetLine(g *gen, c *country) string {
	s := pick(g, c.streets)
	n := strconv.Itoa(1 + g.intn(180))
	switch c.code {
	case "US", "GB", "FR", "BR":
		return n + " " + s
	case "JP", "CN", "AE", "IL":
		return s
	}
	return s + " " + n
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

// --- conversations, parts, messages --------------------------------------------------------

func (g *gen) seedConversations() error {
	n := g.size.conversations
	plans := make([]*convPlan, 0, n)
	rest := g.size.messages - g.size.longMessages
	mean := float64(rest) / float64(n-1)
	for i := 0; i < n; i++ {
		org := g.pickOrg()
		p := &convPlan{org: org}
		switch {
		case i == 0:
			p.org, p.long, p.status = g.orgs[0], true, "pending"
		case i == 1:
			p.org, p.hostile, p.status = g.orgs[0], true, "new"
		default:
			switch r := g.intn(100); {
			case r < 7:
				p.status = "new"
			case r < 20:
				p.status = "pending"
			default:
				p.status = "ended"
			}
		}
		if p.hostile {
			p.contact = p.org.contacts[0]
		} else {
			p.contact = g.pickContact(p.org)
			for p.contact.hostile {
				p.contact = g.pickContact(p.org)
			}
		}
		switch {
		case p.long:
			p.createdAt = g.now - 75*usDay - g.between(0, 6*usHour)
			p.messages = g.size.longMessages
			p.parts = 8
		case p.hostile:
			p.createdAt = g.now - g.between(5*usMinute, 40*usMinute)
			p.messages = len(g.hostileLines())
			p.parts = 1
		case p.status == "new":
			p.createdAt = g.now - g.between(usMinute, 8*usHour)
		case p.status == "pending":
			p.createdAt = g.now - g.between(30*usMinute, 6*usDay)
		default:
			p.createdAt = g.now - g.between(3*usHour, seedDays*usDay)
		}
		if !p.long && !p.hostile {
			m := int(math.Round(mean * (0.25 + 1.5*g.rng.Float64())))
			p.messages = max(2, m)
			p.parts = 1
			if p.status != "new" {
				switch r := g.intn(100); {
				case r < 8:
					p.parts = 3
				case r < 30:
					p.parts = 2
				}
			}
			p.parts = min(p.parts, max(1, p.messages/3))
		}
		plans = append(plans, p)
	}
	matchMessageTotal(plans, g.size.messages)
	sort.SliceStable(plans, func(a, b int) bool { return plans[a].createdAt < plans[b].createdAt })
	for i, p := range plans {
		p.id = int64(conversationIDBase + i + 1)
		if p.long {
			g.longID = p.id
		}
		if p.hostile {
			g.hostileID = p.id
		}
	}
	for _, p := range plans {
		if err := g.seedConversation(p); err != nil {
			return fmt.Errorf("conversation %d: %w", p.id, err)
		}
	}
	return nil
}

// matchMessageTotal spreads the difference between the planned and the wanted number of
// messages over the ordinary conversations, one message each in turn, so that a size's
// message count is exact (the random lengths only approximate it). A conversation keeps at
// least two messages and no more parts than a third of them.
func matchMessageTotal(plans []*convPlan, want int) {
	sum := 0
	for _, p := range plans {
		sum += p.messages
	}
	for diff := want - sum; diff != 0; {
		changed := false
		for _, p := range plans {
			if diff == 0 {
				break
			}
			if p.long || p.hostile || (diff < 0 && p.messages <= 2) {
				continue
			}
			if diff > 0 {
				p.messages++
				diff--
			} else {
				p.messages--
				diff++
			}
			p.parts = min(p.parts, max(1, p.messages/3))
			changed = true
		}
		if !changed {
			return // every ordinary conversation is down to two messages
		}
	}
}

type line struct {
	contact bool
	bot     bool
	text    string
}

func (g *gen) scenarioLines(p *convPlan, part, count int, rep *strings.Replacer) []line {
	var out []line
	useBot := part == 0 && !p.long && g.chance(0.35)
	sc := pick(g, scenarios)
	if p.long && part == 0 {
		out = append(out, line{contact: true, text: "Start of the long thread: hi, our team wants to order equipment for 40 people and I have a lot of questions."})
	}
	if useBot {
		out = append(out, line{bot: true, text: pick(g, botGreetings)})
	}
	body := make([]line, 0, len(sc))
	for _, s := range sc {
		body = append(body, line{contact: strings.HasPrefix(s, "C:"), text: s[2:]})
	}
	if useBot && len(body) > 0 {
		out = append(out, body[0], line{bot: true, text: pick(g, botHandovers)})
		body = body[1:]
	}
	// Stretch with small talk before the closing lines when the part needs more messages.
	need := count - len(out) - len(body)
	if need > 0 {
		cut := max(0, len(body)-2)
		var extra []line
		start := g.intn(len(smallTalk))
		for k := 0; k < need; k++ {
			s := smallTalk[(start+k)%len(smallTalk)]
			extra = append(extra, line{contact: strings.HasPrefix(s, "C:"), text: s[2:]})
		}
		body = append(append(append([]line{}, body[:cut]...), extra...), body[cut:]...)
	}
	out = append(out, body...)
	if len(out) > count {
		out = out[:count]
	}
	for i := range out {
		out[i].text = rep.Replace(out[i].text)
	}
	return out
}

func (g *gen) hostileLines() []line {
	var out []line
	long := strings.Repeat("All work and no play makes Jack a dull boy. ", 10000/44+1)[:10000]
	for i, m := range hostileMessages {
		out = append(out, line{contact: true, text: strings.ReplaceAll(m, "{order}", "#48213")})
		if i%3 == 2 {
			out = append(out, line{text: "Could you describe the problem in a bit more detail?"})
		}
	}
	out = append(out, line{contact: true, text: long})
	out = append(out, line{text: "Thanks, I'm looking into it."})
	return out
}

func (g *gen) seedConversation(p *convPlan) error {
	org, c := p.org, p.contact
	widget := pick(g, org.widgets)
	if p.hostile {
		widget = org.widgets[0]
	}
	var assigned *genOp
	if !(p.status == "new" && g.chance(0.5)) {
		assigned = pick(g, org.humans)
	}
	order := g.digits(6)
	product := pick(g, org.spec.products)
	opFirst := org.humans[0].first
	if assigned != nil {
		opFirst = assigned.first
	}
	rep := strings.NewReplacer(
		"{order}", "#"+order, "{product}", product, "{first}", c.first, "{op}", opFirst,
		"{city}", c.city.name, "{amount}", fmt.Sprintf("€%d.%02d", 15+g.intn(180), g.intn(100)),
		"{date}", time.UnixMicro(p.createdAt+g.between(usDay, 20*usDay)).UTC().Format("Jan 2"),
		"{org}", org.spec.name, "{bot}", org.spec.botName,
	)

	// Plan message counts per part and the timeline.
	counts := make([]int, p.parts)
	for i := range counts {
		counts[i] = p.messages / p.parts
	}
	counts[p.parts-1] += p.messages - (p.messages/p.parts)*p.parts
	var lines [][]line
	for part := 0; part < p.parts; part++ {
		if p.hostile {
			lines = append(lines, g.hostileLines())
			continue
		}
		ls := g.scenarioLines(p, part, counts[part], rep)
		for i := range ls {
			if ls[i].contact && !(p.long && part == 0 && i == 0) && g.chance(0.01) {
				ls[i].text = rep.Replace(pick(g, hostileMessages))
			}
		}
		lines = append(lines, ls)
	}
	// Offsets from createdAt: messages 15 s–4 min apart, parts hours to days apart.
	var offsets []int64
	var partStart []int64
	off := int64(0)
	for part := range lines {
		if part > 0 {
			off += g.between(2*usHour, 4*usDay)
		}
		partStart = append(partStart, off)
		for range lines[part] {
			off += g.between(15*usSecond, 4*usMinute)
			offsets = append(offsets, off)
		}
	}
	end := g.now - g.between(20*usSecond, 3*usMinute)
	if p.status == "ended" && !p.long {
		end = g.now - g.between(usHour, 2*usHour)
	}
	scale := 1.0
	if span := end - p.createdAt; off > span && off > 0 {
		scale = float64(span) / float64(off)
	}
	at := func(o int64) int64 { return p.createdAt + int64(float64(o)*scale) }

	var topics []genTopic
	nt := g.intn(3)
	if p.long {
		nt = 2
	}
	perm := g.rng.Perm(len(org.topics))
	for i := 0; i < nt && i < len(perm); i++ {
		topics = append(topics, org.topics[perm[i]])
	}

	markedReadOp := p.status == "ended" || (p.status == "pending" && g.chance(0.6)) || (p.status == "new" && g.chance(0.2))
	markedReadContact := p.status == "ended" || g.chance(0.8)

	var firstContact, lastContact, lastSent int64
	var firstPartID int64
	k := 0
	total := p.messages
	if p.hostile {
		total = len(lines[0])
	}
	for part := range lines {
		g.nextPart++
		partID := g.nextPart
		if part == 0 {
			firstPartID = partID
		}
		partWidget := widget
		if part > 0 && len(org.widgets) > 1 && g.chance(0.3) {
			partWidget = pick(g, org.widgets)
		}
		partCreated := at(partStart[part])
		var partEnd int64
		for seq, ln := range lines[part] {
			sent := at(offsets[k])
			k++
			fromEnd := total - k // messages after this one
			var opID any
			opName, opDisplay, name, display, senderType := "", "", "", "", "contact"
			senderID := c.id
			opBot := false
			if ln.contact {
				if c.name != nil {
					name = *c.name
				} else {
					name = "Visitor " + strconv.FormatInt(c.id%10000, 10)
				}
				display = c.first
				if firstContact == 0 {
					firstContact = sent
				}
				lastContact = sent
			} else {
				op := assigned
				if ln.bot || op == nil {
					op = org.bot
				}
				opID, opName, opDisplay, opBot = op.id, op.name, op.display, op.isBot
				name, display, senderType, senderID = op.name, op.display, "operator", op.id
			}
			readOp, readContact := true, true
			if p.status != "ended" && fromEnd < 3 {
				if ln.contact && !markedReadOp {
					readOp = false
				}
				if !ln.contact && !markedReadContact {
					readContact = false
				}
			}
			state := 4
			switch {
			case ln.contact && !readOp, !ln.contact && !readContact && fromEnd > 0:
				state = 3
			case !ln.contact && !readContact:
				state = 1
			}
			var url any
			if i := strings.Index(ln.text, "https://"); i >= 0 {
				u := ln.text[i:]
				// A url ends at white space, and at an escape character or a bell but in
				// the hostile conversation: its url keeps them (a hostile url).
				ends := " \n\x1b\x07"
				if p.hostile {
					ends = " \n"
				}
				if j := strings.IndexAny(u, ends); j >= 0 {
					u = u[:j]
				}
				url = u
			}
			if err := g.exec(`INSERT INTO messages(conversation_id, part_id, seq, sent_at, body, url, state_type,
				operator_id, operator_name, operator_display_name, operator_is_bot, sender_type, sender_id, name,
				display_name, marked_read_operator, marked_read_contact) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
				p.id, partID, seq+1, sent, ln.text, url, state, opID, opName, opDisplay, b2i(opBot), senderType,
				senderID, name, display, b2i(readOp), b2i(readContact)); err != nil {
				return err
			}
			partEnd = sent
			lastSent = sent
		}
		br := pick(g, browsers)
		loc := c.city
		if g.chance(0.15) {
			loc = pick(g, c.country.cities)
		}
		var ref any
		if g.chance(0.6) {
			ref = pick(g, referrers)
		}
		if err := g.exec(`INSERT INTO parts(id, conversation_id, widget_id, created_at, ended_at, browser_name,
			browser_os, browser_version, city, country, lat, lon, referrer) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			partID, p.id, partWidget.id, partCreated, partEnd, br.name, br.os, pick(g, br.versions), loc.name,
			c.country.code, round4(loc.lat), round4(loc.lon), ref); err != nil {
			return err
		}
	}

	uuid, ok := c.uuids[widget.id]
	if !ok {
		uuid = g.uuid()
		c.uuids[widget.id] = uuid
	}
	if c.createdAt == 0 || p.createdAt-usHour < c.createdAt {
		c.createdAt = p.createdAt - g.between(usMinute, 30*usDay)
	}
	if firstContact != 0 {
		if c.firstMsg == 0 || firstContact < c.firstMsg {
			c.firstMsg = firstContact
		}
		if lastContact > c.lastMsg {
			c.lastMsg = lastContact
		}
	}
	var rate, feedback any
	if p.status == "ended" && g.chance(0.35) {
		rate = []int{1, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5}[g.intn(12)]
		if g.chance(0.5) {
			feedback = pick(g, feedbackTexts)
		}
	}
	channel := "web"
	switch r := g.intn(100); {
	case r < 12:
		channel = "whatsapp"
	case r < 20:
		channel = "messenger"
	case r < 25:
		channel = "telegram"
	}
	chState := "active"
	if p.status == "ended" {
		chState = "inactive"
	}
	custom := map[string]any{}
	if g.chance(0.6) {
		custom["cart_value"] = float64(1000+g.intn(40000)) / 100
		custom["customer_tier"] = pick(g, []string{"bronze", "silver", "gold"})
		if g.chance(0.5) {
			custom["utm"] = map[string]any{"campaign": pick(g, []string{"spring_sale", "newsletter_11", "retargeting"}), "source": pick(g, []string{"newsletter", "google", "instagram"})}
		}
	}
	addons := map[string]string{}
	if g.chance(0.4) {
		addons["crm"] = "https://crm.example.com/contacts/" + strconv.FormatInt(c.id, 10)
		addons["shop_admin"] = "https://" + org.spec.domain + "/admin/orders/" + order
	}
	customJSON, err := json.Marshal(custom)
	if err != nil {
		return fmt.Errorf("encode custom: %w", err)
	}
	addonJSON, err := json.Marshal(addons)
	if err != nil {
		return fmt.Errorf("encode addon urls: %w", err)
	}
	updated := lastSent + g.between(usSecond, 10*usMinute)
	if p.status != "ended" || updated > g.now {
		updated = lastSent
	}
	var firstC, lastC any
	if firstContact != 0 {
		firstC, lastC = firstContact, lastContact
	}
	contactUpdate := p.createdAt
	if lastContact != 0 {
		contactUpdate = lastContact
	}
	var assignedID any
	if assigned != nil {
		assignedID = assigned.id
	}
	if err := g.exec(`INSERT INTO conversations(id, organization_id, contact_id, contact_uuid, widget_id,
		operator_assigned_to, status, created_at, updated_at, last_message_sent_at, last_activity_at,
		contact_first_message_sent_at, contact_last_message_sent_at, contact_last_update_at, accepts_messages,
		data_privacy, expiry_state, feedback_message, language_name, locale, marked_read_contact,
		marked_read_operator, page_impressions, rate, slot_reserved, channel_type, channel_state, custom, addon_urls)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		p.id, org.id, c.id, uuid, widget.id, assignedID, p.status, p.createdAt, updated, lastSent, lastSent,
		firstC, lastC, contactUpdate, b2i(p.status != "ended" || g.chance(0.3)), b2i(g.chance(0.85)), 0, feedback,
		widget.language, c.locale, b2i(markedReadContact), b2i(markedReadOp), 1+g.intn(40), rate,
		b2i(p.status != "ended" && assigned != nil), channel, chState, string(customJSON), string(addonJSON)); err != nil {
		return err
	}
	for _, t := range topics {
		if err := g.exec(`INSERT INTO conversation_topics(conversation_id, topic_id) VALUES (?, ?)`, p.id, t.id); err != nil {
			return err
		}
	}
	day := (g.now - p.createdAt) / usDay
	org.convDay[day] = append(org.convDay[day], len(org.convIDs))
	org.convIDs = append(org.convIDs, p.id)
	org.partIDs = append(org.partIDs, firstPartID)
	return nil
}

// --- notes and navigation ------------------------------------------------------------------

func (g *gen) seedNotes() error {
	id := int64(noteIDBase)
	for _, o := range g.orgs {
		for _, c := range o.contacts {
			var bodies []string
			if c.hostile {
				bodies = append(bodies, hostileNotes...)
			} else if g.chance(0.35) {
				for n := 1 + g.intn(2); n > 0; n-- {
					bodies = append(bodies, pick(g, noteTexts))
				}
				if g.chance(0.03) {
					bodies = append(bodies, pick(g, hostileNotes))
				}
			}
			for _, b := range bodies {
				id++
				at := g.between(c.createdAt, g.now)
				op := pick(g, o.humans)
				b = strings.NewReplacer("{amount}", fmt.Sprintf("€%d.%02d", 10+g.intn(200), g.intn(100)),
					"{date}", time.UnixMicro(at).UTC().Format("2006-01-02")).Replace(b)
				if err := g.exec(`INSERT INTO notes(id, organization_id, contact_id, body, operator_id, created_at, updated_at)
					VALUES (?,?,?,?,?,?,?)`, id, o.id, c.id, b, op.id, at, at); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (g *gen) seedNavigation() error {
	type nav struct {
		org     *genOrg
		contact int64
		conv    any
		at      int64
	}
	var events []nav
	for _, o := range g.orgs {
		for _, convID := range o.convIDs {
			if g.chance(0.5) {
				continue
			}
			events = append(events, nav{org: o, conv: convID})
		}
		for _, c := range o.contacts {
			for n := g.intn(2 * g.size.navPerContact); n > 0; n-- {
				events = append(events, nav{org: o, contact: c.id, at: g.between(c.createdAt, g.now)})
			}
		}
	}
	// Conversation-linked events take their contact and time from the conversation.
	for i := range events {
		e := &events[i]
		if e.conv == nil {
			continue
		}
		if err := g.q.QueryRowContext(g.ctx, `SELECT contact_id, created_at FROM conversations WHERE id = ?`, e.conv).
			Scan(&e.contact, &e.at); err != nil {
			return fmt.Errorf("navigation conversation: %w", err)
		}
		e.at -= g.between(10*usSecond, 20*usMinute)
	}
	sort.SliceStable(events, func(a, b int) bool { return events[a].at < events[b].at })
	for i, e := range events {
		page := pick(g, e.org.spec.pages)
		url := "https://www." + e.org.spec.domain + page[0]
		if g.chance(0.2) {
			url += "?utm_source=newsletter&utm_medium=email"
		}
		var ref any
		if g.chance(0.5) {
			ref = pick(g, referrers)
		}
		var contact any
		if e.contact != 0 {
			contact = e.contact
		}
		if err := g.exec(`INSERT INTO navigation(id, organization_id, contact_id, conversation_id, url, title, referrer, created_at)
			VALUES (?,?,?,?,?,?,?,?)`, int64(navigationIDBase+i+1), e.org.id, contact, e.conv, url, page[1], ref, e.at); err != nil {
			return err
		}
	}
	return nil
}

// --- search index and meta -------------------------------------------------------------------

func (g *gen) buildSearchIndex() error {
	for _, s := range rebuildSearchStatements() {
		if _, err := g.q.ExecContext(g.ctx, s); err != nil {
			return fmt.Errorf("build search index: %w", err)
		}
	}
	return nil
}

func (g *gen) writeMeta() error {
	customer := g.secret("cust_", 40)
	for _, kv := range [][2]string{
		{"customer_token", customer},
		{"restricted_operator_id", strconv.FormatInt(g.restricted, 10)},
		{"long_conversation_id", strconv.FormatInt(g.longID, 10)},
		{"hostile_conversation_id", strconv.FormatInt(g.hostileID, 10)},
		{"customer_id", strconv.FormatInt(g.orgs[0].spec.customer, 10)},
	} {
		if err := setMeta(g.ctx, g.q, kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}
