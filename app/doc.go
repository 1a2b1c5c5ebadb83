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
// The page (playground.go) owns the state, the link and the herd's runs,
// and nothing a panel edits. Each panel is a component of its own file
// that owns what it edits (its copy of the policy or the herd, its typed
// boxes and inline errors, its open controls) and sends each accepted edit
// to the page as a go-app action (the act* constants; the page takes them
// in OnMount). A panel takes the link's values (its Link field) only when
// the page replaces its state from outside (LinkGen: a link, Back, a
// lesson, a scenario, an import), never on the page's other renders: a
// fast typist's next key, or a dragged slider's next position, can come
// before the page has handled the last one, and the page's older copy
// would be written back into the box. Panels that only show (the table,
// the charts, the herd's card) are drawn from values passed down; the herd
// card takes its runs as a value (runView), so go-app redraws it when any
// of them changes. The views (views.go) name each one once.
//
// Charts are SVG strings drawn by pure functions (app/chart) from plain
// data, so the same code can draw them anywhere; components only place
// them.
package app
