package app

import (
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
)

// What the herd's panels share: its fields (herdFields, drawn by the
// knobs, herd-knobs.go), the words for its values, and the page's rerun
// after an edit; the card is herd-card.go, the runs the herdRunner's.

// option is a select entry: the value Set takes and what people read.
type option struct{ Value, Label string }

// runsValues are the runs the page offers.
var runsValues = []int{1, 3, 10, 20}

// customValue is the select entry that reveals a herd field's typed box.
const customValue = "custom"

// The herd selects' common values; their labels are worded from the values
// (herdLabel), in the page's language.
var (
	serverValues  = sim.ServerNames
	trafficValues = []string{"closed", "open:200", "loop:100:1s"}
	distValues    = []string{"exp", "fixed", "lognormal:1", "bimodal:0.01:1s"}
	arrivalValues = []string{"burst", "uniform:10s", "clock:1m"}
	budgetValues  = []string{"none", "tokens:500:5:1", "ratio:0.2:3", "adaptive:2:2m", "grpc:10:0.1"}
	breakerValues = []string{"none", "consecutive:5:5s", "ratio:0.5:20:10s:5s"}
	hedgeValues   = []string{"none", "p95", "p99"}
	layerValues   = []string{"1", "2", "3", "5"}
	serversValues = []string{"1", "2", "3", "4", "8"}
	// A queue server's defences: its discipline and its admission rule,
	// with arguments a 30-worker server of the scenarios would use.
	cacheStartValues = []string{"cold", "warm"}
	disciplineValues = []string{"fifo", "lifo", "bounded:30", "codel", "adaptive-lifo"}
	admissionValues  = []string{"none", "token-bucket:100:10", "concurrency:60", "aimd"}
	balanceValues    = sim.BalanceNames
	channelValues    = sim.ChannelNames
	retryAtValues    = sim.RetryAtNames
)

// Which configs a herd field applies to: the others hide it. A server
// model's fields need no rule here: each shows where its config's model
// reads it (sim.Config.UsesField, from the registry of models).
func closedTraffic(c *sim.Config) bool { return c.Traffic == sim.Closed }
func steadyTraffic(c *sim.Config) bool { return c.Traffic != sim.Closed }
func withBudget(c *sim.Config) bool    { return c.Budget.Kind != sim.NoBudget }
func withHedge(c *sim.Config) bool     { return c.Hedge.On() }
func chained(c *sim.Config) bool       { return c.Layers > 1 }
func fleet(c *sim.Config) bool         { return c.Servers > 1 }
func fleetable(c *sim.Config) bool     { return c.Server.Traits().Fleet }
func withHops(c *sim.Config) bool      { return c.Server.Traits().Hops }
func withCache(c *sim.Config) bool     { return c.CacheKeys > 0 }
func withDeadline(c *sim.Config) bool {
	return c.Timeout > 0 || c.Policy.Deadline > 0 || c.Layers > 1 && c.LayerTimeout.Any() || c.PropagateDeadline
}

// herdFields are the herd's controls in order: a typed box ('t'), a select
// of values ('s', with custom a last "custom…" entry revealing a typed box)
// or a checkbox ('c'); show says which configs it applies to (nil: all).
// label and hint are catalog keys. One loop renders them: each go-app
// call site costs app.wasm bytes.
var herdFields = []struct {
	name, label, hint string
	kind              byte
	values            func() []string
	custom            bool
	show              func(*sim.Config) bool
}{
	{sim.ParamTraffic, "herd.traffic", "", 's', func() []string { return trafficValues }, true, nil},
	{sim.ParamClients, "herd.clients", "herd.clients-hint", 't', nil, false, closedTraffic},
	{sim.ParamDuration, "herd.duration", "herd.duration-hint", 't', nil, false, steadyTraffic},
	{sim.ParamServer, "herd.server", "", 's', serverValues, false, nil},
	{sim.ParamServers, "herd.servers", "", 's', func() []string { return serversValues }, true, fleetable},
	{sim.ParamBalance, "herd.balance", "", 's', balanceValues, false, fleet},
	{sim.ParamCapacity, "herd.capacity", "herd.capacity-hint", 't', nil, false, nil},
	{sim.ParamOutageEnd, "herd.outage-end", "herd.outage-hint", 't', nil, false, nil},
	{sim.ParamCollapseFactor, "herd.collapse", "herd.collapse-hint", 't', nil, false, nil},
	{sim.ParamConcurrency, "herd.concurrency", "herd.concurrency-hint", 't', nil, false, nil},
	{sim.ParamService, "herd.service", "herd.service-hint", 't', nil, false, nil},
	{sim.ParamServiceDist, "herd.service-dist", "", 's', func() []string { return distValues }, true, nil},
	{sim.ParamQueueLimit, "herd.queue-limit", "herd.queue-limit-hint", 't', nil, false, nil},
	{sim.ParamDiscipline, "herd.discipline", "", 's', func() []string { return disciplineValues }, true, nil},
	{sim.ParamAdmission, "herd.admission", "", 's', func() []string { return admissionValues }, true, nil},
	{sim.ParamChannel, "herd.channel", "", 's', channelValues, false, nil},
	{sim.ParamFrame, "herd.frame", "herd.frame-hint", 't', nil, false, nil},
	{sim.ParamSlot, "herd.slot", "herd.slot-hint", 't', nil, false, nil},
	{sim.ParamLayers, "herd.layers", "", 's', func() []string { return layerValues }, true, nil},
	{sim.ParamLayerAttempts, "herd.layer-attempts", "herd.layer-attempts-hint", 't', nil, false, chained},
	{sim.ParamRetryAt, "herd.retry-at", "", 's', retryAtValues, false, chained},
	{sim.ParamLayerTimeout, "herd.layer-timeout", "herd.layer-timeout-hint", 't', nil, false, chained},
	{sim.ParamArrival, "herd.arrival", "", 's', func() []string { return arrivalValues }, true, closedTraffic},
	{sim.ParamTimeout, "herd.timeout", "herd.timeout-hint", 't', nil, false, nil},
	{sim.ParamFault, "herd.fault", "herd.fault-hint", 't', nil, false, nil},
	{sim.ParamErrorRate, "herd.error-rate", "herd.error-rate-hint", 't', nil, false, nil},
	{sim.ParamBudget, "herd.budget", "", 's', func() []string { return budgetValues }, true, nil},
	{sim.ParamBudgetScope, "herd.budget-scope", "", 's', sim.ScopeNames, false, withBudget},
	{sim.ParamBreaker, "herd.breaker", "", 's', func() []string { return breakerValues }, true, nil},
	{sim.ParamHedge, "herd.hedge", "", 's', func() []string { return hedgeValues }, true, nil},
	{sim.ParamRetryAfterS, "herd.retry-after", "herd.retry-after-hint", 't', nil, false, nil},
	{sim.ParamLatency, "herd.latency", "herd.latency-hint", 't', nil, false, withHops},
	{sim.ParamCacheKeys, "herd.cache-keys", "herd.cache-keys-hint", 't', nil, false, withHops},
	{sim.ParamCacheTTL, "herd.cache-ttl", "herd.cache-ttl-hint", 't', nil, false, withCache},
	{sim.ParamCacheStart, "herd.cache-start", "", 's', func() []string { return cacheStartValues }, false, withCache},
	{sim.ParamCacheZipf, "herd.cache-zipf", "herd.cache-zipf-hint", 't', nil, false, withCache},
	{sim.ParamHonorRetryAfter, "herd.honor", "", 'c', nil, false, nil},
	{sim.ParamDrain, "herd.drain", "herd.drain-hint", 'c', nil, false, steadyTraffic},
	{sim.ParamRetryOther, "herd.retry-other", "herd.retry-other-hint", 'c', nil, false, fleet},
	{sim.ParamDropExpired, "herd.drop-expired", "herd.drop-expired-hint", 'c', nil, false, nil},
	{sim.ParamHedgeCancel, "herd.hedge-cancel", "herd.hedge-cancel-hint", 'c', nil, false, withHedge},
	{sim.ParamPropagate, "herd.propagate", "herd.propagate-hint", 'c', nil, false, withDeadline},
}

// herdLabel words a herd value ("tokens:500:5:1") in l: the catalog entry
// of its kind (plus suffix: "" for the select's short entry, "-long" for
// the sentence under it), filled with its parameters in l's format; "" when
// there is no such entry.
func herdLabel(l i18n.Lang, field, v, suffix string) string {
	parts := strings.Split(v, ":")
	key := field + "." + parts[0] + suffix
	if l.T(key) == key {
		if suffix != "" {
			return ""
		}
		return v
	}
	if parts[0] == "loop" && len(parts) == 2 {
		parts = append(parts, "0s") // no think time
	}
	args := make([]string, len(parts)-1)
	for i, a := range parts[1:] {
		args[i] = valueArg(l, a)
		if i == 0 && (parts[0] == "ratio" || parts[0] == "bimodal") {
			if f, err := strconv.ParseFloat(a, 64); err == nil {
				args[i] = l.Percent(f, 1)
			}
		}
	}
	return l.F(key, args...)
}
