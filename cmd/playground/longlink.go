//go:build !wasm

package main

import (
	"bytes"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/app/i18n"
)

// maxHeaderBytes bounds a request's line and headers (http.Server's
// MaxHeaderBytes): a link longer than that is refused before any handler
// runs. net/http then answers a bare "431 Request Header Fields Too Large"
// (its own text, no page, no way to change it); longHeaderListener answers
// first with a page that says why and links to the playground.
const maxHeaderBytes = 64 << 10

// longHeaderListener wraps a TCP listener: a connection whose request
// header grows past maxHeaderBytes gets tooLong (a whole HTTP response)
// and is closed, and the access log (when there is one) gets the
// request's line, as the handler's requests do. The connection stays a
// *net.TCPConn inside, so sendfile and the delivery watch still see it.
type longHeaderListener struct {
	net.Listener
	tooLong     []byte
	tooLongBody int64 // bytes of tooLong's body, for the log
	log         *accessLog
}

// limitHeaders wraps ln for a server under prefix; log may be nil.
func limitHeaders(ln net.Listener, prefix string, frameAncestors []string, log *accessLog) net.Listener {
	resp, body := tooLongResponse(prefix, frameAncestors)
	return longHeaderListener{Listener: ln, tooLong: resp, tooLongBody: int64(body), log: log}
}

func (l longHeaderListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok && err == nil {
		return &headerConn{TCPConn: tc, l: &l}, nil
	}
	return c, err
}

// maxLoggedLine is how much of a refused request's first line the log
// gets its method and path from: the path of a link refused for its
// length is cut there (the query is never logged).
const maxLoggedLine = 2 << 10

// headerConn counts the bytes of the request header being read: from the
// end of the last header ("\r\n\r\n") on. A GET has no body, so the next
// request's header follows at once; a body (only methods the server
// refuses have one) counts as header, and one over maxHeaderBytes is
// refused as well. For the log it keeps when the header began and the
// start of its first line.
type headerConn struct {
	*net.TCPConn
	l       *longHeaderListener
	n       int    // header bytes read so far
	last4   uint32 // the last four bytes read, to find "\r\n\r\n" across reads
	refused bool
	start   time.Time // when the header's first byte was read
	line    []byte    // the header's first line, up to maxLoggedLine bytes
	lineEnd bool      // line holds all of the first line that is kept
}

func (c *headerConn) Read(p []byte) (int, error) {
	if c.refused {
		return 0, io.EOF
	}
	n, err := c.TCPConn.Read(p)
	for _, b := range p[:n] {
		if c.n == 0 {
			c.start, c.line, c.lineEnd = time.Now(), c.line[:0], false
		}
		c.last4 = c.last4<<8 | uint32(b)
		c.n++
		if c.l.log != nil && !c.lineEnd {
			if b == '\n' || len(c.line) == maxLoggedLine {
				c.lineEnd = true
			} else {
				c.line = append(c.line, b)
			}
		}
		switch {
		case c.last4 == 0x0d0a0d0a:
			c.n = 0
		case c.n > maxHeaderBytes:
			c.refuse()
			return 0, io.EOF
		}
	}
	return n, err
}

// refuse sends the page, then reads what the client still sends for a
// moment before the server closes: closing with unread bytes would reset
// the connection, and the browser would show that instead of the page.
func (c *headerConn) refuse() {
	c.refused = true
	c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	n, _ := c.TCPConn.Write(c.l.tooLong)
	if c.l.log != nil {
		method, path := requestLine(c.line)
		sent := max(int64(n-len(c.l.tooLong))+c.l.tooLongBody, 0)
		c.l.log.record(c.start, method, path, http.StatusRequestHeaderFieldsTooLarge, sent, time.Since(c.start))
	}
	c.CloseWrite()
	c.SetReadDeadline(time.Now().Add(time.Second))
	io.Copy(io.Discard, io.LimitReader(c.TCPConn, 4<<20))
}

// requestLine is the method and the path (unescaped, as a handler's
// r.URL.Path) of a request's first line, or of as much of it as was kept.
func requestLine(line []byte) (method, path string) {
	m, target, _ := strings.Cut(strings.TrimSuffix(string(line), "\r"), " ")
	target, _, _ = strings.Cut(target, " ")
	target, _, _ = strings.Cut(target, "?")
	if u, err := url.PathUnescape(target); err == nil {
		target = u
	}
	return m, target
}

// tooLongResponse is the 431 answer, in both languages (the request's own
// language is in the part not read), with the headers every answer has,
// and the bytes of its body.
func tooLongResponse(prefix string, frameAncestors []string) (resp []byte, bodyBytes int) {
	var body bytes.Buffer
	body.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
	body.WriteString(html.EscapeString(i18n.En.T("toolong.title") + " / " + i18n.Ru.T("toolong.title")))
	body.WriteString("</title></head><body>")
	limit := strconv.Itoa(maxHeaderBytes >> 10)
	for _, l := range i18n.Langs {
		body.WriteString("<p lang=\"" + l.Code() + "\">" + html.EscapeString(l.F("toolong.text", limit)) +
			" <a href=\"" + html.EscapeString(prefix+"/") + "\">" + html.EscapeString(l.T("toolong.open")) + "</a></p>")
	}
	body.WriteString("</body></html>\n")

	h := securityHeaders(frameAncestors)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(body.Len()))
	h.Set("Cache-Control", "no-store")
	h.Set("Connection", "close")
	var out bytes.Buffer
	out.WriteString("HTTP/1.1 431 " + http.StatusText(http.StatusRequestHeaderFieldsTooLarge) + "\r\n")
	h.Write(&out)
	out.WriteString("\r\n")
	out.Write(body.Bytes())
	return out.Bytes(), body.Len()
}
