package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// stateLink is go-app's state through which the page hands the panels
// that edit the link (the policies, the herd's knobs, the classifier) a
// state it took from outside them: a link, Back or Forward, a lesson's
// setup, a scenario, a topology, an import. It is set then and only then,
// never after a panel's own edit: a fast typist's next key, or a dragged
// slider's next position, can come before the page has taken the last
// one, and the page's copy would be written back over it. A panel starts
// from the link it is drawn with (its Link field) and takes each state
// set here (linked.observe).
const stateLink = "link"

// publishLink hands st to the panels that edit the link (see stateLink).
// The server's page draws each panel once, from its Link: nothing
// observes there.
func publishLink(ctx app.Context, st state) {
	if app.IsClient {
		ctx.SetState(stateLink, st)
	}
}

// linked is a panel's receiver of stateLink.
type linked struct{ st state }

// observe calls take with each state the page publishes from now on, for
// as long as the panel is mounted.
func (k *linked) observe(ctx app.Context, take func(*state)) {
	ctx.ObserveState(stateLink, &k.st).OnChange(func() { take(&k.st) })
}
