package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
)

// newServeLogger is the hub's log on w: one log/slog record per event, as key=value text
// or as one JSON object a line (format, config.LogFormats). Every record passes a mask
// first: the secrets it is told (mask.add, the API token once it is known) never reach w,
// in the message or in any attribute.
func newServeLogger(w io.Writer, format string) (*slog.Logger, *logMask) {
	var h slog.Handler
	if format == "json" {
		h = slog.NewJSONHandler(w, nil)
	} else {
		h = slog.NewTextHandler(w, nil)
	}
	m := &logMask{}
	return slog.New(maskHandler{next: h, mask: m}), m
}

// logMask is the secrets a log masks (add registers one).
type logMask struct{ secrets }

// attr is a with the secrets masked in its value: a string, an error's or any other
// value's text (then written as text), each attribute of a group.
func (m *logMask) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, m.redact(v.String()))
	case slog.KindGroup:
		group := v.Group()
		out := make([]slog.Attr, len(group))
		for i, g := range group {
			out[i] = m.attr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	case slog.KindAny:
		var text string
		if err, ok := v.Any().(error); ok {
			text = err.Error()
		} else {
			text = fmt.Sprint(v.Any())
		}
		if masked := m.redact(text); masked != text {
			return slog.String(a.Key, masked)
		}
		if _, ok := v.Any().(error); ok {
			return slog.String(a.Key, text) // an error as its text, in JSON too
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// maskHandler masks the secrets of mask in every record before next writes it.
type maskHandler struct {
	next slog.Handler
	mask *logMask
}

func (h maskHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h maskHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.mask.redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.mask.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

// WithAttrs masks attrs with the secrets known when it is called.
func (h maskHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		masked[i] = h.mask.attr(a)
	}
	return maskHandler{next: h.next.WithAttrs(masked), mask: h.mask}
}

func (h maskHandler) WithGroup(name string) slog.Handler {
	return maskHandler{next: h.next.WithGroup(name), mask: h.mask}
}
