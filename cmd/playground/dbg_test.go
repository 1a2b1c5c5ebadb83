//go:build browser && !wasm

package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestDbgUpdate(t *testing.T) {
	tb := newTab(t, 1280, 800, chromedp.WithNewBrowserContext())
	tb.open(t, "")
	poll[bool](t, tb, "the worker to control the page", `navigator.serviceWorker.getRegistration().then(r => !!(r && r.active && r.active.state === 'activated' && navigator.serviceWorker.controller))`)
	time.Sleep(time.Second)
	fmt.Println(eval[string](t, tb, `caches.keys().then(k => JSON.stringify(k))`))
	eval[bool](t, tb, `caches.keys().then(ks => Promise.all(ks.map(k => caches.delete(k)))).then(() => { goappOnUpdate(); return true; })`)
	time.Sleep(2 * time.Second)
	fmt.Println(eval[string](t, tb, `caches.keys().then(k => JSON.stringify(k))`), eval[string](t, tb, `JSON.stringify({hidden: document.getElementById('update').hidden, v: goappEnv.GOAPP_VERSION, mounted: !!window.__pg})`))
}
