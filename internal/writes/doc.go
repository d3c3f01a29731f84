// Package writes holds what the terminal UI and the command line share about writing to the
// API, so that both do it the same way: each write's definition (what a conversation action
// sends and what its answer must show, the contact fields and their checks), the checks of
// a write whose answer was lost (a fresh read of the resource, whose verdict rests on what
// the server shows and never on the local clock), and every error in plain words
// (ErrorText: "You lack permission: …", "Not saved: …", "Could not confirm …").
//
// It knows nothing about terminals: the screens (views/…) and the commands (cli) build on
// it. It imports the client and the sanitizing rules only.
package writes
