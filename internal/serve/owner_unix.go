//go:build unix

package serve

import (
	"io/fs"
	"os"
	"syscall"
)

// sameOwner gives f the owner and group of the file described by was, when they differ
// from f's: a users file edited by root for the hub's user stays readable by the hub.
func sameOwner(f *os.File, was fs.FileInfo) error {
	old, ok := was.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	cur, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || (cur.Uid == old.Uid && cur.Gid == old.Gid) {
		return nil
	}
	return f.Chown(int(old.Uid), int(old.Gid))
}
