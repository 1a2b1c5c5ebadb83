//go:build !wasm

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
)

// TestStaticPages: the page is rendered once, at start; every query gets
// the same bytes, and a hostile link costs what any other request does.
func TestStaticPages(t *testing.T) {
	h, info := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	if info.renders != 2*len(pages) {
		t.Errorf("%d renders at start, want one per page and language (%d)", info.renders, 2*len(pages))
	}
	plain := do(t, h, "GET", "/")
	for _, q := range []string{"/?lang=en&attempts=4", hostileQuery, "/?runs=20&clients=1000000&b.preset=gax"} {
		r := do(t, h, "GET", q)
		if r.code != 200 || r.body != plain.body || r.hdr.Get("Etag") != plain.hdr.Get("Etag") {
			t.Errorf("GET %s: %d, %d bytes ETag %s; want the page's %d bytes, ETag %s", q, r.code, len(r.body), r.hdr.Get("Etag"), len(plain.body), plain.hdr.Get("Etag"))
		}
	}
	req := httptest.NewRequest("GET", hostileQuery, nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	allocs := testing.AllocsPerRun(50, func() { h.ServeHTTP(&discardWriter{h: http.Header{}}, req) })
	if allocs > 20 {
		t.Errorf("a hostile page request allocates %.0f times: is the page rendered per request?", allocs)
	}
	if info.renders != 2*len(pages) {
		t.Errorf("%d renders after the requests, want %d", info.renders, 2*len(pages))
	}
}

// TestPageBytesAreStable: go-app writes attributes in map order; the
// server's page, its ETag and the version must not change between starts.
func TestPageBytesAreStable(t *testing.T) {
	first := do(t, mustServer(t, serverConfig{}), "GET", "/")
	for range 4 {
		h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
		if r := do(t, h, "GET", "/"); r.body != first.body || r.hdr.Get("Etag") != first.hdr.Get("Etag") {
			t.Fatalf("two starts rendered different pages (ETags %s, %s)", first.hdr.Get("Etag"), r.hdr.Get("Etag"))
		}
	}
}

// TestPageBeforeApp: the HTML sent is right before the app starts (or
// with scripts off): no boolean attribute written ="false" (a browser reads
// it as true: every option selected, the last one shown), no og:url or
// og:image without a host, and the language the link asks for.
func TestPageBeforeApp(t *testing.T) {
	h := mustServer(t, serverConfig{})
	en := do(t, h, "GET", "/")
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`<[^>]* (selected|checked|hidden|disabled|readonly)="[^"]*"`),
		regexp.MustCompile(`content="https://"`),
	} {
		if m := bad.FindString(en.body); m != "" {
			t.Errorf("the page holds %s", m)
		}
	}
	if n := strings.Count(en.body, "<option"); n < 50 || strings.Count(en.body, " selected") > n/2 {
		t.Errorf("%d options, %d selected: want one selected per select", n, strings.Count(en.body, " selected"))
	}
	if !strings.Contains(en.body, `<option lang="en" selected value="en">`) || strings.Contains(en.body, `selected value="ru"`) {
		t.Error("the English page's language select does not show English")
	}
	if !strings.Contains(en.body, `<input id="throttle" type="checkbox">`) {
		t.Error("an unchecked box is not sent unchecked")
	}
	ru := do(t, h, "GET", "/?lang=ru")
	if ru.code != 200 || ru.hdr.Get("Etag") == en.hdr.Get("Etag") {
		t.Fatalf("?lang=ru: %d, ETag %s (English: %s)", ru.code, ru.hdr.Get("Etag"), en.hdr.Get("Etag"))
	}
	for q, want := range map[string]string{
		"/": "en", "/?lang=ru": "ru", "/?attempts=4&lang=RU": "ru", "/?lang=%72u": "ru", "/?lang=en&lang=ru": "en",
		"/?lang=ru&lang=en": "ru", "/?lang=xx": "en", "/?xlang=ru": "en", "/?lang": "en", hostileQuery: "en",
	} {
		r := do(t, h, "GET", q)
		if got := regexp.MustCompile(`<html lang="([a-z]+)">`).FindStringSubmatch(r.body); got == nil || got[1] != want {
			t.Errorf("GET %s: %v, want <html lang=%q>", q, got, want)
		}
		if want == "ru" && (r.body != ru.body || !strings.Contains(r.body, `selected value="ru">Русский`) ||
			!strings.Contains(r.body, "<title>Backoff Playground: политики повторов вживую</title>")) {
			t.Errorf("GET %s is not the Russian page", q)
		}
		// go-app quotes attribute values as Go strings: the Russian
		// durations' no-break space came out as the six characters \u00a0.
		if i := strings.Index(r.body, `\u00a0`); i >= 0 {
			t.Errorf("GET %s has a Go escape in its HTML: %s", q, r.body[max(0, i-80):i+10])
		}
	}
}

func TestCanonicalHTML(t *testing.T) {
	for in, want := range map[string]string{
		`<input type="range" value="5" max="1000" hidden>`:                                               `<input hidden max="1000" type="range" value="5">`,
		`<a title="x > \"y\"" href="/">a<b></b></a>`:                                                     `<a href="/" title="x &gt; &#34;y&#34;">a<b></b></a>`,
		`<input value="1\u00a0с" aria-label="a\\b">`:                                                     "<input aria-label=\"a\\b\" value=\"1\u00a0с\">",
		`<p>1 < 2 and x="y" stays</p>`:                                                                   `<p>1 < 2 and x="y" stays</p>`,
		`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect y="1" x="0"></rect></svg>`:      `<svg viewBox="0 0 1 1" xmlns="http://www.w3.org/2000/svg"><rect x="0" y="1"></rect></svg>`,
		`<option value="a" selected="false">a</option><option selected value="b">`:                       `<option value="a">a</option><option selected value="b">`,
		`<input type="checkbox" checked="false" aria-pressed="false" spellcheck="false" hidden="false">`: `<input aria-pressed="false" spellcheck="false" type="checkbox">`,
		`<p data-selected="false" hidden>`:                                                               `<p data-selected="false" hidden>`,
	} {
		if got := string(canonicalHTML([]byte(in))); got != want {
			t.Errorf("canonicalHTML(%s)\n = %s\nwant %s", in, got, want)
		}
	}
}

// TestConditionalRequests: each representation has its own strong ETag;
// If-None-Match (weak comparison, lists, *) decides over If-Modified-Since;
// 304s carry ETag and Vary and no body; unknown paths never get a 304.
func TestConditionalRequests(t *testing.T) {
	builtAt := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	h, _ := newServer(serverConfig{builtAt: builtAt}, fakeWeb(), fakeStatic())
	const css = "/web/static/playground.css"
	tag := func(path, ae string) string { return do(t, h, "GET", path, "Accept-Encoding", ae).hdr.Get("Etag") }
	plain, br, gz := tag(css, ""), tag(css, "br"), tag(css, "gzip")
	png := tag("/web/static/icon-192.png", "br")
	if !regexp.MustCompile(`^"[0-9a-f]{16}"$`).MatchString(plain) || plain == br || br == gz || plain == gz || plain == png || plain == tag("/", "") {
		t.Fatalf("ETags identity %s br %s gzip %s, png %s: want one strong tag per file and encoding", plain, br, gz, png)
	}
	if lm := do(t, h, "GET", css).hdr.Get("Last-Modified"); lm != builtAt.Format(http.TimeFormat) {
		t.Errorf("Last-Modified of an embedded file %q, want the build time %q", lm, builtAt.Format(http.TimeFormat))
	}
	if lm := do(t, h, "GET", "/web/static/icon.svg").hdr.Get("Last-Modified"); lm != fakeIconTime.Format(http.TimeFormat) {
		t.Errorf("Last-Modified of a file with its own time %q, want %q", lm, fakeIconTime.Format(http.TimeFormat))
	}
	date := func(t time.Time) string { return t.Format(http.TimeFormat) }
	for _, tc := range []struct {
		name, path string
		hdr        []string
		code       int
		etag       string
	}{
		{"its tag", css, []string{"If-None-Match", plain}, 304, plain},
		{"its weak tag", css, []string{"If-None-Match", "W/" + plain}, 304, plain},
		{"a list", css, []string{"Accept-Encoding", "br", "If-None-Match", `"nope", W/"x,y", ` + br}, 304, br},
		{"a list without spaces", css, []string{"Accept-Encoding", "gzip", "If-None-Match", `"a",` + gz}, 304, gz},
		{"*", css, []string{"If-None-Match", "*"}, 304, plain},
		{"another encoding's tag", css, []string{"Accept-Encoding", "br", "If-None-Match", plain}, 200, br},
		{"another tag", css, []string{"If-None-Match", `"0123456789abcdef"`}, 200, plain},
		{"a malformed tag", css, []string{"If-None-Match", strings.Trim(plain, `"`)}, 200, plain},
		{"the same date", css, []string{"If-Modified-Since", date(builtAt)}, 304, plain},
		{"a later date", css, []string{"If-Modified-Since", date(builtAt.Add(time.Hour))}, 304, plain},
		{"an earlier date", css, []string{"If-Modified-Since", date(builtAt.Add(-time.Second))}, 200, plain},
		{"a bad date", css, []string{"If-Modified-Since", "yesterday"}, 200, plain},
		{"If-None-Match over the date", css, []string{"If-None-Match", `"other"`, "If-Modified-Since", date(builtAt.Add(time.Hour))}, 200, plain},
		{"one representation", "/web/static/icon-192.png", []string{"If-None-Match", png}, 304, png},
		{"unknown path", "/nope", []string{"If-None-Match", "*"}, 404, ""},
		{"unknown path, a known tag", "/nope.css", []string{"If-None-Match", plain}, 404, ""},
	} {
		r := do(t, h, "GET", tc.path, tc.hdr...)
		if r.code != tc.code || r.hdr.Get("Etag") != tc.etag {
			t.Errorf("%s: %d ETag %s, want %d ETag %s", tc.name, r.code, r.hdr.Get("Etag"), tc.code, tc.etag)
		}
		if r.code != 304 {
			continue
		}
		if r.body != "" || r.hdr.Get("Content-Length") != "" || r.hdr.Get("Content-Encoding") != "" || r.hdr.Get("Content-Type") != "" {
			t.Errorf("%s: 304 with body %q, Content-Length %q, Content-Encoding %q, Content-Type %q", tc.name, r.body, r.hdr.Get("Content-Length"), r.hdr.Get("Content-Encoding"), r.hdr.Get("Content-Type"))
		}
		wantVary := "Accept-Encoding"
		if tc.path == "/web/static/icon-192.png" {
			wantVary = "" // one representation: nothing varies
		}
		if r.hdr.Get("Vary") != wantVary || r.hdr.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: 304 with Vary %q, Cache-Control %q; want Vary %q as on the 200", tc.name, r.hdr.Get("Vary"), r.hdr.Get("Cache-Control"), wantVary)
		}
	}
	if r := do(t, h, "HEAD", css, "If-None-Match", plain); r.code != 304 {
		t.Errorf("HEAD with its tag: %d", r.code)
	}
}

// TestCompression: every text file comes in br and gzip, made once, and
// decodes to the identity bytes; the client's Accept-Encoding picks one.
func TestCompression(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	for _, path := range []string{"/", "/app.js", "/app-worker.js", "/wasm_exec.js", "/app.css", "/manifest.webmanifest", "/web/static/playground.css", "/web/static/icon.svg"} {
		plain := do(t, h, "GET", path, "Accept-Encoding", "identity")
		for _, tc := range []struct{ accept, coding string }{
			{"gzip, deflate, br, zstd", "br"}, {"br", "br"}, {"gzip", "gzip"}, {"br;q=0, gzip", "gzip"},
			{"", ""}, {"identity", ""}, {"deflate, zstd", ""}, {"*;q=0", ""},
		} {
			r := do(t, h, "GET", path, "Accept-Encoding", tc.accept)
			if r.code != 200 || r.hdr.Get("Content-Encoding") != tc.coding || r.hdr.Get("Vary") != "Accept-Encoding" || r.hdr.Get("Content-Length") != strconv.Itoa(len(r.body)) {
				t.Errorf("%s Accept-Encoding %q: %d Content-Encoding %q Vary %q Content-Length %s (%d bytes); want %q", path, tc.accept,
					r.code, r.hdr.Get("Content-Encoding"), r.hdr.Get("Vary"), r.hdr.Get("Content-Length"), len(r.body), tc.coding)
				continue
			}
			if got := decode(t, tc.coding, r.body); got != plain.body {
				t.Errorf("%s in %q decodes to %d bytes, not the file's %d", path, tc.coding, len(got), len(plain.body))
			}
			if tc.coding != "" && len(r.body) >= len(plain.body) {
				t.Errorf("%s in %s: %d bytes, no smaller than %d", path, tc.coding, len(r.body), len(plain.body))
			}
		}
	}
	// Images are served as they are: no Vary, no encoding.
	if r := do(t, h, "GET", "/web/static/icon-192.png", "Accept-Encoding", "br, gzip"); r.hdr.Get("Content-Encoding") != "" || r.hdr.Get("Vary") != "" {
		t.Errorf("png: Content-Encoding %q, Vary %q", r.hdr.Get("Content-Encoding"), r.hdr.Get("Vary"))
	}
}

func decode(t *testing.T, coding, body string) string {
	t.Helper()
	var r io.Reader = strings.NewReader(body)
	switch coding {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return string(b)
}

// TestRanges: one range is served; several get the whole file (multipart
// answers are how range requests cost a server); If-Range guards it.
func TestRanges(t *testing.T) {
	h, _ := newServer(serverConfig{}, fakeWeb(), fakeStatic())
	const path = "/web/app.wasm"
	body, n := string(fakeWasm), len(fakeWasm)
	etag := do(t, h, "GET", path).hdr.Get("Etag")
	many := "bytes=" + strings.Repeat("0-0,", 99) + "0-0"
	for _, tc := range []struct {
		rng, ifRange string
		code         int
		body, cr     string
	}{
		{"bytes=0-9", "", 206, body[:10], "bytes 0-9/" + strconv.Itoa(n)},
		{"bytes=10-", "", 206, body[10:], fmt.Sprintf("bytes 10-%d/%d", n-1, n)},
		{"bytes=-5", "", 206, body[n-5:], fmt.Sprintf("bytes %d-%d/%d", n-5, n-1, n)},
		{"bytes=5-99999999999999999999", "", 206, body[5:], fmt.Sprintf("bytes 5-%d/%d", n-1, n)},
		{"bytes=-99999", "", 206, body, fmt.Sprintf("bytes 0-%d/%d", n-1, n)},
		{fmt.Sprintf("bytes=%d-", n), "", 416, "", fmt.Sprintf("bytes */%d", n)},
		{"bytes=-0", "", 416, "", fmt.Sprintf("bytes */%d", n)},
		{"bytes=0-1,3-4", "", 200, body, ""},
		{many, "", 200, body, ""},
		{"bytes=0-0, 0-", "", 200, body, ""},
		{"bytes=9-1", "", 200, body, ""},
		{"bytes=x-y", "", 200, body, ""},
		{"bytes=+1-2", "", 200, body, ""},
		{"items=0-1", "", 200, body, ""},
		{"bytes=0-9", etag, 206, body[:10], "bytes 0-9/" + strconv.Itoa(n)},
		{"bytes=0-9", `"0123456789abcdef"`, 200, body, ""},
		{"bytes=0-9", "W/" + etag, 200, body, ""},
	} {
		r := do(t, h, "GET", path, "Accept-Encoding", "identity", "Range", tc.rng, "If-Range", tc.ifRange)
		if r.code != tc.code || r.body != tc.body || r.hdr.Get("Content-Range") != tc.cr || r.hdr.Get("Content-Length") != strconv.Itoa(len(tc.body)) {
			t.Errorf("Range %.40q If-Range %q: %d, %d bytes, Content-Range %q, Content-Length %q; want %d, %d bytes, %q",
				tc.rng, tc.ifRange, r.code, len(r.body), r.hdr.Get("Content-Range"), r.hdr.Get("Content-Length"), tc.code, len(tc.body), tc.cr)
		}
	}
	// A range of the encoded representation is a range of its bytes.
	br := string(fakeWeb()["app.wasm.br"].Data)
	if r := do(t, h, "GET", path, "Accept-Encoding", "br", "Range", "bytes=0-3"); r.code != 206 || r.body != br[:4] || r.hdr.Get("Content-Encoding") != "br" {
		t.Errorf("a range of the br copy: %d %q %q", r.code, r.body, r.hdr.Get("Content-Encoding"))
	}
}

// TestAccessLog: --log writes one line per request: time, method, quoted
// path, status, body bytes, duration.
func TestAccessLog(t *testing.T) {
	var log syncBuffer
	h, _ := newServer(serverConfig{accessLog: newAccessLog(&log)}, fakeWeb(), fakeStatic())
	gz := do(t, h, "GET", "/web/static/playground.css", "Accept-Encoding", "gzip")
	do(t, h, "GET", "/nope?q=1")
	do(t, h, "HEAD", "/")
	do(t, h, "POST", "/")
	do(t, h, "GET", "/a%0Ab")
	do(t, h, "GET", "/", "If-None-Match", "*")
	line := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ([A-Z]+) ("(?:[^"\\]|\\.)*") (\d{3}) (\d+) (\d+\.\d{3})ms$`)
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("log line %q does not match %s", l, line)
			continue
		}
		got = append(got, strings.Join(m[1:5], " "))
	}
	want := []string{
		`GET "/web/static/playground.css" 200 ` + strconv.Itoa(len(gz.body)),
		`GET "/nope" 404 19`,
		`HEAD "/" 200 0`,
		`POST "/" 405 19`,
		`GET "/a\nb" 404 19`,
		`GET "/" 304 0`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// bigBody is an incompressible stand-in for app.wasm, the same in the test
// and in its helper process.
func bigBody(n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// listenSmall listens on loopback with small socket buffers on accepted
// connections, so a slow reader holds the server's writes back at once.
type smallBufListener struct{ net.Listener }

func (l smallBufListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(16 << 10)
	}
	return c, err
}

// slowClient reads with a small receive buffer.
func slowClient() *http.Client {
	d := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10) })
	}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableCompression: true}}
}

// readAt reads body at rate bytes per second for d, each tick as much as
// the rate allows, with no socket option set: the kernel's buffers grow as
// they would for a browser. It returns the bytes read and the first error.
func readAt(body io.Reader, rate int, d time.Duration) (int, error) {
	buf := make([]byte, 256<<10)
	got, t0 := 0, time.Now()
	for time.Since(t0) < d {
		time.Sleep(100 * time.Millisecond)
		want := min(int(float64(rate)*time.Since(t0).Seconds())-got, len(buf))
		n, err := io.ReadFull(body, buf[:max(want, 0)])
		got += n
		if err != nil {
			return got, err
		}
	}
	return got, nil
}

// closeWatch records when the server closed each connection.
type closeWatch struct {
	mu     sync.Mutex
	closed map[string]time.Time // by the client's address
}

func (c *closeWatch) state(conn net.Conn, s http.ConnState) {
	if s == http.StateClosed {
		c.mu.Lock()
		c.closed[conn.RemoteAddr().String()] = time.Now()
		c.mu.Unlock()
	}
}

func (c *closeWatch) at(client string) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.closed[client]
	return t, ok
}

// slowDownload starts a server of an 8 MB app.wasm with perWrite, on
// sockets as they are in production, and a GET of it; it returns the body
// and the client's address.
func slowDownload(t *testing.T, perWrite time.Duration, closes *closeWatch) (io.ReadCloser, string) {
	t.Helper()
	web := fstest.MapFS{"app.wasm": {Data: bigBody(8 << 20)}}
	h, _ := newServer(serverConfig{perWrite: perWrite}, web, fakeStatic())
	srv := newHTTPServer(h, perWrite)
	srv.ConnState = closes.state
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(limitHeaders(ln, "", nil, nil)) // as run serves
	t.Cleanup(func() { srv.Close() })
	var client string
	tr := &http.Transport{DisableCompression: true, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			client = c.LocalAddr().String()
		}
		return c, err
	}}
	t.Cleanup(tr.CloseIdleConnections)
	res, err := (&http.Client{Transport: tr}).Get("http://" + ln.Addr().String() + "/web/app.wasm")
	if err != nil {
		t.Fatal(err)
	}
	return res.Body, client
}

// TestSlowReader: a reader that takes each 64 KB within the per-write
// deadline keeps its download open however slow it is, on sockets as they
// are in production. A deadline per 64 KB written cut them all: the kernel
// takes megabytes at once (3.9 MB of 8 here), then a write waits for a
// third of that to drain, longer than the deadline, and the server closed
// the connection after one deadline with the reader 600 KB in (the rest,
// already in the kernel, still arrived, then the download ended short). A
// reader too slow for the deadline and one that stops reading are cut.
// The 1 KB/s reader needs a 128 s deadline (64 KB take 64 s): it runs with
// PLAYGROUND_LONG_TESTS=1.
func TestSlowReader(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 50 s")
	}
	closes := &closeWatch{closed: map[string]time.Time{}}
	rates := []int{4 << 10, 8 << 10, 32 << 10}
	if os.Getenv("PLAYGROUND_LONG_TESTS") == "1" {
		rates = append(rates, 1<<10)
	}
	for _, rate := range rates {
		t.Run(fmt.Sprintf("%dKBps", rate>>10), func(t *testing.T) {
			t.Parallel()
			// Each 64 KB takes 64 KB/rate to read; on loopback the client's
			// window opens by a segment of 40-64 KB at a time, so a chunk
			// is seen to arrive up to 1.65 times that apart: the deadline
			// is twice that. The reader runs half a deadline past the time
			// the old server cut it (one deadline after the start).
			chunkTime := time.Duration(float64(writeChunk) / float64(rate) * float64(time.Second))
			perWrite := 2 * chunkTime
			run := perWrite*3/2 + 2*time.Second
			body, client := slowDownload(t, perWrite, closes)
			defer body.Close()
			t0 := time.Now()
			got, err := readAt(body, rate, run)
			if at, cut := closes.at(client); err != nil || cut {
				t.Errorf("a reader at %d KB/s (each 64 KB in %s, deadline %s) was cut after %s with %d bytes read (err %v)",
					rate>>10, chunkTime, perWrite, at.Sub(t0).Round(time.Millisecond), got, err)
			}
			if want := float64(rate) * run.Seconds() * 0.9; float64(got) < want {
				t.Errorf("the reader at %d KB/s got %d bytes in %s, want about %.0f", rate>>10, got, run, want)
			}
		})
	}
	t.Run("too slow", func(t *testing.T) {
		t.Parallel()
		// 8 KB/s takes 8 s per 64 KB: a 2 s deadline cuts it.
		body, client := slowDownload(t, 2*time.Second, closes)
		defer body.Close()
		t0 := time.Now()
		readAt(body, 8<<10, 12*time.Second)
		if at, cut := closes.at(client); !cut || at.Sub(t0) > 10*time.Second {
			t.Errorf("a reader at 8 KB/s with a 2 s deadline per 64 KB: cut %v after %s, want cut within 10 s", cut, at.Sub(t0))
		}
	})
	t.Run("stalled", func(t *testing.T) {
		t.Parallel()
		body, client := slowDownload(t, time.Second, closes)
		defer body.Close()
		t0 := time.Now()
		time.Sleep(4 * time.Second)
		if at, cut := closes.at(client); !cut || at.Sub(t0) > 3*time.Second {
			t.Errorf("a stalled reader with a 1 s deadline: cut %v after %s, want within 3 s", cut, at.Sub(t0))
		}
	})
}

// TestShutdownBound: responses still running when the drain time ends are
// cut, and the stop is still clean (nil: exit 0), saying so on stderr.
func TestShutdownBound(t *testing.T) {
	web := fstest.MapFS{"app.wasm": {Data: bigBody(4 << 20)}}
	h, _ := newServer(serverConfig{perWrite: time.Minute}, web, fakeStatic())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, newHTTPServer(h, time.Minute), smallBufListener{ln}, 300*time.Millisecond, &stderr)
	}()
	res, err := slowClient().Get("http://" + ln.Addr().String() + "/web/app.wasm")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	t0 := time.Now()
	cancel() // the reader never reads: the response cannot finish
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after the drain time: %v, want nil", err)
		}
		if took := time.Since(t0); took > 2*time.Second {
			t.Errorf("serve returned %s after the stop, want about the drain time", took)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not return")
	}
	if !strings.Contains(stderr.String(), "were cut") {
		t.Errorf("stderr %q does not say responses were cut", stderr.String())
	}
}

// TestSIGTERM runs the command in a child process (this test binary, see
// TestHelperProcess), starts a slow download, sends SIGTERM: the download
// completes, new connections are refused, and the exit code is 0.
func TestSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "PLAYGROUND_HELPER_PROCESS=1")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no start line: %v (stderr %q)", err, stderr.String())
	}
	_, url, _ := strings.Cut(strings.TrimSpace(line), " serving ")

	res, err := slowClient().Get(url + "web/app.wasm")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	first := make([]byte, 64<<10)
	if _, err := io.ReadFull(res.Body, first); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The server holds at most 4 MB in the kernel (tcp_wmem): the rest of
	// the 8 MB is in flight in the process while the client waits.
	time.Sleep(300 * time.Millisecond)
	if r, err := http.Get(url + "healthz"); err == nil {
		r.Body.Close()
		t.Errorf("a new request after SIGTERM got %d: the listener should be closed", r.StatusCode)
	}
	rest, err := io.ReadAll(res.Body)
	if got := append(first, rest...); err != nil || !bytes.Equal(got, bigBody(helperBody)) {
		t.Errorf("download during SIGTERM: %d of %d bytes, %v", len(got), helperBody, err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v, want 0 (stderr %q)", err, stderr.String())
	}
}

// helperBody is the size of TestHelperProcess's app.wasm.
const helperBody = 8 << 20

// TestHelperProcess is the command run by TestSIGTERM, with an 8 MB
// app.wasm; it does nothing in a normal test run.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("PLAYGROUND_HELPER_PROCESS") != "1" {
		t.Skip("the server process of TestSIGTERM")
	}
	web := fstest.MapFS{"app.wasm": {Data: bigBody(helperBody)}}
	os.Exit(command([]string{"--addr", "127.0.0.1:0"}, os.Stdout, os.Stderr, web, fakeStatic()))
}

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }

// TestLongLinkAnswer: a link longer than the server reads gets a page that
// says so in both languages and links to the playground, with the headers
// every answer has, not net/http's bare 431; a link just under the limit
// gets the page, and keep-alive and sendfile still work through the
// listener. The access log has a line for every request, the 431s too
// (the listener answers them, before any handler).
func TestLongLinkAnswer(t *testing.T) {
	var logged syncBuffer
	log := newAccessLog(&logged)
	h, _ := newServer(serverConfig{prefix: "/pg", accessLog: log}, fakeWeb(), fakeStatic())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(h, 5*time.Second)
	go srv.Serve(limitHeaders(ln, "/pg", nil, log))
	t.Cleanup(func() { srv.Close() })
	get := func(target string, n int) (*http.Response, string) {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(c)
		var res *http.Response
		var body []byte
		for range n { // n requests on one connection
			fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nAccept-Language: ru\r\n\r\n", target)
			if res, err = http.ReadResponse(br, nil); err != nil {
				t.Fatalf("GET of %d bytes: %v", len(target), err)
			}
			body, _ = io.ReadAll(res.Body)
			res.Body.Close()
		}
		return res, string(body)
	}
	res, body := get("/pg/?c.body="+strings.Repeat("a", maxHeaderBytes), 1)
	if res.StatusCode != 431 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
		res.Header.Get("X-Frame-Options") != "DENY" || !strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("a 64 KB link: %d %v", res.StatusCode, res.Header)
	}
	for _, want := range []string{"This link is longer than the 64 KB this server reads", "Эта ссылка длиннее 64 КБ", `<a href="/pg/">Open the playground without it</a>`, "Открыть песочницу без неё"} {
		if !strings.Contains(body, want) {
			t.Errorf("the 431 page does not say %q:\n%s", want, body)
		}
	}
	if res, body := get("/pg/?c.body="+strings.Repeat("a", maxHeaderBytes-200), 2); res.StatusCode != 200 || !strings.Contains(body, "<html") {
		t.Errorf("a link just under 64 KB, twice on one connection: %d, %d bytes", res.StatusCode, len(body))
	}
	if res, body := get("/pg/web/app.wasm", 3); res.StatusCode != 200 || body != string(fakeWasm) {
		t.Errorf("app.wasm through the listener: %d, %d bytes", res.StatusCode, len(body))
	}
	// After a request of the connection, a path longer than the log keeps
	// of a refused request's line, with an escape in it.
	long := "/pg/a%20b/" + strings.Repeat("x", maxLoggedLine)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "HEAD /pg/ HTTP/1.1\r\nHost: x\r\n\r\nGET %s?q=%s HTTP/1.1\r\nHost: x\r\n\r\n", long, strings.Repeat("q", maxHeaderBytes))
	io.Copy(io.Discard, c)

	_, page := tooLongResponse("/pg", nil)
	tooLong := fmt.Sprintf(" 431 %d", page)
	want := []string{
		`GET "/pg/"` + tooLong,
		`GET "/pg/" 200`, `GET "/pg/" 200`,
		`GET "/pg/web/app.wasm" 200`, `GET "/pg/web/app.wasm" 200`, `GET "/pg/web/app.wasm" 200`,
		`HEAD "/pg/" 200`,
		`GET "/pg/a b/` + strings.Repeat("x", maxLoggedLine-len("GET /pg/a%20b/")) + `"` + tooLong,
	}
	line := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ([A-Z]+ "[^"]*" \d{3}) (\d+) \d+\.\d{3}ms$`)
	var got []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		got = got[:0]
		for _, l := range strings.Split(strings.TrimSpace(logged.String()), "\n") {
			m := line.FindStringSubmatch(l)
			switch {
			case m == nil:
				t.Fatalf("log line %.200q is not a line of the log", l)
			case strings.HasSuffix(m[1], " 431"):
				got = append(got, m[1]+" "+m[2])
			default:
				got = append(got, m[1])
			}
		}
		if len(got) >= len(want) || time.Now().After(deadline) {
			break
		}
	}
	// Lines come as responses end: in any order across connections.
	slices.Sort(got)
	slices.Sort(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		short := strings.NewReplacer(strings.Repeat("x", 100), "x…")
		t.Errorf("the access log:\n%s\nwant:\n%s", short.Replace(strings.Join(got, "\n")), short.Replace(strings.Join(want, "\n")))
	}
}
