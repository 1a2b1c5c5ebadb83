//go:build !wasm

package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestUpdateBanner(t *testing.T) {
	b := &updateBanner{}
	if html := app.HTMLString(b); !strings.Contains(html, `hidden`) || strings.Contains(html, "update-reload") {
		t.Errorf("banner shows before an update: %s", html)
	}
	b.ready = true
	if html := app.HTMLString(b); !strings.Contains(html, `id="update-reload"`) || !strings.Contains(html, "new version") {
		t.Errorf("banner after an update: %s", html)
	}
}

// The banner's check and the worker name a version's cache alike.
func TestCacheNameMatchesWorker(t *testing.T) {
	if !strings.Contains(appWorker, `const cacheName = "app-" + "{{.Version}}";`) || cacheName("v1") != "app-v1" {
		t.Errorf("app-worker.js and cacheName disagree on a version's cache name")
	}
}
