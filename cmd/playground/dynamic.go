//go:build !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/backoff-playground/playground/app"
	"github.com/backoff-playground/playground/app/export"
	"github.com/backoff-playground/playground/backoff"
)

// The two answers the server computes instead of picking from its files:
// /svg/<kind>.svg?<page query> (a chart as an image, for a Markdown page)
// and /export?to=NAME&<page query> (the policy as a library snippet, for
// the page's Export panel; up to 0.8 s of Monte Carlo for some policies).
// Both run the page's own code under its bounds on work. Recent answers
// are kept, keyed by the version and the canonical query, and requests for
// an answer being made wait for it, so a popular image is made once.
//
// The work in flight is bounded whatever the links. The page's bound caps
// a drawing's calls but not its memory, which follows the clients (a herd
// of 2M holds 90 MB): a drawing whose memory (app.ImageMemory) is over
// dynamicMemory is refused with the field at fault and the most it may
// be (app.ImageRefusal), and the page draws it instead. The rest are admitted
// first come first served while at most maxDynamic run and their memory
// fits in dynamicMemory together; at most maxQueued wait, each for at most
// maxWait, and are answered 503 with Retry-After then; the rest get it at
// once. A drawing stops waiting when every request for it has gone. 200
// distinct links to the 2M herd at once took the server from 55 MB to
// 536 MB of RSS and 161 of them got no answer; drawn one at a time, about
// 140 MB; refused, the server's own 45 MB (`make bench-server`,
// BenchmarkServerHostileSVG).

// Limits on the computed answers.
const (
	// maxDynamic is how many run at once: two keep a 2-core host
	// responsive.
	maxDynamic = 2
	// dynamicMemory is what the drawings running at once may hold
	// together, by app.ImageMemory's estimate, and the most one may.
	dynamicMemory = app.ImageBudget
	// maxQueued is how many may wait for their turn: about maxWait's worth
	// of the biggest drawings (0.7 s each, two at a time).
	maxQueued = 8
	// maxWait bounds a drawing's wait for its turn, well within the read
	// and write timeouts (10 s, defaultPerWrite).
	maxWait = 5 * time.Second
	// retryAfter is the 503's Retry-After, in seconds: a full queue's wait.
	retryAfter = "5"
	// cacheBytes bounds the answers kept, by size (an image is tens of KB,
	// the table of 1000 retries 720 KB); one over cacheBytes/8 is not kept.
	cacheBytes = 8 << 20
)

// statusClientClosed is what the access log shows for a request whose
// client left before its answer was made (nginx's 499).
const statusClientClosed = 499

// errBusy is the cause of a 503: no room in the queue, or no turn in
// maxWait.
type errBusy string

func (e errBusy) Error() string { return string(e) }

// dynamic makes, keeps and sends the computed answers. Safe for
// concurrent use.
type dynamic struct {
	version  string
	perWrite time.Duration
	gate     *gate
	// build and memory are app's (d.answer, app.ImageMemory); tests
	// replace them.
	build  func(kind, to, raw string) (*cached, error)
	memory func(kind, raw string) int64

	mu      sync.Mutex
	lru     *list.List // of *cached, most recent first
	index   map[string]*list.Element
	bytes   int // of the bodies in lru
	flights map[string]*flight
}

type cached struct {
	key, etag, contentType string
	body                   []byte
	// gz is body gzipped, when that is smaller (an SVG is text: about a
	// fifth), served with its own ETag to a client that accepts gzip.
	gz     []byte
	gzEtag string
}

// size is what c takes of cacheBytes.
func (c *cached) size() int { return len(c.body) + len(c.gz) }

// flight is one answer being made, and the requests waiting for it.
type flight struct {
	done chan struct{} // closed once c or err is set
	c    *cached
	err  error
	// waiters counts the requests waiting on done; the last to leave
	// before the flight's turn calls cancel, which ends its wait. Once
	// started, it finishes (a drawing cannot be stopped) and its answer is
	// kept. Both under dynamic.mu.
	waiters int
	started bool
	cancel  context.CancelFunc
}

func newDynamic(version string, perWrite time.Duration) *dynamic {
	d := &dynamic{version: version, perWrite: perWrite, gate: newGate(maxDynamic, dynamicMemory, maxQueued),
		memory: app.ImageMemory, lru: list.New(), index: map[string]*list.Element{}, flights: map[string]*flight{}}
	d.build = d.answer
	return d
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
	to, page := "", raw
	if kind == "export" {
		q, _ := url.ParseQuery(raw)
		to = q.Get(export.FieldTarget)
		q.Del(export.FieldTarget)
		page = q.Encode()
	}
	if why := app.ImageRefusal(kind, page, dynamicMemory); why != "" {
		// Before any flight or cache entry: refusing costs nothing.
		http.Error(w, why, http.StatusBadRequest)
		return true
	}
	key := kind + "\x00" + to + "\x00" + app.CanonicalQuery(raw)
	// The wait ends when the client leaves: net/http cancels r.Context()
	// when the connection closes (its background read has no deadline
	// once the request is read, so ReadTimeout does not cut it).
	c, err := d.get(r.Context(), key, kind, to, raw)
	var fe *backoff.FieldError
	var busy errBusy
	switch {
	case err == nil:
	case errors.As(err, &fe):
		http.Error(w, app.QueryErrorText(raw, err), http.StatusBadRequest)
		return true
	case errors.As(err, &busy):
		w.Header().Set("Retry-After", retryAfter)
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, "busy: "+err.Error(), http.StatusServiceUnavailable)
		return true
	case r.Context().Err() != nil:
		w.WriteHeader(statusClientClosed) // nobody reads it; the log does
		return true
	default:
		http.Error(w, "could not make it: "+err.Error(), http.StatusInternalServerError)
		return true
	}
	h := w.Header()
	body, etag := c.body, c.etag
	if ae := r.Header.Get("Accept-Encoding"); c.gz != nil && codingQ(ae, "gzip", 0) > 0 && codingQ(ae, "gzip", 0) >= identityQ(ae) {
		body, etag = c.gz, c.gzEtag
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Type", c.contentType)
	h.Set("ETag", etag)
	h.Set("Vary", "Accept-Encoding")
	// A code host's image proxy caches by URL; the version is in the ETag.
	h.Set("Cache-Control", "public, max-age=3600")
	if kind != "export" {
		// An image opened in a tab is a document: its own style, nothing else.
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *")
		h.Del("X-Frame-Options")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && etagListMatches(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	if r.Method != http.MethodHead {
		// The deadline net/http set when the request came in may have
		// passed while it waited: the answer gets its own. (Errors: a
		// recorder in tests.)
		http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d.perWrite))
		h.Set("Content-Length", strconv.Itoa(len(body)))
		writeBody(w, r, body, d.perWrite)
	}
	return true
}

// get returns the kept answer for key, or waits for the flight making it,
// starting one when there is none. It returns ctx's
// error when ctx ends first; the flight goes on for the other requests
// waiting on it, and stops waiting for its turn when there are none.
func (d *dynamic) get(ctx context.Context, key, kind, to, raw string) (*cached, error) {
	d.mu.Lock()
	if e, ok := d.index[key]; ok {
		d.lru.MoveToFront(e)
		d.mu.Unlock()
		return e.Value.(*cached), nil
	}
	f, ok := d.flights[key]
	if !ok {
		fctx, cancel := context.WithTimeout(context.Background(), maxWait)
		f = &flight{done: make(chan struct{}), cancel: cancel}
		d.flights[key] = f
		go d.fly(fctx, f, key, kind, to, raw)
	}
	f.waiters++
	d.mu.Unlock()
	select {
	case <-f.done:
		return f.c, f.err
	case <-ctx.Done():
		d.mu.Lock()
		if f.waiters--; f.waiters == 0 && !f.started {
			f.cancel()
			if d.flights[key] == f {
				delete(d.flights, key) // a later request starts afresh
			}
		}
		d.mu.Unlock()
		return nil, ctx.Err()
	}
}

// fly waits for a turn (until ctx ends), makes the answer, keeps it and
// hands it to the flight's requests.
func (d *dynamic) fly(ctx context.Context, f *flight, key, kind, to, raw string) {
	defer f.cancel()
	c, err := d.turn(ctx, f, key, kind, to, raw)
	d.mu.Lock()
	if err == nil {
		d.keep(key, c)
	}
	if d.flights[key] == f {
		delete(d.flights, key)
	}
	f.c, f.err = c, err
	d.mu.Unlock()
	close(f.done)
}

// turn makes the answer once the gate admits it. A panic in the drawing
// code is its error: it runs on no request's goroutine, where net/http
// would have recovered it.
func (d *dynamic) turn(ctx context.Context, f *flight, key, kind, to, raw string) (c *cached, err error) {
	mem := d.memory(kind, raw)
	leave, err := d.gate.enter(ctx, mem)
	switch {
	case errors.Is(err, errQueueFull):
		return nil, errBusy(fmt.Sprintf("%d answers are being made and %d more wait their turn: try again in %s s", maxDynamic, maxQueued, retryAfter))
	case errors.Is(err, context.DeadlineExceeded):
		return nil, errBusy(fmt.Sprintf("no turn to make it within %s: try again in %s s", maxWait, retryAfter))
	case err != nil:
		return nil, err // every request for it has gone
	}
	defer leave()
	if mem >= dynamicMemory/4 {
		// Free its memory before the next drawing is admitted: left to the
		// collector's pace, the next one's tens of MB can come before this
		// one's are reclaimed, and peak RSS then varies from 133 to 197 MB
		// between runs of the same benchmark. A collection of the
		// server's 12 MB heap takes about 4 ms; such a drawing 0.1 to 1 s.
		defer runtime.GC()
	}
	d.mu.Lock()
	f.started = true
	d.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	c, err = d.build(kind, to, raw)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(d.version + "\x00" + key))
	c.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(c.body)
	zw.Close()
	if b.Len() < len(c.body) {
		c.gz, c.gzEtag = b.Bytes(), `"`+hex.EncodeToString(sum[:12])+`-gz"`
	}
	return c, nil
}

// keep adds c under key, dropping the least recently used answers beyond
// cacheBytes. The caller holds d.mu.
func (d *dynamic) keep(key string, c *cached) {
	if c.size() > cacheBytes/8 {
		return
	}
	if _, ok := d.index[key]; ok {
		return
	}
	c.key = key
	d.index[key] = d.lru.PushFront(c)
	d.bytes += c.size()
	for d.bytes > cacheBytes {
		old := d.lru.Remove(d.lru.Back()).(*cached)
		delete(d.index, old.key)
		d.bytes -= old.size()
	}
}

// answer draws an image or writes a snippet.
func (d *dynamic) answer(kind, to, raw string) (*cached, error) {
	if kind == "export" {
		sn, err := export.ToWith(to, app.PolicyFromQuery(raw), export.SimOptions(app.HerdFromQuery(raw)))
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

// errQueueFull is gate.enter's answer when maxQueued already wait.
var errQueueFull = errors.New("queue full")

// gate admits work in arrival order while at most slots run and their
// memory sums to at most budget; at most queue wait. Work estimated above
// the budget counts as the budget: it runs alone. A waiter never lets a
// later, smaller one pass it, so a big drawing cannot be starved. Safe for
// concurrent use.
type gate struct {
	slots, queue int
	budget       int64

	mu      sync.Mutex
	running int
	held    int64
	waiting list.List // of *ticket, first come first
}

type ticket struct {
	mem   int64
	ready chan struct{} // closed when admitted
}

func newGate(slots int, budget int64, queue int) *gate {
	return &gate{slots: slots, budget: budget, queue: queue}
}

// enter waits until the work may run, and returns the function to call
// when it is done; it fails at once with errQueueFull, or with ctx's error
// when ctx ends first.
func (g *gate) enter(ctx context.Context, mem int64) (leave func(), err error) {
	mem = min(max(mem, 0), g.budget)
	leave = func() { g.leave(mem) }
	g.mu.Lock()
	if g.waiting.Len() == 0 && g.fits(mem) {
		g.take(mem)
		g.mu.Unlock()
		return leave, nil
	}
	if g.waiting.Len() >= g.queue {
		g.mu.Unlock()
		return nil, errQueueFull
	}
	t := &ticket{mem: mem, ready: make(chan struct{})}
	e := g.waiting.PushBack(t)
	g.mu.Unlock()
	select {
	case <-t.ready:
		return leave, nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	select {
	case <-t.ready: // admitted as ctx ended: hand the turn on
		g.mu.Unlock()
		g.leave(mem)
	default:
		g.waiting.Remove(e)
		g.admit() // the next in line may fit where this one did not
		g.mu.Unlock()
	}
	return nil, ctx.Err()
}

func (g *gate) fits(mem int64) bool { return g.running < g.slots && g.held+mem <= g.budget }

func (g *gate) take(mem int64) { g.running++; g.held += mem }

func (g *gate) leave(mem int64) {
	g.mu.Lock()
	g.running--
	g.held -= mem
	g.admit()
	g.mu.Unlock()
}

// admit lets in the waiters at the front of the line that fit. The
// caller holds g.mu.
func (g *gate) admit() {
	for e := g.waiting.Front(); e != nil; e = g.waiting.Front() {
		t := e.Value.(*ticket)
		if !g.fits(t.mem) {
			return
		}
		g.take(t.mem)
		g.waiting.Remove(e)
		close(t.ready)
	}
}

// counts reports how many run and how many wait (tests).
func (g *gate) counts() (running, waiting int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.running, g.waiting.Len()
}
