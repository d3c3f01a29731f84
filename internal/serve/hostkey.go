package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// HostKey reads the hub's host key from path, or creates it there when the file does not
// exist: an ed25519 key in OpenSSH form, mode 0600 (its directory 0700). created says
// which. A key file that others may read is refused, as ssh refuses one: whoever reads it
// can pose as the hub.
func HostKey(path string) (signer gossh.Signer, created bool, err error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createHostKey(path)
	case err != nil:
		return nil, false, fmt.Errorf("read the host key: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, false, fmt.Errorf("read the host key: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, false, fmt.Errorf("the host key %s may be read by others (mode %04o); make it private with: chmod 600 %s", path, perm, path)
	}
	signer, err = gossh.ParsePrivateKey(data)
	if err != nil {
		var missing *gossh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, false, fmt.Errorf("the host key %s has a passphrase; the hub needs one without", path)
		}
		return nil, false, fmt.Errorf("the host key %s is not a private key: %w", path, err)
	}
	return signer, false, nil
}

func createHostKey(path string) (gossh.Signer, bool, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, fmt.Errorf("make a host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "parley hub host key")
	if err != nil {
		return nil, false, fmt.Errorf("make a host key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("create the host key's directory: %w", err)
	}
	// O_EXCL: two hubs starting at once never write over each other's key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("create the host key: %w", err)
	}
	_, werr := f.Write(pem.EncodeToMemory(block))
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		_ = os.Remove(path)
		return nil, false, fmt.Errorf("write the host key: %w", err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, false, fmt.Errorf("use the host key: %w", err)
	}
	return signer, true, nil
}

// Fingerprint is the SHA256 fingerprint of a host key as ssh shows it.
func Fingerprint(s gossh.Signer) string { return gossh.FingerprintSHA256(s.PublicKey()) }
