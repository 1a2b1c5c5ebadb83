package app

import (
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The panels that edit keep their own copy: the page's re-renders, which
// may pass an older link while the panel's last edit is on its way, leave
// it alone; a new LinkGen (a link, Back, a lesson, a scenario, an import)
// replaces it and forgets what was typed.
func TestPanelsTakeTheLinkOnlyWhenReplaced(t *testing.T) {
	older, newer := defaultState(), defaultState()
	newer.Policy.Base = 5 * time.Second
	newer.Herd.Config.Clients = 42
	newer.Cls.Status = "404"
	var ctx app.Context // the panels below use none of it natively

	pol := &policyPanel{Link: policyLink{older.Preset, older.Policy, older.Seed}, LinkGen: 1}
	b := &policyBPanel{Link: policyB{On: true, Policy: older.Policy}, LinkGen: 1}
	k := &herdKnobs{Link: older.Herd, LinkGen: 1, Policy: older.Policy}
	cl := &classifyPanel{Link: older.Cls, LinkGen: 1}
	pol.OnInit()
	b.OnInit()
	k.OnInit()
	cl.OnInit()
	for _, c := range []struct {
		name       string
		edit       func()        // the user's edit, with text typed in a box
		render     func(gen int) // the page's render with the newer link
		copy, link func() any    // the panel's copy, and the link it was given
		typed      func() bool
	}{
		{"policy", func() { pol.pol.Seed, pol.text["base-value"] = 99, "7" },
			func(gen int) {
				pol.Link, pol.LinkGen = policyLink{newer.Preset, newer.Policy, newer.Seed}, gen
				pol.take()
			},
			func() any { return pol.pol }, func() any { return pol.Link }, func() bool { return len(pol.text) > 0 }},
		{"second policy", func() { b.b.Preset, b.text["b-base-value"] = "grpc-retry", "7" },
			func(gen int) { b.Link, b.LinkGen = policyB{On: true, Policy: newer.Policy}, gen; b.OnUpdate(ctx) },
			func() any { return b.b }, func() any { return b.Link }, func() bool { return len(b.text) > 0 }},
		{"herd knobs", func() { k.h.Runs, k.text["clients-value"], k.custom["arrival"] = 3, "10", true },
			func(gen int) { k.Link, k.LinkGen = newer.Herd, gen; k.OnUpdate(ctx) },
			func() any { return k.h }, func() any { return k.Link }, func() bool { return len(k.text)+len(k.custom) > 0 }},
		{"classifier", func() { cl.in.Key = "typed-fast" },
			func(gen int) { cl.Link, cl.LinkGen = newer.Cls, gen; cl.OnUpdate(ctx) },
			func() any { return cl.in }, func() any { return cl.Link }, func() bool { return false }},
	} {
		c.edit()
		edited := c.copy()
		c.render(1)
		if got := c.copy(); got != edited {
			t.Errorf("%s: a re-render with an older link made the panel's copy %+v, want its edit %+v", c.name, got, edited)
		}
		c.render(2)
		if got := c.copy(); got != c.link() || c.typed() {
			t.Errorf("%s: a new link left the panel with %+v (typed text kept: %v), want %+v", c.name, got, c.typed(), c.link())
		}
	}
}
