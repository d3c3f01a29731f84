package credentials

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/parley-tui/parley/internal/atomicfile"
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
	return parseFile(f, path)
}

// maxLine is the longest line of the credentials file (a token is at most maxTokenLen).
const maxLine = 64 * 1024

// parseFile reads the "PROFILE TOKEN" lines of the credentials file at path from r. Blank
// lines and lines starting with # are skipped; a line of other than two fields of plain
// UTF-8 text (no control character) is an error. Errors never contain a token.
func parseFile(r io.Reader, path string) (map[string]string, error) {
	entries := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a byte order mark an editor added
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 || !oneField(fields[0]) || !oneField(fields[1]) {
			// The line may hold a token: never repeat it.
			return nil, fmt.Errorf("%s:%d: malformed line (want \"PROFILE TOKEN\")", path, line)
		}
		entries[fields[0]] = fields[1]
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: a line longer than %d bytes", path, line+1, maxLine)
		}
		return nil, fmt.Errorf("read credentials file %s: %w", path, err)
	}
	return entries, nil
}

// formatFile is the credentials file holding entries, sorted by profile. A profile or
// token that would not read back as itself (not oneField, a profile starting with #) is
// refused.
func formatFile(entries map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(fileHeader)
	for _, k := range slices.Sorted(maps.Keys(entries)) {
		v := entries[k]
		if !oneField(k) || strings.HasPrefix(k, "#") {
			return nil, errors.New("write credentials file: a profile name is empty or holds white space")
		}
		if !oneField(v) {
			return nil, fmt.Errorf("write credentials file: the token of %s is empty or holds white space", k)
		}
		buf.WriteString(k + " " + v + "\n")
	}
	if buf.Len() > len(fileHeader) && longestLine(buf.Bytes()) > maxLine {
		return nil, errors.New("write credentials file: an entry is longer than a line may be")
	}
	return buf.Bytes(), nil
}

// oneField reports whether s is a field of the file: not empty, valid UTF-8, without white
// space (as strings.Fields splits) or control characters.
func oneField(s string) bool {
	return s != "" && utf8.ValidString(s) &&
		!strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) })
}

// longestLine is the length of the longest line of b.
func longestLine(b []byte) int {
	n := 0
	for line := range bytes.Lines(b) {
		n = max(n, len(line))
	}
	return n
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
	data, err := formatFile(entries)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create credentials directory: %w", err)
	}
	if err := atomicfile.Write(path, ".credentials-*", data); err != nil { // mode 0600
		return fmt.Errorf("write credentials file: %w", err)
	}
	return nil
}
