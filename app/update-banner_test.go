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
	b.OnAppUpdate(app.Context{})
	if html := app.HTMLString(b); !strings.Contains(html, `id="update-reload"`) || !strings.Contains(html, "new version") {
		t.Errorf("banner after an update: %s", html)
	}
}
