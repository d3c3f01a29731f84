package credentials

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// FileModeError is returned when the credentials file can be read by others than its
// owner: parley refuses to use it.
type FileModeError struct {
	Path string
	Mode fs.FileMode
}

func (e *FileModeError) Error() string {
	return fmt.Sprintf("refusing to read %s: its mode is %04o, so others may read it; make it private with: chmod 600 %s",
		e.Path, uint32(e.Mode.Perm()), shellQuote(e.Path))
}

func shellQuote(s string) string {
	if strings.ContainsAny(s, " '\"\\$`!*?[]{}()&;|<>~#") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

const fileHeader = "# parley API tokens, written by \"parley auth login --insecure-storage\".\n" +
	"# One \"PROFILE TOKEN\" pair per line. Keep this file private (mode 0600).\n"

// readFile returns the profile → token entries of the credentials file. A missing file
// yields no entries. With strict, a file readable by group or others is refused with
// *FileModeError (without, the caller only removes entries). Errors never contain a token.
func readFile(path string, strict bool) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open credentials file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("credentials file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("credentials file %s is not a regular file", path)
	}
	if strict && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, &FileModeError{Path: path, Mode: fi.Mode()}
	}
	entries := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 64*1024)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			// The line may hold a token: never repeat it.
			return nil, fmt.Errorf("%s:%d: malformed line (want \"PROFILE TOKEN\")", path, line)
		}
		entries[fields[0]] = fields[1]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read credentials file %s: %w", path, err)
	}
	return entries, nil
}

// writeFile replaces the credentials file with entries, atomically and with mode 0600,
// creating its directory (0700). With no entries left the file is removed.
func writeFile(path string, entries map[string]string) error {
	if len(entries) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove credentials file: %w", err)
		}
		return nil
	}
	var buf bytes.Buffer
	buf.WriteString(fileHeader)
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		buf.WriteString(k + " " + entries[k] + "\n")
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create credentials directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".credentials-*") // mode 0600
	if err != nil {
		return fmt.Errorf("write credentials file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("write credentials file: %w", err)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("write credentials file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write credentials file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write credentials file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write credentials file: %w", err)
	}
	return nil
}
