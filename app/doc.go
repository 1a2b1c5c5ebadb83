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
// Charts are SVG strings drawn by pure functions (svg.go) from plain data,
// so the same code can draw them anywhere; components only place them.
package app
