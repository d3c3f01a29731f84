// Package keyringtest holds the credentials tests that need a real Secret Service
// (build tag "keyring"; .ci/keyring-test.sh runs them). They live apart from the unit
// tests because those replace go-keyring's provider with its mock for the whole test
// binary, and go-keyring offers no way back to the real one.
package keyringtest
