package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// actEdit carries a panel's change of the link's state to the page: an
// edit. Every panel that edits the link sends its changes this one way, and
// says in the edit what else the change asks for; the page has one
// handler for them all (playground.onEdit).
const actEdit = "edit"

// edit is a change of the link's state: set makes it on the page's state
// and reports whether anything changed.
type edit struct {
	set func(st *state) bool
	// rerun: the change reaches the herd's runs (a policy, the herd's
	// scenario), which the page makes again; the tables follow the state
	// by themselves (tableOf).
	rerun bool
	// push makes the change a history entry, which Back undoes (a select,
	// a committed box, a button); a slider's drag replaces the entry.
	push bool
	// replace: the change sets the state from outside the panels that
	// edit it (a scenario, a topology, an import): they take it
	// (stateLink).
	replace bool
	// focus is an element to move the keyboard focus to once drawn.
	focus string
}

// sendEdit hands e to the page.
func sendEdit(ctx app.Context, e edit) { ctx.NewActionWithValue(actEdit, e) }

// setTo is an edit's set that makes *field v, when it is not already.
func setTo[T comparable](field func(st *state) *T, v T) func(*state) bool {
	return func(st *state) bool {
		f := field(st)
		if *f == v {
			return false
		}
		*f = v
		return true
	}
}

// choose is the edit that sets a panel's choice the link keeps (the Export
// panel's library, the Embed panel's view) to v, when it is one of
// allowed: a history entry.
func choose(field func(st *state) *string, v string, allowed []string) edit {
	set := setTo(field, v)
	return edit{set: func(st *state) bool { return contains(allowed, v) && set(st) }, push: true}
}
