//go:build browser && !wasm

package main

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/sim"
)

// The server select offers the registry's models, worded from the
// catalog, and the page shows a model's fields exactly where the core
// says its config's model reads them (sim.Config.UsesField), the fleet's
// size and the latency where its Traits allow.
func TestBrowserServerFields(t *testing.T) {
	// The model fields the page has a control for; the others (such as
	// capacity-window) are the CLI's and the URL's only.
	fields := []string{sim.ParamCapacity, sim.ParamOutageEnd, sim.ParamCollapseFactor, sim.ParamConcurrency, sim.ParamService,
		sim.ParamServiceDist, sim.ParamQueueLimit, sim.ParamDropExpired, sim.ParamChannel, sim.ParamFrame, sim.ParamSlot}
	tb := newTab(t, 1280, 1000)
	for _, lang := range []string{"en", "ru"} {
		for _, extra := range [][]string{nil, {"timeout", "1s"}, {"channel", "ethernet"}} {
			for _, name := range sim.ServerNames() {
				if extra != nil && (extra[0] == "channel") != (name == "channel") || extra != nil && extra[0] == "timeout" && name == "occ" {
					continue
				}
				c := sim.DefaultConfig()
				q := url.Values{"lang": {lang}, "server": {name}}
				if err := c.Set(sim.ParamServer, name); err != nil {
					t.Fatal(err)
				}
				if extra != nil {
					q.Set(extra[0], extra[1])
					if err := c.Set(extra[0], extra[1]); err != nil {
						t.Fatal(err)
					}
				}
				tb.open(t, q.Encode())
				what := lang + " " + q.Encode()
				if got := eval[string](t, tb, `document.getElementById('server').value`); got != name {
					t.Fatalf("%s: the server select says %q", what, got)
				}
				for _, f := range fields {
					shown := eval[bool](t, tb, `!!document.querySelector('.field #`+f+`, .field #`+f+`-value')`)
					if want := c.UsesField(f); shown != want {
						t.Errorf("%s: field %s shown %v, want %v", what, f, shown, want)
					}
				}
				for f, want := range map[string]bool{"servers": c.Server.Traits().Fleet, "latency": c.Server.Traits().Hops} {
					if shown := eval[bool](t, tb, `!!document.querySelector('.field #`+f+`, .field #`+f+`-value')`); shown != want {
						t.Errorf("%s: field %s shown %v, want %v", what, f, shown, want)
					}
				}
			}
		}
		values := eval[[]string](t, tb, `[...document.querySelectorAll('#server option')].map(o => o.value)`)
		labels := eval[[]string](t, tb, `[...document.querySelectorAll('#server option')].map(o => o.textContent)`)
		if !slices.Equal(values, sim.ServerNames()) {
			t.Errorf("%s: the server select offers %q, want the registry's %q", lang, values, sim.ServerNames())
		}
		for i, l := range labels {
			if l == "" || strings.HasPrefix(l, "server.") || l == values[i] {
				t.Errorf("%s: option %s is labelled %q: not from the catalog", lang, strconv.Quote(values[i]), l)
			}
		}
	}
	tb.screenshot(t, "server-fields-channel-ethernet")
}
