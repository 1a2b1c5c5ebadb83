//go:build !wasm

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/backoff-playground/playground/app"
)

func TestSVGImages(t *testing.T) {
	h, _ := newServer(serverConfig{prefix: "/pg"}, fakeWeb(), fakeStatic())
	for _, kind := range []string{"delays", "herd", "compare", "table"} {
		req := httptest.NewRequest("GET", "/pg/svg/"+kind+".svg?preset=gax&attempts=4&clients=100&theme=dark", nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/svg+xml" {
			t.Fatalf("%s: %d %s", kind, rec.Code, rec.Header().Get("Content-Type"))
		}
		body := rec.Body.String()
		d := xml.NewDecoder(strings.NewReader(body))
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed: %v", kind, err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "script" {
				t.Fatalf("%s: a script", kind)
			}
		}
		etag := rec.Header().Get("ETag")
		// The same picture from a query in another order: a 304.
		req = httptest.NewRequest("GET", "/pg/svg/"+kind+".svg?theme=dark&clients=100&attempts=4&preset=gax", nil)
		req.Header.Set("If-None-Match", etag)
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified {
			t.Errorf("%s: %d for the same picture, want 304", kind, rec.Code)
		}
	}
	// Gzip for a client that takes it, with its own ETag.
	plain := httptest.NewRecorder()
	h.ServeHTTP(plain, httptest.NewRequest("GET", "/pg/svg/herd.svg?clients=100", nil))
	req := httptest.NewRequest("GET", "/pg/svg/herd.svg?clients=100", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	zipped := httptest.NewRecorder()
	h.ServeHTTP(zipped, req)
	zr, err := gzip.NewReader(zipped.Body)
	if err != nil || zipped.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip: %v, Content-Encoding %q", err, zipped.Header().Get("Content-Encoding"))
	}
	unzipped, _ := io.ReadAll(zr)
	if !bytes.Equal(unzipped, plain.Body.Bytes()) || zipped.Body.Len() > plain.Body.Len()/2 ||
		zipped.Header().Get("ETag") == plain.Header().Get("ETag") {
		t.Errorf("gzip: %d bytes for %d, same content %v, ETags %s %s", zipped.Body.Len(), plain.Body.Len(),
			bytes.Equal(unzipped, plain.Body.Bytes()), zipped.Header().Get("ETag"), plain.Header().Get("ETag"))
	}
	req.Header.Set("If-None-Match", zipped.Header().Get("ETag"))
	rec := httptest.NewRecorder()
	if h.ServeHTTP(rec, req); rec.Code != http.StatusNotModified {
		t.Errorf("gzip's ETag: %d, want 304", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/pg/svg/pie.svg", nil))
	if rec.Code != 404 {
		t.Errorf("pie: %d", rec.Code)
	}
}

// An image over the drawings' memory is refused before any work, with the
// field at fault and the most it may be, in the link's language; so is a
// value the page would ignore. An open run is refused when it fills its
// memory (a queue falling behind 7280 calls/s), with the duration that
// runs the same and does not.
func TestSVGTooBig(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	for _, c := range []struct{ path, want string }{
		{"/svg/herd.svg?clients=2000000", `(clients): “2000000” is not valid: at most 754,147 for an image the server draws (it gives one drawing 40 MB)`},
		{"/svg/compare.svg?clients=2000000&lang=ru", "(clients): «2000000» не подходит: не больше 628\u202f456 для картинки, которую рисует сервер (на один рисунок он даёт 40 МБ)"},
		{"/svg/herd.svg?server=queue&traffic=loop:1000000", `Traffic (traffic): “loop:1000000” is not valid: at most 158,398 for an image`},
		{"/svg/herd.svg?server=queue&traffic=open:7280&duration=1m", `(duration): “1m0s” is not valid: at most 34.798s for an image`},
		{"/svg/table.svg?attempts=1001&lang=ru", `attempts=1001 отклонён: нужно целое число от 0 до 1000`},
		{"/svg/delays.svg?atempts=3", `atempts`},
		{"/export?to=polly&cap=soon", `cap=soon refused: want a duration from 0s to 720h`},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%s: %d %q, want 400 with %q", c.path, rec.Code, rec.Body.String(), c.want)
		}
	}
	// The most it names is drawn.
	for _, path := range []string{"/svg/herd.svg?server=queue&traffic=open:7280&duration=34.798s", "/svg/herd.svg?scenario=open"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			t.Errorf("%s: %d %q", path, rec.Code, rec.Body.String())
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/svg/herd.svg?clients=754147", nil))
	if rec.Code != 200 {
		t.Errorf("754,147 clients: %d %q", rec.Code, rec.Body.String())
	}
}

func TestExportEndpoint(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/export?to=grpc-json&preset=grpc-retry", nil))
	var got struct {
		Target, Snippet string
		Warnings        []struct{ Code string }
	}
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &got) != nil || got.Target != "grpc-json" || !strings.Contains(got.Snippet, `"maxAttempts": 5`) {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	// The herd's grpc budget is the service config's retryThrottling; its
	// timeout, Envoy's per_try_timeout.
	for _, c := range []struct{ path, want string }{
		{"/export?to=grpc-json&budget=grpc:20:0.5", "\"retryThrottling\": {\n    \"maxTokens\": 20,\n    \"tokenRatio\": 0.5"},
		{"/export?to=envoy-yaml&server=queue&timeout=1.5s", `per_try_timeout: 1.5s`},
	} {
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &got) != nil || !strings.Contains(got.Snippet, c.want) {
			t.Errorf("%s: %d, snippet lacks %q:\n%s", c.path, rec.Code, c.want, got.Snippet)
		}
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/export?to=cobol", nil))
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "go-cenkalti") {
		t.Errorf("unknown target: %d %s", rec.Code, rec.Body.String())
	}
}

// fakeDrawer stands in for app's drawing: it counts the drawings of each
// query and holds those whose query has a channel until it is closed.
type fakeDrawer struct {
	mu    sync.Mutex
	calls map[string]int
	hold  map[string]chan struct{}
	size  int // body bytes
}

func newFakeDrawer() *fakeDrawer {
	return &fakeDrawer{calls: map[string]int{}, hold: map[string]chan struct{}{}}
}

func (f *fakeDrawer) build(kind, to, raw string) (*cached, error) {
	f.mu.Lock()
	f.calls[raw]++
	ch, size := f.hold[raw], f.size
	f.mu.Unlock()
	if ch != nil {
		<-ch
	}
	if raw == "seed=666" {
		panic("drawing broke")
	}
	body := []byte("<svg>" + raw + "</svg>")
	if size > len(body) {
		body = append(body, bigBody(size-len(body))...) // incompressible: no gzip copy
	}
	return &cached{contentType: "image/svg+xml", body: body}, nil
}

// holdQuery makes the drawing of raw wait until the returned function runs.
func (f *fakeDrawer) holdQuery(raw string) (release func()) {
	ch := make(chan struct{})
	f.mu.Lock()
	f.hold[raw] = ch
	f.mu.Unlock()
	return func() { close(ch) }
}

func (f *fakeDrawer) count(raw string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[raw]
}

// testDynamic is a dynamic drawing with f, every drawing estimated at mem
// bytes.
func testDynamic(f *fakeDrawer, mem int64) *dynamic {
	d := newDynamic("v1", time.Second)
	d.build = f.build
	d.memory = func(kind, raw string) int64 { return mem }
	return d
}

// start serves GET target on d in its own goroutine; the recorder is sent
// on the channel when the answer is complete.
func start(d *dynamic, ctx context.Context, target string, header ...string) <-chan *httptest.ResponseRecorder {
	out := make(chan *httptest.ResponseRecorder, 1)
	req := httptest.NewRequestWithContext(ctx, "GET", target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	go func() {
		rec := httptest.NewRecorder()
		path, _, _ := strings.Cut(target, "?")
		if !d.serve(rec, req, path) {
			rec.Code = 0
		}
		out <- rec
	}()
	return out
}

// ready reports whether the answer on ch is complete, after every goroutine
// of the bubble has done what it can.
func ready(ch <-chan *httptest.ResponseRecorder) (*httptest.ResponseRecorder, bool) {
	synctest.Wait()
	select {
	case rec := <-ch:
		return rec, true
	default:
		return nil, false
	}
}

func TestGateOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(2, 100, 3)
		ctx := context.Background()
		type entered struct {
			leave func()
			err   error
		}
		enter := func(mem int64) <-chan entered {
			ch := make(chan entered, 1)
			go func() {
				leave, err := g.enter(ctx, mem)
				ch <- entered{leave, err}
			}()
			synctest.Wait() // it has entered or joined the line
			return ch
		}
		admitted := func(ch <-chan entered) (func(), bool) {
			t.Helper()
			synctest.Wait()
			select {
			case e := <-ch:
				if e.err != nil {
					t.Fatalf("enter: %v", e.err)
				}
				return e.leave, true
			default:
				return nil, false
			}
		}
		a, b := enter(10), enter(10)
		leaveA, okA := admitted(a)
		leaveB, okB := admitted(b)
		if !okA || !okB {
			t.Fatal("two slots, two entered, not both running")
		}
		c, dd, e := enter(10), enter(10), enter(10)
		if run, wait := g.counts(); run != 2 || wait != 3 {
			t.Fatalf("running %d, waiting %d; want 2, 3", run, wait)
		}
		if _, err := g.enter(ctx, 10); err != errQueueFull {
			t.Fatalf("a fourth in a line of 3: %v, want errQueueFull", err)
		}
		leaveA()
		leaveC, okC := admitted(c)
		if _, okD := admitted(dd); !okC || okD {
			t.Fatalf("after one left: c admitted %v, d %v; want the first in line only", okC, okD)
		}
		leaveB()
		leaveC()
		leaveD, _ := admitted(dd)
		leaveE, okE := admitted(e)
		if !okE {
			t.Fatal("e not admitted with both slots free")
		}
		leaveD()
		leaveE()
		if run, wait := g.counts(); run != 0 || wait != 0 {
			t.Fatalf("all left: running %d, waiting %d", run, wait)
		}
	})
}

func TestGateMemory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(2, 100, 8)
		ctx := context.Background()
		leaveBig, err := g.enter(ctx, 80)
		if err != nil {
			t.Fatal(err)
		}
		// 30 more does not fit in 100 though a slot is free; 10 behind it
		// would fit, but does not pass it.
		got := make(chan string, 3)
		var leaves sync.Map
		for _, w := range []struct {
			name string
			mem  int64
		}{{"30", 30}, {"10", 10}} {
			go func() {
				leave, err := g.enter(ctx, w.mem)
				if err == nil {
					leaves.Store(w.name, leave)
				}
				got <- w.name
			}()
			synctest.Wait()
		}
		if len(got) != 0 {
			t.Fatalf("%s admitted beside 80 of a budget of 100", <-got)
		}
		// Room made for 10 but not for 30 still admits nobody.
		leaveSmall := func() {}
		if g.slots = 3; true {
			g.mu.Lock()
			g.take(10) // as if a 10 had run beside the 80 all along
			g.mu.Unlock()
			leaveSmall = func() { g.leave(10) }
		}
		leaveSmall()
		synctest.Wait()
		if len(got) != 0 {
			t.Fatalf("%s passed the 30 first in line", <-got)
		}
		leaveBig()
		synctest.Wait()
		if len(got) != 2 {
			t.Fatal("after the big one left, 30 and 10 were not both admitted")
		}
		<-got
		<-got
		// One over the budget runs alone: it waits for both to leave.
		go func() {
			leave, _ := g.enter(ctx, 1<<40)
			leaves.Store("huge", leave)
			got <- "huge"
		}()
		synctest.Wait()
		l, _ := leaves.Load("30")
		l.(func())()
		synctest.Wait()
		if len(got) != 0 {
			t.Fatal("the huge one ran beside another")
		}
		l, _ = leaves.Load("10")
		l.(func())()
		synctest.Wait()
		if len(got) != 1 {
			t.Fatal("the huge one did not run alone")
		}
		if run, _ := g.counts(); run != 1 {
			t.Fatalf("running %d, want 1", run)
		}
	})
}

func TestGateGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate(1, 100, 8)
		leave, _ := g.enter(context.Background(), 10)
		// A waiter whose context ends leaves the line; the one behind it
		// moves up.
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { _, err := g.enter(ctx, 10); errc <- err }()
		synctest.Wait()
		second := make(chan error, 1)
		go func() { _, err := g.enter(context.Background(), 10); second <- err }()
		synctest.Wait()
		cancel()
		if err := <-errc; err != context.Canceled {
			t.Fatalf("cancelled waiter: %v", err)
		}
		if _, wait := g.counts(); wait != 1 {
			t.Fatalf("waiting %d after one gave up, want 1", wait)
		}
		leave()
		if err := <-second; err != nil {
			t.Fatalf("the next in line: %v", err)
		}
		// A deadline ends a wait at its time, not before.
		ctx, cancel = context.WithTimeout(context.Background(), maxWait)
		defer cancel()
		t0 := time.Now()
		if _, err := g.enter(ctx, 10); err != context.DeadlineExceeded || time.Since(t0) != maxWait {
			t.Fatalf("waited %s: %v; want %s and DeadlineExceeded", time.Since(t0), err, maxWait)
		}
	})
}

func TestDynamicBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeDrawer()
		d := testDynamic(f, 1)
		ctx := context.Background()
		// Two drawings run (held), maxQueued wait: one more is turned away
		// at once with 503 and Retry-After.
		var releases []func()
		var running, queued []<-chan *httptest.ResponseRecorder
		for i := range maxDynamic + maxQueued {
			q := fmt.Sprintf("seed=%d", i+1)
			releases = append(releases, f.holdQuery(q))
			ch := start(d, ctx, "/svg/herd.svg?"+q)
			if i < maxDynamic {
				running = append(running, ch)
			} else {
				queued = append(queued, ch)
			}
			synctest.Wait()
		}
		if run, wait := d.gate.counts(); run != maxDynamic || wait != maxQueued {
			t.Fatalf("running %d, waiting %d; want %d, %d", run, wait, maxDynamic, maxQueued)
		}
		rec, ok := ready(start(d, ctx, "/svg/herd.svg?seed=999"))
		if !ok || rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != retryAfter ||
			!strings.Contains(rec.Body.String(), "wait their turn") || rec.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("a full queue: ready %v, %v", ok, rec)
		}
		if f.count("seed=999") != 0 {
			t.Error("the turned-away request was drawn")
		}
		// The first two finish: two of the queued move up.
		releases[0]()
		releases[1]()
		for _, ch := range running {
			if rec, ok := ready(ch); !ok || rec.Code != 200 {
				t.Fatalf("a released drawing: ready %v, %v", ok, rec)
			}
		}
		if run, wait := d.gate.counts(); run != maxDynamic || wait != maxQueued-2 {
			t.Fatalf("running %d, waiting %d; want %d, %d", run, wait, maxDynamic, maxQueued-2)
		}
		// The rest wait maxWait for a turn, then get 503, and are never drawn.
		time.Sleep(maxWait - time.Nanosecond)
		if _, ok := ready(queued[len(queued)-1]); ok {
			t.Fatal("answered before maxWait")
		}
		time.Sleep(time.Nanosecond)
		for _, ch := range queued[2:] {
			rec, ok := ready(ch)
			if !ok || rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != retryAfter ||
				!strings.Contains(rec.Body.String(), "no turn") {
				t.Fatalf("after maxWait: ready %v, %v", ok, rec)
			}
		}
		for i := maxDynamic + 2; i < maxDynamic+maxQueued; i++ {
			if n := f.count(fmt.Sprintf("seed=%d", i+1)); n != 0 {
				t.Errorf("seed=%d timed out and was drawn %d times", i+1, n)
			}
		}
		releases[2]()
		releases[3]()
		for _, ch := range queued[:2] {
			if rec, ok := ready(ch); !ok || rec.Code != 200 {
				t.Fatalf("a queued drawing given its turn: ready %v, %v", ok, rec)
			}
		}
		for _, r := range releases[4:] {
			r()
		}
	})
}

func TestDynamicClientGone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeDrawer()
		d := testDynamic(f, 1)
		var releases []func()
		for i := range maxDynamic {
			q := fmt.Sprintf("seed=%d", i+1)
			releases = append(releases, f.holdQuery(q))
			start(d, context.Background(), "/svg/herd.svg?"+q)
			synctest.Wait() // in this order
		}
		ctx, cancel := context.WithCancel(context.Background())
		ch := start(d, ctx, "/svg/herd.svg?seed=50")
		synctest.Wait()
		if _, wait := d.gate.counts(); wait != 1 {
			t.Fatalf("waiting %d, want 1", wait)
		}
		cancel() // the client went away
		rec, ok := ready(ch)
		if !ok || rec.Code != statusClientClosed {
			t.Fatalf("a client gone: ready %v, %v", ok, rec)
		}
		if _, wait := d.gate.counts(); wait != 0 {
			t.Fatalf("its drawing still waits (%d waiting)", wait)
		}
		for _, r := range releases {
			r()
		}
		synctest.Wait()
		if n := f.count("seed=50"); n != 0 {
			t.Fatalf("drawn %d times for nobody", n)
		}
		// A request that leaves while others wait for the same drawing does
		// not stop it for them.
		release := f.holdQuery("seed=51")
		ctx, cancel = context.WithCancel(context.Background())
		gone := start(d, ctx, "/svg/herd.svg?seed=51")
		synctest.Wait()
		stays := start(d, context.Background(), "/svg/herd.svg?seed=51")
		synctest.Wait()
		cancel()
		if rec, ok := ready(gone); !ok || rec.Code != statusClientClosed {
			t.Fatalf("the one gone: ready %v, %v", ok, rec)
		}
		release()
		if rec, ok := ready(stays); !ok || rec.Code != 200 || rec.Body.String() != "<svg>seed=51</svg>" {
			t.Fatalf("the one still there: ready %v, %v", ok, rec)
		}
	})
}

func TestDynamicCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeDrawer()
		d := testDynamic(f, 1)
		ctx := context.Background()
		// Three at once for one picture: one drawing, three answers.
		release := f.holdQuery("seed=7")
		var chs []<-chan *httptest.ResponseRecorder
		for range 3 {
			chs = append(chs, start(d, ctx, "/svg/herd.svg?seed=7"))
		}
		synctest.Wait()
		release()
		var etag string
		for _, ch := range chs {
			rec, ok := ready(ch)
			if !ok || rec.Code != 200 || rec.Body.String() != "<svg>seed=7</svg>" {
				t.Fatalf("ready %v, %v", ok, rec)
			}
			etag = rec.Header().Get("ETag")
		}
		if n := f.count("seed=7"); n != 1 {
			t.Fatalf("drawn %d times for three requests at once", n)
		}
		// Kept: the same picture from a query in another order is not drawn
		// again, and its ETag gives a 304.
		if rec, _ := ready(start(d, ctx, "/svg/herd.svg?attempts=6&seed=7")); rec.Code != 200 || f.count("attempts=6&seed=7") != 0 {
			t.Fatalf("the same picture was drawn again: %d", rec.Code)
		}
		if rec, _ := ready(start(d, ctx, "/svg/herd.svg?seed=7", "If-None-Match", `W/"x", `+etag)); rec.Code != http.StatusNotModified {
			t.Fatalf("If-None-Match with its ETag in a list: %d, want 304", rec.Code)
		}
		// Kept by size: answers of cacheBytes/8 each, nine of them, push
		// the first out; one bigger is not kept at all.
		f.size = cacheBytes / 8
		for i := range 9 {
			ready(start(d, ctx, fmt.Sprintf("/svg/herd.svg?seed=%d", 100+i)))
		}
		if d.bytes > cacheBytes {
			t.Fatalf("kept %d bytes, bound %d", d.bytes, cacheBytes)
		}
		ready(start(d, ctx, "/svg/herd.svg?seed=100"))
		ready(start(d, ctx, "/svg/herd.svg?seed=108"))
		if a, b := f.count("seed=100"), f.count("seed=108"); a != 2 || b != 1 {
			t.Fatalf("drawings of the oldest and the newest: %d, %d; want 2 (pushed out), 1 (kept)", a, b)
		}
		f.size = cacheBytes/8 + 1
		ready(start(d, ctx, "/svg/herd.svg?seed=200"))
		ready(start(d, ctx, "/svg/herd.svg?seed=200"))
		if n := f.count("seed=200"); n != 2 {
			t.Fatalf("an answer over cacheBytes/8 drawn %d times, want 2 (not kept)", n)
		}
	})
}

func TestDynamicPanic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeDrawer()
		d := testDynamic(f, 1)
		rec, _ := ready(start(d, context.Background(), "/svg/herd.svg?seed=666"))
		if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "drawing broke") {
			t.Fatalf("a panic in the drawing: %v", rec)
		}
		if run, _ := d.gate.counts(); run != 0 {
			t.Fatal("the panic kept its slot")
		}
		if rec, _ := ready(start(d, context.Background(), "/svg/herd.svg?seed=1")); rec.Code != 200 {
			t.Fatalf("after a panic: %d", rec.Code)
		}
	})
}

// TestDynamicReadDeadline: a request waiting for its drawing past the
// server's ReadTimeout still gets its answer. The wait relies on
// r.Context() ending only when the client leaves: net/http clears the read
// deadline for its background read once the request is read. A real
// server, as the deadline is the connection's.
func TestDynamicReadDeadline(t *testing.T) {
	f := newFakeDrawer()
	d := testDynamic(f, 1)
	const readTimeout = 50 * time.Millisecond
	release := f.holdQuery("seed=1")
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.serve(w, r, r.URL.Path)
	}))
	srv.Config.ReadTimeout = readTimeout
	srv.Start()
	defer srv.Close()
	go func() {
		time.Sleep(4 * readTimeout) // a delay past the deadline, not a synchronisation
		release()
	}()
	res, err := http.Get(srv.URL + "/svg/herd.svg?seed=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "<svg>seed=1</svg>" {
		t.Fatalf("%d %q", res.StatusCode, body)
	}
}

// The gate charges an image for its timeline: a herd link asking for 1
// ms buckets of a year's outage keeps thousands of buckets a run, which
// the memory the gate admits it with counts (the runs' bound on calls
// bounds them). Without them the links were charged the same, and the
// one of 500,000 clients ran at 169 MB where it was charged 39.
func TestSVGBucketCounted(t *testing.T) {
	d := newDynamic("test", time.Second)
	plain := "outage-end=8760h&clients=100000&attempts=1000&runs=20&seed=8804"
	with, without := d.memory("herd", "bucket=1ms&"+plain), d.memory("herd", plain)
	if with < without+1<<20 || with > dynamicMemory {
		t.Errorf("charged %d bytes with bucket=1ms, %d without, budget %d: want over 1 MB more, within the budget", with, without, dynamicMemory)
	}
	// 500,000 clients fit without the bucket, not with it.
	big := strings.Replace(plain, "clients=100000", "clients=500000", 1)
	if why := app.ImageRefusal("herd", big, dynamicMemory); why != "" {
		t.Errorf("500,000 clients refused: %s", why)
	}
	if why := app.ImageRefusal("herd", "bucket=1ms&"+big, dynamicMemory); !strings.Contains(why, "clients") {
		t.Errorf("500,000 clients with bucket=1ms: %q, want refused naming clients", why)
	}
}

// A herd link asking for 1 ms buckets of a year's outage costs about what
// the same link without them does: each run keeps at most its share of
// the page's calls in buckets (sim.BinCallCost). It took 41 times as long
// (7.8 s of CPU against 0.19 s) when every run kept 120,000 buckets.
// Reported as the ratio of the two, run beside each other.
func BenchmarkSVGBucketLink(b *testing.B) {
	d := newDynamic("test", time.Second)
	plain := "outage-end=8760h&clients=500000&attempts=1000&runs=20&seed=8804"
	var bucket, without time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := d.answer("herd", "", "bucket=1ms&"+plain); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := d.answer("herd", "", plain); err != nil {
			b.Fatal(err)
		}
		bucket, without = bucket+t1.Sub(t0), without+time.Since(t1)
	}
	b.ReportMetric(float64(bucket)/float64(without), "bucket/plain")
}
