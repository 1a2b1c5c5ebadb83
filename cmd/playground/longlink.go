//go:build !wasm

package main

import (
	"bytes"
	"html"
	"io"
	"net"
	"net/http"
	"strconv"
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
// and is closed. The connection stays a *net.TCPConn inside, so sendfile
// and the delivery watch still see it.
type longHeaderListener struct {
	net.Listener
	tooLong []byte
}

// limitHeaders wraps ln for a server under prefix.
func limitHeaders(ln net.Listener, prefix string, frameAncestors []string) net.Listener {
	return longHeaderListener{Listener: ln, tooLong: tooLongResponse(prefix, frameAncestors)}
}

func (l longHeaderListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok && err == nil {
		return &headerConn{TCPConn: tc, tooLong: l.tooLong}, nil
	}
	return c, err
}

// headerConn counts the bytes of the request header being read: from the
// end of the last header ("\r\n\r\n") on. A GET has no body, so the next
// request's header follows at once; a body (only methods the server
// refuses have one) counts as header, and one over maxHeaderBytes is
// refused as well.
type headerConn struct {
	*net.TCPConn
	tooLong []byte
	n       int    // header bytes read so far
	last4   uint32 // the last four bytes read, to find "\r\n\r\n" across reads
	refused bool
}

func (c *headerConn) Read(p []byte) (int, error) {
	if c.refused {
		return 0, io.EOF
	}
	n, err := c.TCPConn.Read(p)
	for _, b := range p[:n] {
		c.last4 = c.last4<<8 | uint32(b)
		c.n++
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
	c.TCPConn.Write(c.tooLong)
	c.CloseWrite()
	c.SetReadDeadline(time.Now().Add(time.Second))
	io.Copy(io.Discard, io.LimitReader(c.TCPConn, 4<<20))
}

// tooLongResponse is the 431 answer, in both languages (the request's own
// language is in the part not read), with the headers every answer has.
func tooLongResponse(prefix string, frameAncestors []string) []byte {
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
	return out.Bytes()
}
