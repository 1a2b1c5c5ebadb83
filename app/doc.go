// Package app is the browser playground, a go-app v10 program compiled to
// WebAssembly: it runs the backoff core and the sim simulator in the page.
//
// The page's state is exactly its URL query (state.go): a policy's keys
// are backoff.ParamNames (the second policy's the same with "b."), the
// herd's are sim.ParamNames plus runs, and seed, scale and lang. Every
// string a person reads comes from the catalog in app/i18n, in English and
// Russian; the core's kinds, error codes and reason codes are worded there
// by their own names, and tests tie each one to both languages.
//
// The page (playground.go) holds the link's state and routes between its
// views: the playground, a lesson (lessonPage), the lessons' index, a view
// alone (views.go, where each view registers its component's constructor
// and its picture). It hands its parts one value, pageView: the language,
// the state and the runs it keeps. Each part is a component of its own
// file that owns what it edits (its copy of the policy or the herd, its
// typed boxes and inline errors, its open controls) or computes what it
// shows (the table panel its tables, the lesson its lesson), and sends
// each change of the link to the page as an edit (edit.go), which says
// what else it asks for: the herd's runs, a history entry, the focus. A
// panel starts from the link's values (its Link field) and takes others
// only when the page replaces its state from outside (go-app's state
// stateLink: a link, Back, a lesson's setup, a scenario, an import), never
// on the page's other renders: a fast typist's next key, or a dragged
// slider's next position, can come before the page has handled the last
// one, and the page's older copy would be written back into the box. The
// herd's runs are the page's (herdRunner), because four parts show them
// (the herd card, the compare card, the result strip, a lesson's widget)
// and a view alone may have no herd card; the herd card takes them as a
// value (runView), so go-app redraws it when any of them changes.
//
// Charts are SVG strings drawn by pure functions (app/chart) from plain
// data, so the same code can draw them anywhere; components only place
// them.
package app
