package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// The hub's log never writes the token, in text or in JSON: not in a record's message,
// a string, an error, a value of another type, a group or an attribute given to With;
// each record is one line, and JSON lines are JSON objects.
func TestServeLogMasksTheToken(t *testing.T) {
	const token = "tok-4f8a2c9e1b7d-SECRET-9z8y"
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			log, mask := newServeLogger(&out, format)
			mask.add(token)
			type creds struct{ Authorization string }
			log.Info("a message with "+token, "plain", "Bearer "+token)
			log.Error("request failed", "error", fmt.Errorf("GET /x: the server said %q", token))
			log.Warn("value", "any", creds{Authorization: token}, "list", []string{"a", token})
			log.Info("group", slog.Group("request", slog.String("header", token), slog.Any("err", errors.New(token))))
			log.With("bound", token).Info("with", "n", 1)
			text := out.String()
			if strings.Contains(text, token) || strings.Contains(text, "SECRET") {
				t.Fatalf("the token is in the log:\n%s", text)
			}
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if len(lines) != 5 {
				t.Fatalf("%d lines for 5 records:\n%s", len(lines), text)
			}
			if !strings.Contains(text, "****9z8y") {
				t.Errorf("the token's place is not marked:\n%s", text)
			}
			for _, l := range lines {
				if format == "json" {
					var r map[string]any
					if err := json.Unmarshal([]byte(l), &r); err != nil {
						t.Errorf("not a JSON record: %q: %v", l, err)
					}
				} else if !strings.HasPrefix(l, "time=") {
					t.Errorf("not a text record: %q", l)
				}
			}
		})
	}
}

// A value without a secret keeps its type in JSON, and an error is its text.
func TestServeLogKeepsValues(t *testing.T) {
	var out bytes.Buffer
	log, mask := newServeLogger(&out, "json")
	mask.add("secret-token-value")
	log.Info("values", "n", 3, "ok", true, "ids", []int{1, 2}, "error", errors.New("boom"))
	var r map[string]any
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r["n"] != 3.0 || r["ok"] != true || fmt.Sprint(r["ids"]) != "[1 2]" || r["error"] != "boom" {
		t.Errorf("the record is %v", r)
	}
}
