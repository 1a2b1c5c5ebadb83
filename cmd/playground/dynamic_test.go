//go:build !wasm

package main

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/pg/svg/pie.svg", nil))
	if rec.Code != 404 {
		t.Errorf("pie: %d", rec.Code)
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
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/export?to=cobol", nil))
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "go-cenkalti") {
		t.Errorf("unknown target: %d %s", rec.Code, rec.Body.String())
	}
}
