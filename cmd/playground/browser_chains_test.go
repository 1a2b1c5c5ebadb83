//go:build browser && !wasm

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// Call chains, the shared channel and the unlucky client in the page: the
// scenarios, their pictures and cards, against the native runs' numbers.

func metricFloat(tb testing.TB, t *tab, id string) float64 {
	tb.Helper()
	v, err := strconv.ParseFloat(metricValue(tb, t, id), 64)
	if err != nil {
		tb.Fatalf("#%s data-value %q", id, metricValue(tb, t, id))
	}
	return v
}

func TestBrowserChainScenarios(t *testing.T) {
	tb := newTab(t, 1280, 900)
	tb.open(t, "lang=en")
	click(t, tb, "scenario-chain")
	poll[bool](t, tb, "the chain's picture", `!!document.querySelector('#chain-chart svg')`)
	exPollParam(t, tb, "scenario", "chain")
	if got := exParam(t, tb, "layers"); got != "5" {
		t.Errorf("URL layers=%q, want 5", got)
	}
	calls := eval[[]string](t, tb, `[...document.querySelectorAll('#chain-chart text.chain-calls')].map(e => e.textContent)`)
	if strings.Join(calls, " ") != "1 3 9 27 81 243" {
		t.Errorf("calls over the arrows %v, want 1 3 9 27 81 243", calls)
	}
	if v := metricFloat(t, tb, "metric-bottom-load"); v != 243 {
		t.Errorf("server calls per request %v, want 243", v)
	}
	click(t, tb, "scenario-chain-top")
	exPollParam(t, tb, "scenario", "chain-top")
	poll[bool](t, tb, "the top-only chain", `document.getElementById('metric-bottom-load').getAttribute('data-value') === '3'`)
	if got := exValue(t, tb, "retry-at"); got != "top" {
		t.Errorf("retry-at select %q, want top", got)
	}
	// The knobs: a list of attempts per layer, top first.
	tb.typeInto(t, "layer-attempts-value", "2,3,4,1,1")
	exPollParam(t, tb, "layer-attempts", "2,3,4,1,1")
	// A list that does not match the layers is refused, naming the field.
	tb.typeInto(t, "layer-attempts-value", "2,3")
	if msg := exFieldError(t, tb, "layer-attempts-value"); !strings.Contains(msg, "layer-attempts") {
		t.Errorf("layer-attempts error %q", msg)
	}
	if p := tb.problems(t); len(p) > 0 {
		t.Errorf("problems:\n  %s", strings.Join(p, "\n  "))
	}
	click(t, tb, "scenario-chain")
	poll[bool](t, tb, "the chain again", `document.getElementById('metric-bottom-load').getAttribute('data-value') === '243'`)
	tb.elementShot(t, "#chain-chart", "chain-en") // last: it clears the viewport's emulation
}

func TestBrowserChannelScenarios(t *testing.T) {
	tb := newTab(t, 1280, 900)
	for _, c := range []struct {
		scenario string
		kv       []string
		s        float64 // what theory says S is near
	}{
		{"aloha", []string{"attempts", "1", "server", "channel", "channel", "aloha", "frame", "1ms", "traffic", "open:500", "duration", "20s"}, 0.5 * math.Exp(-1)},
		{"slotted", []string{"attempts", "1", "server", "channel", "channel", "slotted", "frame", "1ms", "traffic", "open:1000", "duration", "20s"}, math.Exp(-1)},
	} {
		native := reqRun(t, c.kv...).Totals
		tb.open(t, "scenario="+c.scenario+"&lang=en")
		poll[bool](t, tb, c.scenario, `!!document.querySelector('#channel-chart svg .run-point') && (document.getElementById('metric-channel-throughput') || {getAttribute: () => ''}).getAttribute('data-value') !== ''`)
		s, g := metricFloat(t, tb, "metric-channel-throughput"), metricFloat(t, tb, "metric-offered-load")
		if s != native.ChannelThroughput || g != native.OfferedLoad {
			t.Errorf("%s: S %v, G %v in the page; natively %v, %v", c.scenario, s, g, native.ChannelThroughput, native.OfferedLoad)
		}
		if math.Abs(s-c.s) > 0.02 {
			t.Errorf("%s: S %v, want about %.3f", c.scenario, s, c.s)
		}
	}
}

// The article's two clients in the page: the strip shows one client all
// but starved, and the fairness card says so.
func TestBrowserTwoClients(t *testing.T) {
	native := reqRun(t, "preset", "ethernet", "server", "channel", "channel", "ethernet", "frame", "51.2us", "slot", "51.2us",
		"traffic", "loop:2", "duration", "100ms")
	tb := newTab(t, 1280, 900)
	tb.open(t, "scenario=two-clients&lang=ru")
	poll[bool](t, tb, "the strip", `!!document.querySelector('#client-strip svg')`)
	if v := metricFloat(t, tb, "metric-jain"); v != native.Totals.JainFairness || v > 0.52 {
		t.Errorf("Jain's index %v in the page, %v natively; want about 0.5", v, native.Totals.JainFairness)
	}
	rows := eval[[]string](t, tb, `[...document.querySelectorAll('#client-strip svg text.tick')].map(e => e.textContent).filter(s => s.startsWith('клиент'))`)
	if len(rows) != 2 {
		t.Errorf("strip rows %v, want two clients", rows)
	}
	// Each success is a mark in the strip: as many as the run's.
	marks := eval[int](t, tb, `(document.querySelector('#client-strip path.strip-ok').getAttribute('d').match(/M/g) || []).length`)
	if marks != native.Totals.Succeeded {
		t.Errorf("%d success marks, %d successes natively", marks, native.Totals.Succeeded)
	}
	if got := eval[string](t, tb, `document.querySelector('#client-strip figcaption').textContent`); got != "Каждый клиент во времени" {
		t.Errorf("strip caption %q", got)
	}
	tb.elementShot(t, "section.herd", fmt.Sprintf("two-clients-%s", "ru"))
}
