package config

import (
	"strings"
	"testing"
	"time"
)

func TestParseRequestTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{"1s": time.Second, "10s": 10 * time.Second, "45": 45 * time.Second,
		" 2m ": 2 * time.Minute, "5m": 5 * time.Minute, "1m30s": 90 * time.Second} {
		got, err := ParseRequestTimeout(in)
		if err != nil || got != want {
			t.Errorf("%q: got %v, %v; want %v", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"0":     "out of range (1s to 5m)",
		"500ms": "out of range",
		"5m1s":  "out of range",
		"301":   "out of range",
		"-3s":   "out of range",
		"soon":  `"soon" is not a duration like 10s or 2m`,
		"":      "is not a duration",
	} {
		if _, err := ParseRequestTimeout(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", in, err, want)
		}
	}
}

func TestRequestTimeoutInTheFile(t *testing.T) {
	c, err := Parse([]byte("theme: dark\nrequest_timeout: 10s\n"), "c.yaml")
	if err != nil || c.RequestTimeout != 10*time.Second || c.Lines[KeyRequestTimeout] != 2 {
		t.Fatalf("got %v, %v (line %d)", c.RequestTimeout, err, c.Lines[KeyRequestTimeout])
	}
	_, err = Parse([]byte("theme: dark\n\nrequest_timeout: 10 minutes\n"), "c.yaml")
	if err == nil || !strings.Contains(err.Error(), `c.yaml:3: request_timeout: "10 minutes" is not a duration like 10s or 2m`) {
		t.Fatalf("a bad value is not reported with its line: %v", err)
	}
	_, err = Parse([]byte("request_timeout: 0.5s\n"), "c.yaml")
	if err == nil || !strings.Contains(err.Error(), `c.yaml:1: request_timeout: "0.5s" is out of range (1s to 5m)`) {
		t.Fatalf("a value out of range is not reported with its line: %v", err)
	}
}

func TestSetRequestTimeout(t *testing.T) {
	path := t.TempDir() + "/config.yaml"
	if _, err := Set(path, Setting{Key: KeyRequestTimeout, Value: "20s"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || c.RequestTimeout != 20*time.Second {
		t.Fatalf("got %v, %v", c.RequestTimeout, err)
	}
	if _, err := Set(path, Setting{Key: KeyRequestTimeout, Value: "6m"}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("6m accepted: %v", err)
	}
}
