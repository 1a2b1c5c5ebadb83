//go:build !wasm

package main

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// A write deadline per 64 KB written does not bound what the client
// receives: the kernel's send buffer grows to megabytes (tcp_wmem), a write
// returns as soon as its bytes fit in it, and once it is full a write waits
// for a third of it to drain. With such deadlines alone, readers at 1 to
// 32 KB/s are cut after 20 s with 2.8-3.9 MB of 8 MB sent, each 64 KB having
// reached them well within its 20 s (on loopback: a 32 KB/s reader is cut
// after one deadline with 260 KB read, the write blocked since 3.9 MB). So a
// delivery watch asks the kernel what the client acknowledged and extends
// the deadline each time another chunk gets there.

// connKey is the context key of a request's connection (see withConn).
type connKey struct{}

// withConn is the http.Server's ConnContext: it keeps each connection in its
// requests' contexts, for the delivery watch.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// deliveryWatch keeps a response's write deadline at perChunk after the
// last time the client acknowledged another chunk bytes (or the watch's
// start): a reader that takes each chunk within perChunk gets all of it,
// however long the whole takes and however much the kernel buffers; one
// that stalls is cut perChunk after its last chunk, plus at most one poll
// (perChunk/16). Safe for concurrent use: its timer runs beside the writes.
type deliveryWatch struct {
	rc       *http.ResponseController
	acked    func() (int64, bool) // bytes the client acknowledged on the connection so far
	perChunk time.Duration
	chunk    int64

	mu    sync.Mutex
	mark  int64 // acked at the start plus the whole chunks counted since
	timer *time.Timer
	done  bool
}

// watchDelivery starts a delivery watch on r's connection, or returns nil
// when the connection cannot say what it delivered (not TCP on Linux, or no
// connection in the context): the caller then sets a deadline per write.
func watchDelivery(w http.ResponseWriter, r *http.Request, perChunk time.Duration, chunk int) *deliveryWatch {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	acked := ackedBytes(c)
	if acked == nil || perChunk <= 0 {
		return nil
	}
	mark, ok := acked()
	if !ok {
		return nil
	}
	d := &deliveryWatch{rc: http.NewResponseController(w), acked: acked, perChunk: perChunk, chunk: int64(chunk), mark: mark}
	d.rc.SetWriteDeadline(time.Now().Add(perChunk))
	d.timer = time.AfterFunc(d.poll(), d.tick)
	return d
}

// poll is how often the watch asks the kernel.
func (d *deliveryWatch) poll() time.Duration { return max(d.perChunk/16, 10*time.Millisecond) }

// tick extends the deadline when another chunk was acknowledged.
func (d *deliveryWatch) tick() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done {
		return
	}
	// Chunks are counted from the watch's start: an acknowledgement
	// covers whole segments (up to 64 KB on loopback), so one that ends
	// just short of a chunk does not push the next chunk's count later.
	if n, ok := d.acked(); ok && n-d.mark >= d.chunk {
		d.mark += (n - d.mark) / d.chunk * d.chunk
		d.rc.SetWriteDeadline(time.Now().Add(d.perChunk))
	}
	d.timer.Reset(d.poll())
}

// stop ends the watch; the deadline it last set stays. A nil watch is
// stopped.
func (d *deliveryWatch) stop() {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.done = true
	d.timer.Stop()
}
