//go:build !wasm

package main

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/backoff"
)

// The two answers the server computes instead of picking from its files:
// /svg/<kind>.svg?<page query> (a chart as an image, for a Markdown page)
// and /export?to=NAME&<page query> (the policy as a library snippet, for
// the page's Export panel). Both run the page's own code under its bounds
// on work; a few run at a time and recent answers are kept, keyed by the
// version and the canonical query, so a popular image is drawn once.

// maxDynamic is how many drawings run at once: each is at most the page's
// bound of work (a herd of up to 4M calls), so two keep a 2-core host
// responsive; the rest wait their turn.
const maxDynamic = 2

// cacheEntries bounds the answers kept (an image is tens of KB).
const cacheEntries = 128

type dynamic struct {
	version string
	slots   chan struct{}

	mu    sync.Mutex
	lru   *list.List // of *cached, most recent first
	index map[string]*list.Element
}

type cached struct {
	key, etag, contentType string
	body                   []byte
}

func newDynamic(version string) *dynamic {
	return &dynamic{version: version, slots: make(chan struct{}, maxDynamic), lru: list.New(), index: map[string]*list.Element{}}
}

// serve answers path (below the base path) or reports false when it is
// not one of its own.
func (d *dynamic) serve(w http.ResponseWriter, r *http.Request, path string) bool {
	var kind string
	switch {
	case path == "/export":
		kind = "export"
	case strings.HasPrefix(path, "/svg/") && strings.HasSuffix(path, ".svg"):
		kind = strings.TrimSuffix(strings.TrimPrefix(path, "/svg/"), ".svg")
		if !contains(app.ImageKinds, kind) {
			http.NotFound(w, r)
			return true
		}
	default:
		return false
	}
	raw := r.URL.RawQuery
	if len(raw) > 8192 {
		http.Error(w, "query longer than 8192 bytes", http.StatusRequestURITooLong)
		return true
	}
	to := ""
	if kind == "export" {
		q, _ := url.ParseQuery(raw)
		to = q.Get(export.FieldTarget)
	}
	key := kind + "\x00" + to + "\x00" + app.CanonicalQuery(raw)
	c, err := d.get(key, func() (*cached, error) { return d.make(kind, to, raw) })
	if err != nil {
		var fe *backoff.FieldError
		if errors.As(err, &fe) {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return true
		}
		http.Error(w, "could not draw it: "+err.Error(), http.StatusInternalServerError)
		return true
	}
	h := w.Header()
	h.Set("Content-Type", c.contentType)
	h.Set("ETag", c.etag)
	h.Set("Vary", "Accept-Encoding")
	// A code host's image proxy caches by URL; the version is in the ETag.
	h.Set("Cache-Control", "public, max-age=3600")
	if kind != "export" {
		// An image opened in a tab is a document: its own style, nothing else.
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *")
		h.Del("X-Frame-Options")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, c.etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	if r.Method != http.MethodHead {
		w.Write(c.body)
	}
	return true
}

// get returns the cached answer for key, or makes it in one of the slots.
func (d *dynamic) get(key string, mk func() (*cached, error)) (*cached, error) {
	d.mu.Lock()
	if e, ok := d.index[key]; ok {
		d.lru.MoveToFront(e)
		d.mu.Unlock()
		return e.Value.(*cached), nil
	}
	d.mu.Unlock()
	d.slots <- struct{}{}
	c, err := mk()
	<-d.slots
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(d.version + "\x00" + key))
	c.key, c.etag = key, `"`+hex.EncodeToString(sum[:12])+`"`
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.index[key]; ok {
		return e.Value.(*cached), nil
	}
	d.index[key] = d.lru.PushFront(c)
	for d.lru.Len() > cacheEntries {
		old := d.lru.Remove(d.lru.Back()).(*cached)
		delete(d.index, old.key)
	}
	return c, nil
}

// make draws an image or writes a snippet.
func (d *dynamic) make(kind, to, raw string) (*cached, error) {
	if kind == "export" {
		sn, err := export.To(to, app.PolicyFromQuery(raw))
		if err != nil {
			return nil, err
		}
		// The CLI's --format json, field for field.
		type warning struct {
			Code    string   `json:"code"`
			Args    []string `json:"args"`
			Message string   `json:"message"`
		}
		out := struct {
			Target   string    `json:"target"`
			Snippet  string    `json:"snippet"`
			Warnings []warning `json:"warnings"`
		}{Target: sn.Target.Name, Snippet: sn.Text, Warnings: []warning{}}
		for _, w := range sn.Warnings {
			out.Warnings = append(out.Warnings, warning(w))
		}
		b, err := json.Marshal(out)
		return &cached{contentType: "application/json", body: b}, err
	}
	svg, err := app.ChartSVG(kind, raw)
	if err != nil {
		return nil, err
	}
	return &cached{contentType: "image/svg+xml", body: []byte(svg)}, nil
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
