//go:build !wasm

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// asset is one URL's file, in each encoding it is served in. Header values
// are made once, so a request allocates almost nothing for them.
type asset struct {
	contentType  []string
	modTime      time.Time // whole seconds, as HTTP dates carry them
	lastModified []string
	reps         []rep // identity first, then the encodings the client may prefer, best first
}

// rep is one representation of an asset: its bytes in one content coding.
type rep struct {
	coding string // "" (identity), "br" or "gzip"
	body   []byte
	etag   string // strong, from the bytes themselves: `"` + 16 hex digits + `"`
	// spool, when set, holds body in a file to send from (the server's
	// large files; nil in tests and for the static site).
	spool *spool

	etagHdr, codingHdr, lengthHdr []string
}

func newRep(coding string, body []byte) rep {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	r := rep{coding: coding, body: body, etag: etag, etagHdr: []string{etag}, lengthHdr: []string{strconv.Itoa(len(body))}}
	if coding != "" {
		r.codingHdr = []string{coding}
	}
	return r
}

// newAsset makes an asset of body. Text types get br and gzip copies made
// here unless encoded copies are given; a copy no smaller than body is
// dropped.
func newAsset(contentType string, body []byte, mod time.Time, encoded ...rep) *asset {
	a := &asset{contentType: []string{contentType}, reps: []rep{newRep("", body)}}
	if !mod.IsZero() {
		a.modTime = mod.UTC().Truncate(time.Second)
		a.lastModified = []string{a.modTime.Format(http.TimeFormat)}
	}
	if len(encoded) == 0 && compressible(contentType) {
		br, gz := compress(body)
		encoded = []rep{newRep("br", br), newRep("gzip", gz)}
	}
	for _, e := range encoded {
		if len(e.body) < len(body) {
			a.reps = append(a.reps, e)
		}
	}
	return a
}

var (
	noCache            = []string{"no-cache"} // revalidate each time: URLs carry no version
	varyAcceptEncoding = []string{"Accept-Encoding"}
	acceptRangesBytes  = []string{"bytes"}
)

// writeChunk is how many bytes get one write deadline (see writeBody).
const writeChunk = 64 << 10

// serve answers a GET or HEAD for the asset: the encoding the client
// accepts (br, else gzip, else identity), 304 when its validator matches, one
// byte range when asked for one. perWrite bounds each chunk's write.
func (a *asset) serve(w http.ResponseWriter, r *http.Request, perWrite time.Duration) {
	rp := &a.reps[0]
	if len(a.reps) > 1 {
		rp = a.pick(r.Header.Get("Accept-Encoding"))
	}
	h := w.Header()
	h["Etag"] = rp.etagHdr
	h["Cache-Control"] = noCache
	if len(a.reps) > 1 {
		h["Vary"] = varyAcceptEncoding // on 304s too: a cache must know the answer varies
	}
	if a.notModified(r, rp.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if a.lastModified != nil {
		h["Last-Modified"] = a.lastModified
	}
	h["Accept-Ranges"] = acceptRangesBytes
	body, status, from := rp.body, http.StatusOK, 0
	if rg := r.Header.Get("Range"); rg != "" && a.ifRange(r.Header.Get("If-Range"), rp.etag) {
		switch start, end, kind := byteRange(rg, len(body)); kind {
		case rangeOne:
			body, status, from = body[start:end+1], http.StatusPartialContent, start
			h.Set("Content-Range", "bytes "+strconv.Itoa(start)+"-"+strconv.Itoa(end)+"/"+strconv.Itoa(len(rp.body)))
		case rangeUnsatisfiable:
			h.Set("Content-Range", "bytes */"+strconv.Itoa(len(rp.body)))
			h.Set("Content-Length", "0")
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
			return
		}
	}
	h["Content-Type"] = a.contentType
	if rp.coding != "" {
		h["Content-Encoding"] = rp.codingHdr
	}
	if status == http.StatusOK {
		h["Content-Length"] = rp.lengthHdr
	} else {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	if rp.spool != nil && rp.spool.send(w, r, from, from+len(body), perWrite) {
		return
	}
	writeBody(w, r, body, perWrite)
}

// spoolLarge moves the representations of at least spoolMin bytes to
// files to send from (see spool), keeping their bytes for when a file
// cannot be opened.
func (a *asset) spoolLarge() {
	for i := range a.reps {
		if rp := &a.reps[i]; len(rp.body) >= spoolMin && rp.spool == nil {
			rp.spool = newSpool(rp.body)
		}
	}
}

// writeBody writes body with a deadline per chunk delivered: a slow reader
// gets its whole download as long as each 64 KB reaches it within perWrite
// (20 s by default: 3.2 KB/s), and one that stops reading is cut then (see
// deliveryWatch). Where the connection cannot say what it delivered, each
// 64 KB written gets its own deadline instead. The server's WriteTimeout
// (perWrite too) covers a small body.
func writeBody(w http.ResponseWriter, r *http.Request, body []byte, perWrite time.Duration) {
	if len(body) <= writeChunk || perWrite <= 0 { // the deadline set at the request's start covers it
		w.Write(body)
		return
	}
	dw := watchDelivery(w, r, perWrite, writeChunk)
	defer dw.stop()
	rc := http.NewResponseController(w)
	for len(body) > 0 {
		n := min(len(body), writeChunk)
		if dw == nil {
			rc.SetWriteDeadline(time.Now().Add(perWrite))
		}
		if _, err := w.Write(body[:n]); err != nil {
			return // the client went away or stalled
		}
		body = body[n:]
	}
	if dw != nil {
		rc.Flush() // the last bytes into the socket while the watch still runs
	}
}

// pick chooses the representation the client weighs highest; on a tie br,
// then gzip, then identity (the smallest first).
func (a *asset) pick(acceptEncoding string) *rep {
	best, bestQ := &a.reps[0], identityQ(acceptEncoding)
	for i := len(a.reps) - 1; i >= 1; i-- { // the last of equals wins: walk from the worst
		if q := codingQ(acceptEncoding, a.reps[i].coding, 0); q > 0 && q >= bestQ {
			best, bestQ = &a.reps[i], q
		}
	}
	return best
}

// notModified applies RFC 9110 13.2.2: If-None-Match decides when present
// (weak comparison, any tag of a list, or *); otherwise If-Modified-Since.
func (a *asset) notModified(r *http.Request, etag string) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		return etagListMatches(inm, etag)
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && !a.modTime.IsZero() {
		t, err := http.ParseTime(ims)
		return err == nil && !a.modTime.After(t)
	}
	return false
}

// ifRange reports whether a Range applies: no If-Range, or one that names
// the current representation (strong comparison) or its exact date.
func (a *asset) ifRange(ir, etag string) bool {
	switch {
	case ir == "":
		return true
	case strings.HasPrefix(ir, `"`):
		return ir == etag
	case strings.HasPrefix(ir, "W/"):
		return false
	}
	t, err := http.ParseTime(ir)
	return err == nil && !a.modTime.IsZero() && t.Equal(a.modTime)
}

// etagListMatches reports whether an If-None-Match value names etag, using
// the weak comparison (W/ ignored): `"a", W/"b"` or `*`.
func etagListMatches(list, etag string) bool {
	for {
		list = strings.TrimLeft(list, " \t,")
		switch {
		case list == "":
			return false
		case list[0] == '*':
			return true
		}
		list = strings.TrimPrefix(list, "W/")
		if len(list) < 2 || list[0] != '"' {
			return false // malformed: no match
		}
		end := strings.IndexByte(list[1:], '"')
		if end < 0 {
			return false
		}
		if list[:end+2] == etag {
			return true
		}
		list = list[end+2:]
	}
}

type rangeKind int

const (
	rangeNone          rangeKind = iota // no usable Range: send the whole body
	rangeOne                            // one satisfiable range
	rangeUnsatisfiable                  // one range past the end: 416
)

// byteRange reads a Range header for a body of size bytes. Only one range
// is served: a request for several gets the whole body (RFC 9110 lets a
// server ignore Range), since multipart answers are how range requests cost
// a server, each part able to name the whole file again. Invalid syntax and
// other units are ignored too.
func byteRange(header string, size int) (start, end int, kind rangeKind) {
	unit, set, ok := strings.Cut(header, "=")
	if !ok || !strings.EqualFold(strings.TrimSpace(unit), "bytes") {
		return 0, 0, rangeNone
	}
	spec := strings.TrimSpace(set)
	if strings.Contains(spec, ",") {
		return 0, 0, rangeNone
	}
	first, last, ok := strings.Cut(spec, "-")
	if !ok {
		return 0, 0, rangeNone
	}
	first, last = strings.TrimSpace(first), strings.TrimSpace(last)
	if first == "" { // the last N bytes
		n, ok := digits(last)
		if !ok {
			return 0, 0, rangeNone
		}
		if n == 0 || size == 0 {
			return 0, 0, rangeUnsatisfiable
		}
		return max(0, size-n), size - 1, rangeOne
	}
	s, ok := digits(first)
	if !ok {
		return 0, 0, rangeNone
	}
	e := size - 1
	if last != "" {
		if e, ok = digits(last); !ok || e < s {
			return 0, 0, rangeNone
		}
	}
	if s >= size {
		return 0, 0, rangeUnsatisfiable
	}
	return s, min(e, size-1), rangeOne
}

// digits parses a non-negative decimal number (no sign, no spaces); numbers
// too large for an int are past any body's end, so they saturate.
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (1<<62)/10 {
			n = 1 << 62
			continue
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// codingQ is the weight, in thousandths, an Accept-Encoding header gives
// coding (RFC 9110 12.5.3): its own entry's, else "*"'s, else def. An
// entry whose q is not a qvalue (q=abc, q=2, q=0.0001) counts as absent:
// it does not say what the client meant. It allocates nothing.
func codingQ(header, coding string, def int) int {
	own, star := -1, -1
	for header != "" {
		var part string
		part, header, _ = strings.Cut(header, ",")
		token, params, _ := strings.Cut(part, ";")
		token = strings.TrimSpace(token)
		q, valid := 1000, true
		for params != "" {
			var p string
			p, params, _ = strings.Cut(params, ";")
			if k, v, found := strings.Cut(p, "="); found && strings.EqualFold(strings.TrimSpace(k), "q") {
				q, valid = parseQValue(strings.TrimSpace(v))
			}
		}
		switch {
		case !valid:
		case own < 0 && strings.EqualFold(token, coding):
			own = q
		case star < 0 && token == "*":
			star = q
		}
	}
	switch {
	case own >= 0:
		return own
	case star >= 0:
		return star
	}
	return def
}

// identityQ is the weight of sending a file as it is: acceptable unless
// the header says identity;q=0, or *;q=0 with no entry of its own, and,
// when not named, below every coding the client names.
func identityQ(header string) int { return codingQ(header, "identity", 1) }

// parseQValue reads a qvalue, in thousandths: "0" or "1", optionally
// followed by a dot and up to three digits, at most 1 (RFC 9110 12.4.2).
func parseQValue(v string) (int, bool) {
	if v == "" || v[0] != '0' && v[0] != '1' {
		return 0, false
	}
	q := int(v[0]-'0') * 1000
	if len(v) == 1 {
		return q, true
	}
	frac := v[2:]
	if v[1] != '.' || len(frac) > 3 {
		return 0, false
	}
	scale := 100
	for i := 0; i < len(frac); i++ {
		if frac[i] < '0' || frac[i] > '9' {
			return 0, false
		}
		q += int(frac[i]-'0') * scale
		scale /= 10
	}
	if q > 1000 {
		return 0, false
	}
	return q, true
}
