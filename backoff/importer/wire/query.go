package wire

import (
	"net/url"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// Query is the page's URL query for p: the policy keys whose values
// differ from the article's policy (backoff.Default), in the order the
// page reads them. It replays the page's reading key by key (setting the
// jitter kind also fills in that kind's zero parameters), so a key is
// left out only when the page arrives at the same value without it. The
// link holds the policy's parameters, not the text it was read from.
func Query(p backoff.Policy) string {
	var b strings.Builder
	replay := backoff.Default()
	for _, name := range backoff.ParamNames {
		if name == backoff.ParamCapAfterJitter {
			continue // cap-mode says the same, and more
		}
		v := p.Get(name)
		if v == replay.Get(name) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(name) + "=" + url.QueryEscape(v))
		_ = replay.Set(name, v)
	}
	return b.String()
}
