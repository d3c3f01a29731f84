package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/sandbox"
)

// sandboxFlags are the flags of `parley sandbox`.
type sandboxFlags struct {
	addr       string
	db         string
	seed       int64
	size       string
	requestLog string
	dailyLimit int
	burstRate  float64
	burst      int
	latency    time.Duration
	variants   []string
	longThread int
}

// sandboxLongHead is the start of `parley sandbox --help`; sandboxLong adds the variants.
const sandboxLongHead = `Serve the whole Messaging Platform API (v3 and analytics v1) from a local SQLite database
filled with deterministic demo data.

On start it prints the environment for parley, one variable per line, ready for eval:

  PARLEY_BASE_URL=http://127.0.0.1:8765
  PARLEY_TOKEN=…                     (customer token: every organization)
  PARLEY_ORG_TOKEN=…                 (organization token of the default organization)
  PARLEY_RESTRICTED_OPERATOR_ID=…    (an operator with the agent role)

It then serves until interrupted (Ctrl-C or SIGTERM). Progress goes to stderr.
The database is kept (default: the user cache directory) and reused on the next start; it is
seeded anew when the seed or size differ or when it was seeded more than 7 days ago. The
data follows from the seed; the tokens do not: every new database gets random ones, and a
reused database keeps its own.`

// sandboxLong is the long help: the head and one line per variant.
func sandboxLong() string {
	var b strings.Builder
	b.WriteString(sandboxLongHead)
	b.WriteString(`

Variants (--variant NAME, repeatable or comma-separated) answer the way another server that
meets the spec may, where the spec leaves it open; they change no data, so a database serves
with and without them (docs/api-notes.md describes each):
`)
	for _, v := range sandbox.Variants() {
		fmt.Fprintf(&b, "\n  %-17s %s", v.Name, v.Summary)
	}
	return b.String()
}

func newSandboxCmd() *cobra.Command {
	var f sandboxFlags
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Serve the embedded API with demo data",
		Long:  sandboxLong(),
		Example: `  parley sandbox > sandbox.env &   # then: set -a; . ./sandbox.env; set +a
  parley sandbox --addr 127.0.0.1:0 --db ./demo.db --seed 2 --request-log requests.jsonl
  parley sandbox --daily-limit 50 --burst-rate 2 --burst 5   # try parley under tight limits
  parley sandbox --latency 400ms                               # try parley on a slow link
  parley sandbox --size large --variant capped-count           # a count that stops at 10,000`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSandbox(cmd.Context(), f, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8765", "address to listen on (port 0 picks a free port)")
	fl.StringVar(&f.db, "db", "", "database file (default <user cache dir>/parley/sandbox-<size>-<seed>.db)")
	fl.Int64Var(&f.seed, "seed", 1, "seed of the demo data (a positive integer)")
	fl.StringVar(&f.size, "size", string(sandbox.SizeMedium), "amount of demo data: small, medium or large")
	fl.StringVar(&f.requestLog, "request-log", "", "append one JSON line per request to this file")
	fl.IntVar(&f.dailyLimit, "daily-limit", 5000, "requests per family per organization per UTC day before 429")
	fl.Float64Var(&f.burstRate, "burst-rate", 20, "requests per second per token and organization before 429 (0: no burst throttling)")
	fl.IntVar(&f.burst, "burst", 40, "requests allowed at once above --burst-rate")
	fl.DurationVar(&f.latency, "latency", 0, "hold every answer back this long, as a slow link would (e.g. 300ms)")
	fl.IntVar(&f.longThread, "long-thread", 0, "messages in the long conversation when the database is seeded (0: the size's own, 1,520 to 2,000)")
	fl.StringArrayVar(&f.variants, "variant", nil, "answer as another server meeting the spec would (see Variants above; repeatable or comma-separated)")
	completeValues(cmd, "size", sizeCompletions()...)
	completeValues(cmd, "variant", variantCompletions()...)
	noFiles(cmd, "addr", "seed", "daily-limit", "burst-rate", "burst", "latency", "long-thread")
	return cmd
}

// validate checks the flags and fills in the default database path.
func (f *sandboxFlags) validate() (sandbox.Size, []sandbox.Variant, error) {
	size, err := sandbox.ParseSize(f.size)
	if err != nil || f.size == "" {
		return "", nil, fmt.Errorf("--size: %q is not one of small, medium, large", f.size)
	}
	variants, err := sandbox.ParseVariants(f.variants...)
	if err != nil {
		return "", nil, fmt.Errorf("--variant: %w", err)
	}
	if f.dailyLimit <= 0 {
		return "", nil, fmt.Errorf("--daily-limit: must be a positive integer, got %d", f.dailyLimit)
	}
	if f.burstRate < 0 {
		return "", nil, fmt.Errorf("--burst-rate: must be 0 (off) or positive, got %v", f.burstRate)
	}
	if f.burst <= 0 {
		return "", nil, fmt.Errorf("--burst: must be a positive integer, got %d", f.burst)
	}
	if f.latency < 0 {
		return "", nil, fmt.Errorf("--latency: must be 0 (none) or positive, got %v", f.latency)
	}
	if f.longThread < 0 {
		return "", nil, fmt.Errorf("--long-thread: must be 0 (the size's own) or positive, got %d", f.longThread)
	}
	if f.seed <= 0 {
		return "", nil, fmt.Errorf("--seed: must be a positive integer, got %d", f.seed)
	}
	_, port, err := net.SplitHostPort(f.addr)
	if err != nil {
		return "", nil, fmt.Errorf("--addr: %q is not host:port: %w", f.addr, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return "", nil, fmt.Errorf("--addr: %q is not a port number", port)
	}
	if f.db == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", nil, fmt.Errorf("--db not given and no user cache directory: %w", err)
		}
		name := fmt.Sprintf("sandbox-%s-%d", size, f.seed)
		if f.longThread > 0 {
			name += fmt.Sprintf("-long%d", f.longThread) // another thread length is other data
		}
		f.db = filepath.Join(dir, "parley", name+".db")
	}
	if fi, err := os.Stat(f.db); err == nil && fi.IsDir() {
		return "", nil, fmt.Errorf("--db: %s is a directory", f.db)
	}
	return size, variants, nil
}

func runSandbox(ctx context.Context, f sandboxFlags, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	size, variants, err := f.validate()
	if err != nil {
		return err
	}
	// The address first: a port that is taken fails at once, before any file is made and
	// before the database is opened or seeded (which takes a while and would be wasted).
	ln, err := listen(ctx, f.addr)
	if err != nil {
		return err
	}
	handedOver := false
	defer func() {
		if !handedOver {
			_ = ln.Close()
		}
	}()
	if err := os.MkdirAll(filepath.Dir(f.db), 0o700); err != nil {
		return fmt.Errorf("create the database directory: %w", err)
	}
	opts := sandbox.Options{DBPath: f.db, Seed: f.seed, Size: size, DailyLimit: f.dailyLimit, BurstRate: f.burstRate, Burst: f.burst,
		Latency: f.latency, Variants: variants, LongThread: f.longThread}
	if f.burstRate == 0 {
		opts.BurstRate = -1 // the option's zero value means the default rate
	}
	if f.requestLog != "" {
		lf, err := os.OpenFile(f.requestLog, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("--request-log: %w", err)
		}
		defer lf.Close()
		opts.RequestLog = lf
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Fprintf(stderr, "parley sandbox: opening %s (size %s, seed %d)…\n", f.db, size, f.seed)
	began := time.Now()
	run, err := sandbox.StartOn(ctx, opts, ln)
	handedOver = true // StartOn closes it on failure, Close on success
	if err != nil {
		return fmt.Errorf("start the sandbox: %w", err)
	}
	if run.Server.Reused() {
		fmt.Fprintf(stderr, "parley sandbox: reused the seeded data (%v)\n", time.Since(began).Round(time.Millisecond))
	} else {
		fmt.Fprintf(stderr, "parley sandbox: seeded demo data in %v\n", time.Since(began).Round(time.Millisecond))
	}
	info := run.Server.Info()
	if _, err := fmt.Fprintf(stdout, "PARLEY_BASE_URL=%s\nPARLEY_TOKEN=%s\nPARLEY_ORG_TOKEN=%s\nPARLEY_RESTRICTED_OPERATOR_ID=%d\n",
		run.URL, info.CustomerToken, info.OrgTokens[info.DefaultOrgID], info.RestrictedOperatorID); err != nil {
		_ = run.Close()
		return fmt.Errorf("write the environment: %w", err)
	}
	if where, others := reach(run.Addr); others {
		fmt.Fprintf(stderr, "parley sandbox: warning: listening on %s, reachable from other machines. The sandbox has demo tokens "+
			"and demo data, and anyone who reaches it with a token can read and change them; --addr 127.0.0.1:PORT keeps it on this machine.\n", where)
	}
	if f.latency > 0 {
		fmt.Fprintf(stderr, "parley sandbox: every answer is held back %v\n", f.latency)
	}
	for _, v := range sandbox.Variants() {
		if slices.Contains(run.Server.Variants(), v.Name) {
			fmt.Fprintf(stderr, "parley sandbox: variant %s: %s\n", v.Name, v.Summary)
		}
	}
	fmt.Fprintf(stderr, "parley sandbox: serving %s; press Ctrl-C to stop\n", run.URL)
	<-ctx.Done()
	fmt.Fprintln(stderr, "parley sandbox: shutting down")
	if err := run.Close(); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("shut down the sandbox: %w", err)
	}
	return nil
}

// listen opens the sandbox's address. A taken address is said in those words, with the
// address and what to do, and not as a network failure ("cannot reach …"), which is what
// the error would read like if it kept the *net.OpError.
func listen(ctx context.Context, addr string) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("--addr %s: address already in use (another program listens there; give another port, or port 0 for a free one)", addr)
	case errors.Is(err, syscall.EACCES):
		return nil, fmt.Errorf("--addr %s: permission denied (ports below 1024 need privileges; give a higher port, or port 0 for a free one)", addr)
	case err != nil:
		return nil, fmt.Errorf("--addr %s: cannot listen there: %s", addr, listenReason(err))
	}
	return ln, nil
}

// listenReason is the last part of a listen error ("cannot assign requested address"),
// without the *net.OpError around it.
func listenReason(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}

// reach says where a listener on a is and whether other machines can reach it: on any
// address but a loopback one (127.0.0.0/8, ::1) they can, and on the unspecified address of
// --addr 0.0.0.0:PORT or :PORT the sandbox listens on every interface.
func reach(a net.Addr) (where string, others bool) {
	tcp, ok := a.(*net.TCPAddr)
	switch {
	case !ok:
		return a.String(), true
	case tcp.IP.IsUnspecified():
		return fmt.Sprintf("every interface (port %d)", tcp.Port), true
	}
	return a.String(), !tcp.IP.IsLoopback()
}
