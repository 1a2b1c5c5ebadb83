//go:build !wasm

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// spoolMin is the smallest representation served from a file: app.wasm
// and its copies (1.5 to 8 MB). Sent from memory, each byte would be copied
// from the heap into the socket by a write per 64 KB; from a file the
// kernel sends it (sendfile) as nginx does, and the heap does not hold it.
const spoolMin = 1 << 20

// spoolIdle is how many open files a spool keeps for the next requests.
const spoolIdle = 16

// spool is a representation's bytes in an unlinked temporary file. Every
// request reads it through a file of its own (each open file has its own
// offset, which sendfile moves), opened afresh through /proc/self/fd, so
// nothing is left on disk whatever the way the process ends.
type spool struct {
	keep *os.File // holds the unlinked file
	path string   // /proc/self/fd/N
	size int
	idle chan *os.File
}

// newSpool writes body to an unlinked temporary file, or returns nil when
// it cannot (no temporary directory, no /proc): the body is served from
// memory then.
func newSpool(body []byte) *spool {
	f, err := os.CreateTemp("", "playground-asset-*")
	if err != nil {
		return nil
	}
	os.Remove(f.Name())
	s := &spool{keep: f, path: fmt.Sprintf("/proc/self/fd/%d", f.Fd()), size: len(body), idle: make(chan *os.File, spoolIdle)}
	if _, err := f.Write(body); err != nil {
		f.Close()
		return nil
	}
	g, err := s.get()
	if err != nil {
		f.Close()
		return nil
	}
	// What the file gives back is what was written: a short or failed
	// read would serve a broken app.wasm under the right ETag.
	if !sameBytes(g, body) {
		g.Close()
		f.Close()
		return nil
	}
	s.put(g)
	return s
}

// sameBytes reports whether r holds exactly want, read 64 KB at a time
// (a copy of app.wasm would double the heap at start).
func sameBytes(r io.Reader, want []byte) bool {
	buf := make([]byte, 64<<10)
	for len(want) > 0 {
		n, err := io.ReadFull(r, buf[:min(len(buf), len(want))])
		if err != nil || !bytes.Equal(buf[:n], want[:n]) {
			return false
		}
		want = want[n:]
	}
	n, _ := r.Read(buf[:1])
	return n == 0
}

// get is an open file of the spool at its start.
func (s *spool) get() (*os.File, error) {
	select {
	case f := <-s.idle:
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	default:
		return os.Open(s.path)
	}
}

// put keeps f for a later request, or closes it.
func (s *spool) put(f *os.File) {
	select {
	case s.idle <- f:
	default:
		f.Close()
	}
}

// send writes bytes [start, end) of the spool to w, with a deadline per
// chunk delivered as writeBody has. It reports false when it could not open
// the file, before writing anything.
func (s *spool) send(w http.ResponseWriter, r *http.Request, start, end int, perWrite time.Duration) bool {
	f, err := s.get()
	if err != nil {
		return false
	}
	if start > 0 {
		if _, err := f.Seek(int64(start), io.SeekStart); err != nil {
			f.Close()
			return false
		}
	}
	dw := watchDelivery(w, r, perWrite, writeChunk)
	defer dw.stop()
	rc := http.NewResponseController(w)
	for left := end - start; left > 0; {
		n := min(left, writeChunk)
		if perWrite > 0 && dw == nil {
			rc.SetWriteDeadline(time.Now().Add(perWrite))
		}
		// io.Copy takes the ResponseWriter's ReadFrom: sendfile.
		m, err := io.Copy(w, &io.LimitedReader{R: f, N: int64(n)})
		if err != nil || m != int64(n) {
			f.Close() // the client went away or stalled; its offset is lost
			return true
		}
		left -= n
	}
	s.put(f)
	return true
}
