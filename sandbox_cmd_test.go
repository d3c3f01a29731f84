package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSandboxCommandPrintsEnvAndServes(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "requests.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	cmd := newSandboxCmd()
	cmd.SetArgs([]string{"--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "s.db"), "--size", "small", "--seed", "2", "--request-log", logPath})
	cmd.SetOut(pw)
	cmd.SetErr(&stderr)
	done := make(chan error, 1)
	go func() {
		err := cmd.ExecuteContext(ctx)
		_ = pw.Close()
		done <- err
	}()
	sc := bufio.NewScanner(pr)
	vars := map[string]string{}
	var order []string
	for len(order) < 4 && sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || v == "" {
			t.Fatalf("stdout line %q is not NAME=value", sc.Text())
		}
		vars[k] = v
		order = append(order, k)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	want := []string{"PARLEY_BASE_URL", "PARLEY_TOKEN", "PARLEY_ORG_TOKEN", "PARLEY_RESTRICTED_OPERATOR_ID"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Fatalf("stdout variables %v, want %v", order, want)
	}
	req, err := http.NewRequest(http.MethodGet, vars["PARLEY_BASE_URL"]+"/api/um/v3/operators/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", vars["PARLEY_TOKEN"])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("sandbox command: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the sandbox did not stop")
	}
	logged, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logged), `"path":"/api/um/v3/operators/"`) || strings.Contains(string(logged), vars["PARLEY_TOKEN"]) {
		t.Fatalf("request log: %s", logged)
	}
	if fi, err := os.Stat(logPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("request log mode: %v %v", fi.Mode(), err)
	}
	if !strings.Contains(stderr.String(), "seeded") {
		t.Fatalf("stderr: %s", stderr.String())
	}
}

func TestSandboxCommandValidatesFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--size", "huge"},
		{"--seed", "0"},
		{"--seed", "-3"},
		{"--addr", "nohostport"},
		{"--addr", "127.0.0.1:99999"},
		{"--db", t.TempDir()},
		{"extra"},
	} {
		cmd := newSandboxCmd()
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		if err := cmd.Execute(); err == nil {
			t.Fatalf("%v: no error", args)
		}
	}
}
