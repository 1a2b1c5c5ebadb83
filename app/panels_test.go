package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"time"
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

	check := func(name string, got, want any, typed bool) {
		t.Helper()
		if got != want {
			t.Errorf("%s: the panel holds %+v, want %+v", name, got, want)
		}
		if typed {
			t.Errorf("%s: the typed text survived the new link", name)
		}
	}

	pol := &policyPanel{Link: policyLink{older.Preset, older.Policy, older.Seed}, LinkGen: 1}
	pol.OnInit()
	pol.pol.Seed, pol.text["base-value"] = 99, "7"
	edited := pol.pol
	pol.Link = policyLink{newer.Preset, newer.Policy, newer.Seed} // same gen: a re-render
	pol.take()
	check("policy, re-rendered", pol.pol, edited, false)
	pol.LinkGen = 2
	pol.take()
	check("policy, replaced", pol.pol, pol.Link, len(pol.text) > 0)

	b := &policyBPanel{Link: policyB{On: true, Policy: older.Policy}, LinkGen: 1}
	b.OnInit()
	b.b.Preset, b.text["b-base-value"] = "grpc-retry", "7"
	editedB := b.b
	b.Link = policyB{On: true, Policy: newer.Policy}
	b.OnUpdate(ctx)
	check("second policy, re-rendered", b.b, editedB, false)
	b.LinkGen = 2
	b.OnUpdate(ctx)
	check("second policy, replaced", b.b, b.Link, len(b.text) > 0)

	k := &herdKnobs{Link: older.Herd, LinkGen: 1, Policy: older.Policy}
	k.OnInit()
	k.h.Runs, k.text["clients-value"], k.custom["arrival"] = 3, "10", true
	editedK := k.h
	k.Link = newer.Herd
	k.OnUpdate(ctx)
	check("herd knobs, re-rendered", k.h, editedK, false)
	k.LinkGen = 2
	k.OnUpdate(ctx)
	check("herd knobs, replaced", k.h, k.Link, len(k.text) > 0 || len(k.custom) > 0)

	cl := &classifyPanel{Link: older.Cls, LinkGen: 1}
	cl.OnInit()
	cl.in.Key = "typed-fast"
	editedC := cl.in
	cl.Link = newer.Cls
	cl.OnUpdate(ctx)
	check("classifier, re-rendered", cl.in, editedC, false)
	cl.LinkGen = 2
	cl.OnUpdate(ctx)
	check("classifier, replaced", cl.in, cl.Link, false)
}
