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

// herdFields are the herd's controls in order: a typed box ('t'), a select
// of values ('s', with custom a last "custom…" entry revealing a typed box)
// or a checkbox ('c'), each shown where its run reads it (sim's
// Config.Reads). label and hint are catalog keys. One loop renders them: each go-app
// call site costs app.wasm bytes.
var herdFields = []struct {
	name, label, hint string
	kind              byte
	values            func() []string
	custom            bool
}{
	{sim.ParamTraffic, "herd.traffic", "", 's', func() []string { return trafficValues }, true},
	{sim.ParamClients, "herd.clients", "herd.clients-hint", 't', nil, false},
	{sim.ParamDuration, "herd.duration", "herd.duration-hint", 't', nil, false},
	{sim.ParamServer, "herd.server", "", 's', serverValues, false},
	{sim.ParamServers, "herd.servers", "", 's', func() []string { return serversValues }, true},
	{sim.ParamBalance, "herd.balance", "", 's', balanceValues, false},
	{sim.ParamCapacity, "herd.capacity", "herd.capacity-hint", 't', nil, false},
	{sim.ParamOutageEnd, "herd.outage-end", "herd.outage-hint", 't', nil, false},
	{sim.ParamCollapseFactor, "herd.collapse", "herd.collapse-hint", 't', nil, false},
	{sim.ParamConcurrency, "herd.concurrency", "herd.concurrency-hint", 't', nil, false},
	{sim.ParamService, "herd.service", "herd.service-hint", 't', nil, false},
	{sim.ParamServiceDist, "herd.service-dist", "", 's', func() []string { return distValues }, true},
	{sim.ParamQueueLimit, "herd.queue-limit", "herd.queue-limit-hint", 't', nil, false},
	{sim.ParamDiscipline, "herd.discipline", "", 's', func() []string { return disciplineValues }, true},
	{sim.ParamAdmission, "herd.admission", "", 's', func() []string { return admissionValues }, true},
	{sim.ParamChannel, "herd.channel", "", 's', channelValues, false},
	{sim.ParamFrame, "herd.frame", "herd.frame-hint", 't', nil, false},
	{sim.ParamSlot, "herd.slot", "herd.slot-hint", 't', nil, false},
	{sim.ParamLayers, "herd.layers", "", 's', func() []string { return layerValues }, true},
	{sim.ParamLayerAttempts, "herd.layer-attempts", "herd.layer-attempts-hint", 't', nil, false},
	{sim.ParamRetryAt, "herd.retry-at", "", 's', retryAtValues, false},
	{sim.ParamLayerTimeout, "herd.layer-timeout", "herd.layer-timeout-hint", 't', nil, false},
	{sim.ParamArrival, "herd.arrival", "", 's', func() []string { return arrivalValues }, true},
	{sim.ParamTimeout, "herd.timeout", "herd.timeout-hint", 't', nil, false},
	{sim.ParamFault, "herd.fault", "herd.fault-hint", 't', nil, false},
	{sim.ParamErrorRate, "herd.error-rate", "herd.error-rate-hint", 't', nil, false},
	{sim.ParamBudget, "herd.budget", "", 's', func() []string { return budgetValues }, true},
	{sim.ParamBudgetScope, "herd.budget-scope", "", 's', sim.ScopeNames, false},
	{sim.ParamBreaker, "herd.breaker", "", 's', func() []string { return breakerValues }, true},
	{sim.ParamHedge, "herd.hedge", "", 's', func() []string { return hedgeValues }, true},
	{sim.ParamRetryAfterS, "herd.retry-after", "herd.retry-after-hint", 't', nil, false},
	{sim.ParamLatency, "herd.latency", "herd.latency-hint", 't', nil, false},
	{sim.ParamCacheKeys, "herd.cache-keys", "herd.cache-keys-hint", 't', nil, false},
	{sim.ParamCacheTTL, "herd.cache-ttl", "herd.cache-ttl-hint", 't', nil, false},
	{sim.ParamCacheStart, "herd.cache-start", "", 's', func() []string { return cacheStartValues }, false},
	{sim.ParamCacheZipf, "herd.cache-zipf", "herd.cache-zipf-hint", 't', nil, false},
	{sim.ParamHonorRetryAfter, "herd.honor", "", 'c', nil, false},
	{sim.ParamDrain, "herd.drain", "herd.drain-hint", 'c', nil, false},
	{sim.ParamRetryOther, "herd.retry-other", "herd.retry-other-hint", 'c', nil, false},
	{sim.ParamDropExpired, "herd.drop-expired", "herd.drop-expired-hint", 'c', nil, false},
	{sim.ParamHedgeCancel, "herd.hedge-cancel", "herd.hedge-cancel-hint", 'c', nil, false},
	{sim.ParamPropagate, "herd.propagate", "herd.propagate-hint", 'c', nil, false},
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
