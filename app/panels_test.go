package app

import (
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The panels that edit keep their own copy: the page's re-renders, which
// may pass an older link while the panel's last edit is on its way, leave
// it alone; a state the page publishes (stateLink: a link, Back, a lesson,
// a scenario, an import) replaces it and forgets what was typed.
func TestPanelsTakeTheLinkOnlyWhenReplaced(t *testing.T) {
	older, newer := defaultState(), defaultState()
	newer.Policy.Base = 5 * time.Second
	newer.Herd.Config.Clients = 42
	newer.Cls.Status = "404"
	var ctx app.Context // the panels below use none of it natively

	pol := &policyPanel{Link: policyLink{older.Preset, older.Policy, older.Seed}}
	b := &policyBPanel{Link: policyB{On: true, Policy: older.Policy}}
	k := &herdKnobs{Link: older.Herd, Policy: older.Policy}
	cl := &classifyPanel{Link: older.Cls}
	pol.OnInit()
	b.OnInit()
	k.OnInit()
	cl.OnInit()
	newer.B = policyB{On: true, Policy: newer.Policy}
	for _, c := range []struct {
		name   string
		panel  app.Composer
		edit   func()       // the user's edit, with text typed in a box
		render func()       // the page's render, which passes an older link
		take   func(*state) // the panel's taking of a published state
		copy   func() any   // the panel's copy
		want   any          // newer's part the panel edits
		typed  func() bool
	}{
		{"policy", pol, func() { pol.pol.Seed, pol.text["base-value"] = 99, "7" },
			func() { pol.Link = policyLink{older.Preset, older.Policy, older.Seed} }, pol.take,
			func() any { return pol.pol }, newer.policy(), func() bool { return len(pol.text) > 0 }},
		{"second policy", b, func() { b.b.Preset, b.text["b-base-value"] = "grpc-retry", "7" },
			func() { b.Link = policyB{On: true, Policy: older.Policy} }, b.take,
			func() any { return b.b }, newer.B, func() bool { return len(b.text) > 0 }},
		{"herd knobs", k, func() { k.h.Runs, k.text["clients-value"], k.custom["arrival"] = 3, "10", true },
			func() { k.Link = older.Herd }, k.take,
			func() any { return k.h }, newer.Herd, func() bool { return len(k.text)+len(k.custom) > 0 }},
		{"classifier", cl, func() { cl.in.Key = "typed-fast" },
			func() { cl.Link = older.Cls }, cl.take,
			func() any { return cl.in }, newer.Cls, func() bool { return false }},
	} {
		c.edit()
		edited := c.copy()
		c.render()
		if u, ok := c.panel.(app.Updater); ok {
			u.OnUpdate(ctx) // go-app's call after a render that changed Link
		}
		if got := c.copy(); got != edited {
			t.Errorf("%s: a re-render with an older link made the panel's copy %+v, want its edit %+v", c.name, got, edited)
		}
		st := newer
		c.take(&st)
		if got := c.copy(); got != c.want || c.typed() {
			t.Errorf("%s: a published link left the panel with %+v (typed text kept: %v), want %+v", c.name, got, c.typed(), c.want)
		}
	}
}
