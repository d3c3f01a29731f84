//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package cli

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// queryDarkBackground asks the terminal for its background colour (OSC 11), followed by a
// device-attributes request (DA1) that every terminal answers, so the whole reply is read
// and nothing leaks into the program's input. A terminal that answers neither within
// timeout leaves ok false: start-up never waits longer than that.
func queryDarkBackground(in, out *os.File, timeout time.Duration) (dark, ok bool) {
	fd := int(in.Fd())
	if !term.IsTerminal(fd) || !term.IsTerminal(int(out.Fd())) {
		return false, false
	}
	state, err := term.MakeRaw(fd)
	if err != nil {
		return false, false
	}
	defer func() { _ = term.Restore(fd, state) }()
	if _, err := out.WriteString("\x1b]11;?\x1b\\\x1b[c"); err != nil {
		return false, false
	}
	deadline := time.Now().Add(timeout)
	var buf []byte
	chunk := make([]byte, 256)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false, false
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left/time.Millisecond)+1)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return false, false
		}
		r, err := in.Read(chunk)
		if err != nil || r == 0 {
			return false, false
		}
		buf = append(buf, chunk[:r]...)
		// DA1 answer: ESC [ ? … c. It comes after the OSC 11 answer, if any.
		if i := bytes.Index(buf, []byte("\x1b[?")); i >= 0 && bytes.IndexByte(buf[i:], 'c') > 0 {
			return parseOSC11(buf[:i])
		}
	}
}

// parseOSC11 reads "ESC ] 11 ; rgb:RRRR/GGGG/BBBB" and reports whether it is dark.
func parseOSC11(b []byte) (dark, ok bool) {
	i := bytes.Index(b, []byte("rgb:"))
	if i < 0 {
		return false, false
	}
	s := b[i+4:]
	end := bytes.IndexAny(s, "\x07\x1b")
	if end >= 0 {
		s = s[:end]
	}
	parts := bytes.Split(s, []byte("/"))
	if len(parts) != 3 {
		return false, false
	}
	var rgb [3]float64
	for j, p := range parts {
		if len(p) == 0 || len(p) > 4 {
			return false, false
		}
		v, err := strconv.ParseUint(string(p), 16, 16)
		if err != nil {
			return false, false
		}
		rgb[j] = float64(v) / float64(uint64(1)<<(4*len(p))-1)
	}
	luminance := 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
	return luminance < 0.5, true
}
