//go:build !wasm

package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// A large file is sent from its spool over real TCP (sendfile): whole,
// a range, HEAD, through the access log, and by many requests at once,
// byte for byte; nothing is left in the temporary directory.
func TestSpool(t *testing.T) {
	// A directory of its own: other processes' files in the shared /tmp
	// made the count of leftovers below fail under a busy machine.
	t.Setenv("TMPDIR", t.TempDir())
	before, _ := os.ReadDir(os.TempDir())
	big := bigBody(3<<20 + 12345)
	a := newAsset("application/wasm", big, time.Time{})
	a.spoolLarge()
	if a.reps[0].spool == nil {
		t.Fatal("a 3 MB file was not spooled")
	}
	small := newAsset("application/wasm", big[:spoolMin-1], time.Time{})
	if small.spoolLarge(); small.reps[0].spool != nil {
		t.Error("a file under spoolMin was spooled")
	}
	var log strings.Builder
	for _, logged := range []bool{false, true} {
		// The write deadline is TestSlowReader's subject; here it only
		// must not cut 48 readers that a loaded machine schedules late.
		var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.serve(w, r, 30*time.Second) })
		if logged {
			h = logRequests(h, newAccessLog(&log))
		}
		srv := httptest.NewServer(h)
		get := func(rg string) ([]byte, int) {
			req, _ := http.NewRequest("GET", srv.URL, nil)
			if rg != "" {
				req.Header.Set("Range", rg)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			return b, res.StatusCode
		}
		var wg sync.WaitGroup
		for i := range 3 * spoolIdle {
			wg.Go(func() {
				if b, code := get(""); code != 200 || !bytes.Equal(b, big) {
					t.Errorf("logged %v, GET %d: %d, %d bytes, same %v", logged, i, code, len(b), bytes.Equal(b, big))
				}
			})
		}
		wg.Wait()
		if b, code := get("bytes=1000000-2999999"); code != 206 || !bytes.Equal(b, big[1000000:3000000]) {
			t.Errorf("logged %v, range: %d, %d bytes", logged, code, len(b))
		}
		if b, code := get("bytes=-10"); code != 206 || !bytes.Equal(b, big[len(big)-10:]) {
			t.Errorf("logged %v, suffix range: %d %q", logged, code, b)
		}
		res, err := http.Head(srv.URL)
		if err != nil || res.ContentLength != int64(len(big)) {
			t.Errorf("logged %v, HEAD: %v %d", logged, err, res.ContentLength)
		}
		srv.Close()
	}
	if !strings.Contains(log.String(), " 200 3158073 ") {
		t.Errorf("the access log does not count the spooled bytes:\n%.300s", log.String())
	}
	if after, _ := os.ReadDir(os.TempDir()); len(after) > len(before) {
		t.Errorf("%d files left in %s", len(after)-len(before), os.TempDir())
	}
}

func TestSameBytes(t *testing.T) {
	want := bigBody(200 << 10)
	other := bytes.Clone(want)
	other[150<<10] ^= 1
	for _, c := range []struct {
		name string
		got  []byte
		same bool
	}{
		{"same", want, true},
		{"one byte differs", other, false},
		{"shorter", want[:len(want)-1], false},
		{"longer", append(bytes.Clone(want), 0), false},
		{"empty", nil, false},
	} {
		if got := sameBytes(bytes.NewReader(c.got), want); got != c.same {
			t.Errorf("%s: %v, want %v", c.name, got, c.same)
		}
	}
}
