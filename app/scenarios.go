package app

import (
	"net/url"
	"strings"
	"sync"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// keyScenario names the herd scenario a link starts from (scenarios): its
// keys fill in those the link leaves out, and the page writes it back while
// the policy and the herd are still the scenario's.
const keyScenario = "scenario"

// scenarios are the herd panel's one-click setups, each a page query (the
// policy's and the herd's keys); the catalog has "scenario.NAME" (the
// button) and "scenario.NAME-long" (what to look at).
var scenarios = []struct{ group, name, query string }{
	// Bronson et al. (HotOS 2021): a server of 30 workers x 10 calls/s,
	// 200 requests/s (2/3 of capacity), one retry after a 1 s timeout, a
	// 10 s stall: the calls the stall timed out come back with the new
	// ones, the queue never drains, and goodput stays near zero.
	{"traffic", "metastable", "attempts=2&traffic=open:200&duration=2m&server=queue&concurrency=30&service=100ms&timeout=1s&fault=stall@20s-30s"},
	// The same with the AWS SDK's retry quota: retries stop when the
	// bucket is empty, and the server recovers about 18 s after the stall.
	{"traffic", "metastable-budget", "attempts=2&traffic=open:200&duration=2m&server=queue&concurrency=30&service=100ms&timeout=1s&fault=stall@20s-30s&budget=tokens:500:5:1"},
	// Dean and Barroso, "The Tail at Scale" (2013): a second copy after
	// the p95 adds about 5% load and cuts the p99.9.
	{"traffic", "hedge", "attempts=1&traffic=open:200&duration=1m&server=queue&concurrency=100&service=10ms&service-dist=lognormal:1.5&latency=1ms&latency-sd=0&hedge=p95&hedge-cancel=true"},
	// Brooker, "Open and Closed, Omission and Collapse" (2023): utilisation
	// 0.8 with calls of 0.1 ms, or 10 ms one time in a thousand; Poisson
	// arrivals queue behind the slow calls, one looping caller never does.
	{"traffic", "open", "attempts=1&traffic=open:7280&duration=20s&server=queue&concurrency=1&service=100us&service-dist=bimodal:0.001:10ms&latency=0s&latency-sd=0s"},
	{"traffic", "closed", "attempts=1&traffic=loop:1:27.5us&duration=20s&server=queue&concurrency=1&service=100us&service-dist=bimodal:0.001:10ms&latency=0s&latency-sd=0s"},
	// The Amazon Builders' Library: five layers of three attempts over a
	// bottom that always fails make 3^5 = 243 calls at it per request;
	// retrying at the top only, 3.
	{"chains", "chain", "clients=100&server=capacity&capacity=1000000&error-rate=1&layers=5&layer-attempts=3"},
	{"chains", "chain-top", "clients=100&server=capacity&capacity=1000000&error-rate=1&layers=5&layer-attempts=3&retry-at=top"},
	// ALOHA at G = 0.5 and slotted ALOHA at G = 1, each frame sent once:
	// their best throughputs, 1/(2e) and 1/e.
	{"chains", "aloha", "attempts=1&server=channel&channel=aloha&frame=1ms&traffic=open:500&duration=20s"},
	{"chains", "slotted", "attempts=1&server=channel&channel=slotted&frame=1ms&traffic=open:1000&duration=20s"},
	// Sixteen saturated stations, frames of 85 slots (Metcalfe and Boggs's
	// long frames), 802.3's backoff.
	{"chains", "ethernet", "preset=ethernet&server=channel&channel=ethernet&frame=4352us&slot=51.2us&traffic=loop:16&duration=2s"},
	// Two servers of 50 calls/s behind a balancer, 70 requests/s, a 1 s
	// timeout and 3 immediate retries; server 1 crashes from 5 s to 10 s.
	// Round-robin: the crash's fast failures retry onto server 2, which
	// falls behind, times out, and the storm keeps both down after the
	// crash. Least outstanding: the crashed server, failing fast, draws
	// the calls, and the fleet recovers when it comes back.
	{"fleet", "fleet-crash", "attempts=4&growth=none&jitter=none&traffic=open:70&duration=1m&servers=2&server=queue&concurrency=5&service=100ms&service-dist=fixed&timeout=1s&fault=crash@5s-10s/1"},
	{"fleet", "fleet-least", "attempts=4&growth=none&jitter=none&traffic=open:70&duration=1m&servers=2&balance=least&server=queue&concurrency=5&service=100ms&service-dist=fixed&timeout=1s&fault=crash@5s-10s/1"},
	// The article's two clients: the capture effect.
	{"chains", "two-clients", "preset=ethernet&server=channel&channel=ethernet&frame=51.2us&slot=51.2us&traffic=loop:2&duration=100ms"},
}

// scenarioQuery is the query of the scenario called name ("" if none).
func scenarioQuery(name string) string {
	for _, s := range scenarios {
		if s.name == name {
			return s.query
		}
	}
	return ""
}

// withScenario fills q with the keys of the scenario it names that it
// does not give itself; ok is false for an unknown scenario.
func withScenario(q url.Values) (ok bool) {
	name := q.Get(keyScenario)
	if name == "" {
		return true
	}
	sq, _ := url.ParseQuery(scenarioQuery(name))
	if len(sq) == 0 {
		return false
	}
	for k, v := range sq {
		if _, given := q[k]; !given {
			q[k] = v
		}
	}
	return true
}

func scenarioNames() string {
	names := make([]string, len(scenarios))
	for i, s := range scenarios {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}

// scenarioOf is the scenario whose policy and herd s has, or "".
func scenarioOf(s *state) string {
	for i, t := range scenarioStates() {
		if t.Preset == s.Preset && t.Policy == s.Policy && t.Herd == s.Herd {
			return scenarios[i].name
		}
	}
	return ""
}

// scenarioStates are the scenarios' states, parsed once: every render and
// every URL written asks which scenario the page shows.
var scenarioStates = sync.OnceValue(func() []state {
	out := make([]state, len(scenarios))
	for i, sc := range scenarios {
		out[i], _ = parseQuery(sc.query)
	}
	return out
})

// scenarioButtons are the rows of scenario buttons, a component: the one
// the page shows (Current) pressed, with what to look at in it. A click
// goes to the page as actScenario.
type scenarioButtons struct {
	app.Compo

	Lang    i18n.Lang
	Current string
}

// actScenario carries a scenario's name to the page.
const actScenario = "scenario"

func (c *scenarioButtons) onClick(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actScenario, strings.TrimPrefix(ctx.JSSrc().Get("id").String(), "scenario-"))
}

// scenarioRows are the scenarios by group, a row per group in the order
// the groups first appear: a group's scenarios share its row wherever
// they are listed.
func scenarioRows() (groups []string, rows [][]int) {
	at := map[string]int{}
	for i, sc := range scenarios {
		k, ok := at[sc.group]
		if !ok {
			k = len(groups)
			at[sc.group] = k
			groups, rows = append(groups, sc.group), append(rows, nil)
		}
		rows[k] = append(rows[k], i)
	}
	return groups, rows
}

func (c *scenarioButtons) Render() app.UI {
	l, cur := c.Lang, c.Current
	groups, idx := scenarioRows()
	rows := make([]app.UI, 0, len(groups)+1)
	for g, group := range groups {
		items := []app.UI{app.Span().Class("scenarios-label").Text(l.T("scenario.group-" + group))}
		for _, i := range idx[g] {
			sc := scenarios[i]
			items = append(items, app.Button().ID("scenario-"+sc.name).Type("button").Class("secondary small").
				Aria("pressed", sc.name == cur).OnClick(c.onClick).Text(l.T("scenario."+sc.name)))
		}
		rows = append(rows, app.Div().Class("take-away").Body(items...))
	}
	hint := ""
	if cur != "" {
		hint = l.T("scenario." + cur + "-long")
	}
	return app.Div().Class("scenarios").Body(append(rows,
		app.P().ID("scenario-hint").Class("hint").Hidden(hint == "").Text(hint))...)
}

// onScenario sets the policy and the herd to a scenario's, as a history
// entry; the rest of the page (language, view, seed, the second policy)
// stays.
func (p *playground) onScenario(ctx app.Context, a app.Action) {
	name, _ := a.Value.(string)
	q := scenarioQuery(name)
	if q == "" {
		return
	}
	st, _ := parseQuery(q)
	p.st.Preset, p.st.Policy, p.st.Herd = st.Preset, st.Policy, st.Herd
	p.linkGen++ // the panels show the scenario's policy and herd
	p.changed(ctx, true)
}
