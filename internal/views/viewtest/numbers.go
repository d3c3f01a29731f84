package viewtest

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// numbers is what a Proxy does to the numbers of the JSON answers (Proxy.Numbers).
type numbers struct {
	v    int64
	pick func(path, key string) bool
}

// Numbers makes the proxy rewrite the JSON answers of the API (2xx, application/json):
// every number that pick chooses becomes v, written as that integer (a number in an array
// goes by its array's key). pick is given the request's path and the number's key. A nil
// pick stops it. The rest of an answer is kept as it was, but for its keys' order.
func (p *Proxy) Numbers(v int64, pick func(path, key string) bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pick == nil {
		p.numbers = nil
		return
	}
	p.numbers = &numbers{v: v, pick: pick}
}

// IDKey reports a JSON key that holds ids: "id", "…_id", "…_ids", "operator_assigned_to".
func IDKey(key string) bool {
	return key == "id" || strings.HasSuffix(key, "_id") || strings.HasSuffix(key, "_ids") || key == "operator_assigned_to"
}

// CountKey reports any other key with a number: counts, slots, ratings, states, analytics
// values, coordinates.
func CountKey(key string) bool { return !IDKey(key) }

// rewrite is the proxy's ModifyResponse: the numbers of a JSON answer, when Numbers is on.
func (p *Proxy) rewrite(resp *http.Response) error {
	p.mu.Lock()
	n := p.numbers
	p.mu.Unlock()
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if n == nil || resp.StatusCode/100 != 2 || ct != "application/json" || resp.Header.Get("Content-Encoding") != "" {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) == nil {
		if out, err := json.Marshal(n.walk(resp.Request.URL.Path, "", doc)); err == nil {
			body = out
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

// walk rewrites the numbers under key in x.
func (n *numbers) walk(path, key string, x any) any {
	switch v := x.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = n.walk(path, k, e)
		}
	case []any:
		for i, e := range v {
			v[i] = n.walk(path, key, e)
		}
	case json.Number:
		if n.pick(path, key) {
			return json.Number(strconv.FormatInt(n.v, 10))
		}
	}
	return x
}
