package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/serve"
	"github.com/parley-tui/parley/sanitize"
)

// usersFlags are the flags of `parley serve users`.
type usersFlags struct {
	users string // --users: the users file
	// add's
	name, key, role string
	operator, org   int64
}

const usersLong = `List, add, remove and check the users of the team hub: the entries of its users file
(--users, else the config file's serve: users, else <config dir>/parley/users.yaml).

add and remove change the file in place: its comments and the order of its entries stay
(the spacing around comments may change). Each is written beside the file and renamed
over it, keeping its permissions and owner, so that a running hub reads the old file or
the new one: it looks at the file every 2 s and reloads it when its content changed (or
at once on SIGHUP: systemctl reload parley-hub). A session whose key was removed then
ends with a message.

add and check check the users as parley serve does at its start: each entry's name, key,
role and operator, and the operators against the API's list of each organization, with
the same API settings (flags, environment, keyring, config file). A wrong entry is
refused with the reason, and the file is not changed.`

// newServeUsersCmd is `parley serve users`.
func newServeUsersCmd(g *globalFlags) *cobra.Command {
	var f usersFlags
	cmd := &cobra.Command{
		Use:   "users",
		Short: "List, add, remove and check the users of the team hub",
		Long:  usersLong,
		Example: `  parley serve users list
  parley serve users add --name Dana --key ~/dana.pub --operator 2007 --role agent
  parley serve users remove Dana`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().StringVar(&f.users, "users", "", "the users file (default: the config file's serve: users, else <config dir>/parley/users.yaml)")

	list := f.readingCmd(g, "list", "List the users of the users file: name, role, operator, organization and key",
		func(cmd *cobra.Command, users *serve.Users) error {
			return writeUsers(cmd.OutOrStdout(), users)
		})

	check := f.readingCmd(g, "check", "Check the users file as parley serve does at its start, against the API",
		func(cmd *cobra.Command, users *serve.Users) error {
			if err := checkAgainstAPI(cmd.Context(), g, users, cmd.ErrOrStderr()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %s, each checked against the API\n", users.Path, plural(len(users.List), "user"))
			return nil
		})

	add := &cobra.Command{
		Use:   "add --name NAME --key FILE|- --role ROLE [--operator ID] [--org ID]",
		Short: "Add a user to the users file, checked against the API first",
		Long: `Add a user to the users file: their name (as the status bar and the logs show it), their
public key (the file of their ~/.ssh/id_ed25519.pub, or - to read it from stdin), their
role (viewer, agent or supervisor), the operator their changes go out as (every role but
viewer) and, optionally, another organization than the hub's. The entry goes last.

The user is checked as parley serve checks them (a public key no other entry has, a name
of their own, the operator one of the organization's, by the API) and refused with the
reason when they do not check out; the file is then not changed. A running hub lets them
in within 2 s.

--org and --operator here are the user's. The hub's own API settings (its organization
and token) come from the environment and the config file, as parley serve's do.`,
		Example: `  parley serve users add --name Dana --key dana.pub --operator 2007 --role agent
  ssh-add -L | head -1 | parley serve users add --name Eli --key - --role viewer`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.add(cmd.Context(), g, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := add.Flags()
	fl.StringVar(&f.name, "name", "", "the user's name, as the status bar and the logs show it")
	fl.StringVar(&f.key, "key", "", "the file of the user's public key (authorized_keys form), or - for stdin")
	fl.StringVar(&f.role, "role", "", "viewer, agent or supervisor")
	fl.Int64Var(&f.operator, "operator", 0, "the operator id the user's changes go out as (all roles but viewer)")
	fl.Int64Var(&f.org, "org", 0, "the organization the user works in (default: the hub's)")
	completeValues(add, "role", string(serve.RoleViewer), string(serve.RoleAgent), string(serve.RoleSupervisor))
	noFiles(add, "name", "operator", "org")

	remove := &cobra.Command{
		Use:     "remove NAME",
		Short:   "Remove a user from the users file; a running hub ends their sessions",
		Example: "  parley serve users remove Dana",
		Args:    needArgs(1, 1, "NAME", "the user's name as the users file has it"),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := f.path(cmd.Context(), g)
			if err != nil {
				return err
			}
			file, err := serve.OpenUsersFile(path, false)
			if err != nil {
				return err
			}
			gone, err := file.Remove(args[0])
			if err != nil {
				return err
			}
			if err := file.Save(); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s (%s) from %s; a running hub ends their sessions when it reads the file (within 2 s)\n",
				strconv.QuoteToGraphic(gone.Name), gone.Role, path)
			return nil
		},
	}
	cmd.AddCommand(list, check, add, remove)
	return cmd
}

// path is the users file the command works on.
func (f *usersFlags) path(ctx context.Context, g *globalFlags) (string, error) {
	s, err := resolveSettings(ctx, g, os.Getenv)
	if err != nil {
		return "", err
	}
	return usersPath(f.users, s, os.Getenv)
}

// readingCmd is the serve users command use, which only reads the users file: run gets
// its users, read and checked (without the API).
func (f *usersFlags) readingCmd(g *globalFlags, use, short string, run func(cmd *cobra.Command, users *serve.Users) error) *cobra.Command {
	return &cobra.Command{
		Use:     use,
		Short:   short,
		Example: "  parley serve users " + use + " --users /etc/parley/users.yaml",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := f.path(cmd.Context(), g)
			if err != nil {
				return err
			}
			users, err := serve.LoadUsers(path)
			if err != nil {
				return err
			}
			return run(cmd, users)
		},
	}
}

// add adds the user of the flags.
func (f *usersFlags) add(ctx context.Context, g *globalFlags, stdin io.Reader, stdout, stderr io.Writer) error {
	var missing []string
	for _, m := range []struct{ flag, value string }{{"--name", f.name}, {"--key", f.key}, {"--role", f.role}} {
		if strings.TrimSpace(m.value) == "" {
			missing = append(missing, m.flag)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("parley serve users add needs %s (see parley serve users add --help)", strings.Join(missing, ", "))
	}
	key, err := readKey(f.key, stdin)
	if err != nil {
		return err
	}
	path, err := f.path(ctx, g)
	if err != nil {
		return err
	}
	file, err := serve.OpenUsersFile(path, true)
	if err != nil {
		return err
	}
	e := serve.Entry{Name: strings.TrimSpace(f.name), Key: key, Operator: f.operator, Org: f.org, Role: serve.Role(strings.ToLower(strings.TrimSpace(f.role)))}
	if err := file.Add(e); err != nil {
		return err
	}
	users, err := file.Users()
	if err != nil {
		return err
	}
	if err := checkAgainstAPI(ctx, g, users, stderr); err != nil {
		return fmt.Errorf("user %s not added: %w", strconv.QuoteToGraphic(e.Name), err)
	}
	if err := file.Save(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "added %s (%s) to %s; a running hub lets them in within 2 s\n", strconv.QuoteToGraphic(e.Name), describeEntry(e), path)
	return nil
}

// readKey reads the public key of --key: a file, or stdin for "-".
func readKey(from string, stdin io.Reader) (string, error) {
	var data []byte
	var err error
	if from == "-" {
		data, err = io.ReadAll(io.LimitReader(stdin, 64<<10))
	} else {
		data, err = os.ReadFile(from)
	}
	if err != nil {
		return "", fmt.Errorf("read the key: %w", err)
	}
	return strings.TrimSpace(string(data)), nil
}

// checkAgainstAPI checks users as parley serve does at its start: every user's operator
// against the API's list of their organization's (a user without one works in the hub's).
func checkAgainstAPI(ctx context.Context, g *globalFlags, users *serve.Users, stderr io.Writer) error {
	sess, err := openSession(ctx, g, stderr)
	if err != nil {
		return err
	}
	defer sess.Close()
	_, err = hubDirectory(ctx, users, sess.Client)
	return err
}

// hubDirectory checks users against the API through c, the hub's client: each user without
// an organization works in the hub's, and each operator must be one the API lists for the
// user's organization. It returns what the API listed (serve.CheckOperators).
func hubDirectory(ctx context.Context, users *serve.Users, c *client.Client) (serve.Directory, error) {
	users.SetDefaultOrg(c.OrganizationID())
	return serve.CheckOperators(ctx, users, operatorLister(c))
}

// writeUsers lists users as a table.
func writeUsers(w io.Writer, users *serve.Users) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tROLE\tOPERATOR\tORG\tKEY\tLINE")
	for _, u := range users.List {
		op, org := "—", "the hub's"
		if u.Operator != 0 {
			op = strconv.FormatInt(u.Operator, 10)
		}
		if u.Org != 0 {
			org = strconv.FormatInt(u.Org, 10)
		}
		key := u.Key.Type() + " " + gossh.FingerprintSHA256(u.Key)
		if f := strings.Fields(u.KeyText); len(f) > 2 {
			key += " " + strings.Join(f[2:], " ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", sanitize.Line(u.Name), u.Role, op, org, sanitize.Line(key), u.Line)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the list: %w", err)
	}
	return nil
}

// describeEntry is "agent, operator 2007, organization 1002".
func describeEntry(e serve.Entry) string {
	parts := []string{string(e.Role)}
	if e.Operator != 0 {
		parts = append(parts, "operator "+strconv.FormatInt(e.Operator, 10))
	}
	if e.Org != 0 {
		parts = append(parts, "organization "+strconv.FormatInt(e.Org, 10))
	}
	return strings.Join(parts, ", ")
}

// plural is "1 user", "3 users".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
