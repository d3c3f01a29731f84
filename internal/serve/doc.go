// Package serve is the team hub, `parley serve`: an SSH server that runs parley's TUI for
// every session of the team's agents with one API client, one shared poller per
// organization, one response memory and one request ledger for all of them.
//
// Users are named by a users file (their public keys, the operator each acts as, the
// organization and a role); reads go out under the hub's identity and are shared, every
// write goes out as the session's own operator and passes the role's gate first, and every
// write is recorded in the audit log. A session's failure ends that session only.
package serve
