// This file replaces go-app v10.1.11's pkg/app/route.go in the
// WebAssembly build only (see the Makefile): the same router, whose
// RouteWithRegexp takes only the patterns the page gives it, "^" and a
// literal prefix, matched without package regexp. regexp and the Unicode
// tables its parser reads were the page's largest unused code: 290 KB of
// app.wasm, about 80 KB over the wire (brotli). A pattern of any other
// form panics when it is registered, which the browser tests meet first.

package app

import (
	"strings"
	"sync"
)

type router struct {
	mu               sync.RWMutex
	routes           map[string]func() Composer
	routesWithRegexp []regexpRoute
}

func makeRouter() router {
	return router{
		routes: make(map[string]func() Composer),
	}
}

func (r *router) route(path string, newComponent func() Composer) {
	r.mu.Lock()
	defer r.mu.Unlock()

	r.routes[path] = newComponent
}

func (r *router) routeWithRegexp(pattern string, newComponent func() Composer) {
	r.mu.Lock()
	defer r.mu.Unlock()

	prefix, ok := strings.CutPrefix(pattern, "^")
	if !ok || strings.ContainsAny(prefix, `\.+*?()|[]{}^$`) {
		panic("app.RouteWithRegexp: this build matches only ^PREFIX with a literal prefix, not " + pattern)
	}
	r.routesWithRegexp = append(r.routesWithRegexp, regexpRoute{
		prefix:       prefix,
		newComponent: newComponent,
	})
}

func (r *router) routed(path string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()

	if _, routed := r.routes[path]; routed {
		return true
	}

	for _, rwr := range r.routesWithRegexp {
		if strings.HasPrefix(path, rwr.prefix) {
			return true
		}
	}

	return false
}

func (r *router) createComponent(path string) (Composer, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()

	if newComponent, routed := r.routes[path]; routed {
		return newComponent(), true
	}

	for _, rwr := range r.routesWithRegexp {
		if strings.HasPrefix(path, rwr.prefix) {
			return rwr.newComponent(), true
		}
	}

	return nil, false
}

type regexpRoute struct {
	prefix       string
	newComponent func() Composer
}
