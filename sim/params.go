package sim

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Param names, shared by the CLI's flags and the page's URL query. Set and
// Get also accept every backoff.ParamNames name (for the policy).
const (
	ParamClients         = "clients"
	ParamServer          = "server"
	ParamServers         = "servers"
	ParamBalance         = "balance"
	ParamRetryOther      = "retry-other"
	ParamCapacity        = "capacity"
	ParamCapacityWindow  = "capacity-window"
	ParamOutageStart     = "outage-start"
	ParamOutageEnd       = "outage-end"
	ParamCollapseFactor  = "collapse-factor"
	ParamCollapseWindow  = "collapse-window"
	ParamArrival         = "arrival"
	ParamLatency         = "latency"
	ParamLatencySD       = "latency-sd"
	ParamHonorRetryAfter = "honor-retry-after"
	ParamRetryAfterS     = "retry-after-s"
	ParamBudget          = "budget"
	ParamBreaker         = "breaker"
	ParamBucket          = "bucket"
	ParamHorizon         = "horizon"
	ParamMaxCalls        = "max-calls"
	ParamTraffic         = "traffic"
	ParamDuration        = "duration"
	ParamDrain           = "drain"
	ParamConcurrency     = "concurrency"
	ParamService         = "service"
	ParamServiceDist     = "service-dist"
	ParamQueueLimit      = "queue-limit"
	ParamDiscipline      = "discipline"
	ParamAdmission       = "admission"
	ParamTimeout         = "timeout"
	ParamDropExpired     = "drop-expired"
	ParamErrorRate       = "error-rate"
	ParamFault           = "fault"
	ParamBudgetScope     = "budget-scope"
	ParamHedge           = "hedge"
	ParamHedgeCancel     = "hedge-cancel"
	ParamLayers          = "layers"
	ParamLayerAttempts   = "layer-attempts"
	ParamRetryAt         = "retry-at"
	ParamLayerTimeout    = "layer-timeout"
	ParamPropagate       = "propagate-deadline"
	ParamChannel         = "channel"
	ParamFrame           = "frame"
	ParamSlot            = "slot"
)

// ParamNames lists the simulation's own names, in a stable order.
var ParamNames = []string{
	ParamClients, ParamServer, ParamServers, ParamBalance, ParamRetryOther, ParamCapacity, ParamCapacityWindow,
	ParamOutageStart, ParamOutageEnd, ParamCollapseFactor, ParamCollapseWindow,
	ParamArrival, ParamLatency, ParamLatencySD,
	ParamHonorRetryAfter, ParamRetryAfterS, ParamBudget, ParamBreaker,
	ParamBucket, ParamHorizon, ParamMaxCalls,
	ParamTraffic, ParamDuration, ParamDrain, ParamConcurrency, ParamService, ParamServiceDist,
	ParamQueueLimit, ParamDiscipline, ParamAdmission, ParamTimeout, ParamDropExpired, ParamErrorRate, ParamFault,
	ParamBudgetScope, ParamHedge, ParamHedgeCancel,
	ParamLayers, ParamLayerAttempts, ParamRetryAt, ParamLayerTimeout, ParamPropagate,
	ParamChannel, ParamFrame, ParamSlot,
	ParamCacheKeys, ParamCacheTTL, ParamCacheStart, ParamCacheZipf, ParamPerServer,
}

// BoolParams are the names whose values are true or false (a CLI flag
// given alone means true).
var BoolParams = []string{ParamHonorRetryAfter, ParamRetryOther, ParamDrain, ParamDropExpired, ParamHedgeCancel, ParamPropagate}

// isPolicyParam reports whether name belongs to the policy.
func isPolicyParam(name string) bool {
	for _, n := range backoff.ParamNames {
		if n == name {
			return true
		}
	}
	return false
}

// Set sets one field from text, as a flag or a URL parameter gives it, and
// checks the value alone (Validate checks the fields together). On error the
// config is unchanged and the error is a *backoff.FieldError.
func (c *Config) Set(name, value string) error {
	if isPolicyParam(name) {
		return c.Policy.Set(name, value)
	}
	v := strings.TrimSpace(value)
	n := *c // work on a copy so a failed Set changes nothing
	var err error
	switch name {
	case ParamClients:
		n.Clients, err = backoff.ParseInt(name, v, 1, MaxClients)
	case ParamServer:
		n.Server, err = parseEnum[ServerModel](name, v, ServerNames())
	case ParamServers:
		n.Servers, err = backoff.ParseInt(name, v, 1, MaxServers)
	case ParamBalance:
		n.Balance, err = parseEnum[Balance](name, v, balanceNames)
	case ParamRetryOther:
		n.RetryOther, err = backoff.ParseBool(name, v)
	case ParamCapacity:
		n.Capacity, err = parsePositive(name, v, MaxCapacity)
	case ParamCollapseFactor:
		n.CollapseFactor, err = backoff.ParseFloat(name, v, 0, MaxCollapseFactor)
	case ParamArrival:
		n.Arrival, n.ArrivalWindow, err = parseArrival(v)
	case ParamHonorRetryAfter:
		n.HonorRetryAfter, err = backoff.ParseBool(name, v)
	case ParamBudget:
		n.Budget, err = parseBudget(v)
	case ParamBreaker:
		n.Breaker, err = parseBreaker(v)
	case ParamMaxCalls:
		n.MaxCalls, err = backoff.ParseInt(name, v, 0, MaxCalls, backoff.ZeroDefault, strconv.Itoa(DefaultMaxCalls))
	case ParamTraffic:
		err = n.parseTraffic(v)
	case ParamConcurrency:
		n.Concurrency, err = backoff.ParseInt(name, v, 1, MaxConcurrency)
	case ParamServiceDist:
		n.ServiceDist, err = parseServiceDist(v)
	case ParamQueueLimit:
		n.QueueLimit, err = backoff.ParseInt(name, v, 0, MaxQueueLimit, backoff.ZeroNoLimit)
	case ParamDiscipline:
		n.Discipline, err = parseDiscipline(v)
	case ParamAdmission:
		n.Admission, err = parseAdmission(v)
	case ParamDropExpired:
		n.DropExpired, err = backoff.ParseBool(name, v)
	case ParamPropagate:
		n.PropagateDeadline, err = backoff.ParseBool(name, v)
	case ParamPerServer:
		n.PerServer, err = parsePerServer(v)
	case ParamDrain:
		n.Drain, err = backoff.ParseBool(name, v)
	case ParamErrorRate:
		n.ErrorRate, err = backoff.ParseFloat(name, v, 0, 1)
	case ParamFault:
		n.Faults, err = parseFaults(v)
	case ParamBudgetScope:
		n.BudgetScope, err = parseEnum[BudgetScope](name, v, scopeNames)
	case ParamHedge:
		n.Hedge, err = parseHedge(v)
	case ParamHedgeCancel:
		n.HedgeCancel, err = backoff.ParseBool(name, v)
	case ParamLayers:
		n.Layers, err = backoff.ParseInt(name, v, 1, MaxLayers)
	case ParamLayerAttempts:
		n.LayerAttempts, err = parseLayerAttempts(v)
	case ParamLayerTimeout:
		n.LayerTimeout, err = parseLayerTimeouts(v)
	case ParamRetryAt:
		n.RetryAt, err = parseEnum[RetryAt](name, v, retryAtNames)
	case ParamChannel:
		n.Channel, err = parseEnum[ChannelKind](name, v, channelNames)
	default:
		if p := ParamOwn(name); p != nil {
			err = p.set(&n, v)
			break
		}
		if ok, cerr := n.setCache(name, v); ok {
			err = cerr
			break
		}
		dst, max := n.duration(name)
		if dst == nil {
			return &backoff.FieldError{Field: "parameter", Value: clip(name), Code: backoff.CodeUnknown,
				Args:    append(slices.Clone(ParamNames), backoff.ParamNames...),
				Allowed: "one of " + strings.Join(ParamNames, ", ") + " or a policy parameter"}
		}
		*dst, err = backoff.ParseDuration(name, v, max)
		if err == nil && name == ParamLatency && n.Latency == 0 {
			// A latency of 0 means none: no spread either, unless a
			// latency-sd given after it (the order of ParamNames) says so.
			n.LatencySD = 0
		}
	}
	if err != nil {
		return err
	}
	*c = n
	return nil
}

// duration returns the plain duration field name and its upper bound, or
// nil.
func (c *Config) duration(name string) (*time.Duration, time.Duration) {
	switch name {
	case ParamCapacityWindow:
		return &c.CapacityWindow, MaxTime
	case ParamOutageStart:
		return &c.OutageStart, MaxTime
	case ParamOutageEnd:
		return &c.OutageEnd, MaxTime
	case ParamCollapseWindow:
		return &c.CollapseWindow, MaxTime
	case ParamLatency:
		return &c.Latency, MaxLatency
	case ParamLatencySD:
		return &c.LatencySD, MaxLatency
	case ParamRetryAfterS:
		return &c.RetryAfter, backoff.MaxDuration
	case ParamBucket:
		return &c.Bucket, MaxTime
	case ParamHorizon:
		return &c.Horizon, MaxTime
	case ParamDuration:
		return &c.Duration, MaxTime
	case ParamService:
		return &c.Service, MaxLatency
	case ParamTimeout:
		return &c.Timeout, MaxTime
	case ParamFrame:
		return &c.Frame, MaxFrame
	case ParamSlot:
		return &c.Slot, MaxFrame
	}
	return nil, 0
}

// FullValue is Get(name) with every argument of a part written, the
// optional ones at their defaults too ("codel" is "codel:100ms:5ms"):
// what a sentence about the value reads its arguments from.
func (c *Config) FullValue(name string) string {
	switch name {
	case ParamDiscipline:
		if q := c.Discipline.QueueDiscipline(); q != nil {
			return partFullText(q.Name(), q.Args(), &c.Discipline.Args)
		}
	case ParamAdmission:
		if q := c.Admission.Rule(); q != nil {
			return partFullText(q.Name(), q.Args(), &c.Admission.Args)
		}
	}
	return c.Get(name)
}

// Get returns the text form of one field, the inverse of Set.
func (c *Config) Get(name string) string {
	if isPolicyParam(name) {
		return c.Policy.Get(name)
	}
	d := backoff.FormatDuration
	switch name {
	case ParamClients:
		return strconv.Itoa(c.Clients)
	case ParamServer:
		return c.Server.String()
	case ParamServers:
		return strconv.Itoa(c.Servers)
	case ParamBalance:
		return c.Balance.String()
	case ParamRetryOther:
		return strconv.FormatBool(c.RetryOther)
	case ParamCapacity:
		return formatFloat(c.Capacity)
	case ParamCapacityWindow:
		return d(c.CapacityWindow)
	case ParamOutageStart:
		return d(c.OutageStart)
	case ParamOutageEnd:
		return d(c.OutageEnd)
	case ParamCollapseFactor:
		return formatFloat(c.CollapseFactor)
	case ParamCollapseWindow:
		return d(c.CollapseWindow)
	case ParamArrival:
		if c.Arrival == Burst {
			return Burst.String()
		}
		return c.Arrival.String() + ":" + d(c.ArrivalWindow)
	case ParamLatency:
		return d(c.Latency)
	case ParamLatencySD:
		return d(c.LatencySD)
	case ParamHonorRetryAfter:
		return strconv.FormatBool(c.HonorRetryAfter)
	case ParamRetryAfterS:
		return d(c.RetryAfter)
	case ParamBudget:
		return c.Budget.text()
	case ParamBreaker:
		return c.Breaker.text()
	case ParamBucket:
		return d(c.Bucket)
	case ParamHorizon:
		return d(c.Horizon)
	case ParamMaxCalls:
		return strconv.Itoa(c.MaxCalls)
	case ParamTraffic:
		return c.trafficText()
	case ParamDuration:
		return d(c.Duration)
	case ParamConcurrency:
		return strconv.Itoa(c.Concurrency)
	case ParamService:
		return d(c.Service)
	case ParamServiceDist:
		return c.ServiceDist.text()
	case ParamQueueLimit:
		return strconv.Itoa(c.QueueLimit)
	case ParamDiscipline:
		return c.Discipline.text()
	case ParamAdmission:
		return c.Admission.text()
	case ParamTimeout:
		return d(c.Timeout)
	case ParamDropExpired:
		return strconv.FormatBool(c.DropExpired)
	case ParamPropagate:
		return strconv.FormatBool(c.PropagateDeadline)
	case ParamPerServer:
		return c.PerServer
	case ParamDrain:
		return strconv.FormatBool(c.Drain)
	case ParamErrorRate:
		return formatFloat(c.ErrorRate)
	case ParamFault:
		return c.Faults.text()
	case ParamBudgetScope:
		return c.BudgetScope.String()
	case ParamHedge:
		return c.Hedge.text()
	case ParamHedgeCancel:
		return strconv.FormatBool(c.HedgeCancel)
	case ParamLayers:
		return strconv.Itoa(c.Layers)
	case ParamLayerAttempts:
		return c.LayerAttempts.text()
	case ParamRetryAt:
		return c.RetryAt.String()
	case ParamLayerTimeout:
		return c.LayerTimeout.text()
	case ParamChannel:
		return c.Channel.String()
	case ParamFrame:
		return d(c.Frame)
	case ParamSlot:
		return d(c.Slot)
	}
	if p := ParamOwn(name); p != nil {
		return p.get(c)
	}
	if v, ok := c.getCache(name); ok {
		return v
	}
	return ""
}

// Validate checks the fields together and returns the first problem as a
// *backoff.FieldError.
func (c *Config) Validate() error {
	if err := c.Policy.Validate(); err != nil {
		return err
	}
	if err := backoff.CheckInt(ParamClients, c.Clients, 1, MaxClients); err != nil {
		return err
	}
	m := c.Server.Model()
	if m == nil {
		return choiceErr(ParamServer, c.Server.String(), ServerNames())
	}
	if int(c.Arrival) >= len(arrivalNames) {
		return formatErr(ParamArrival, c.Arrival.String(), arrivalForms)
	}
	for _, name := range ParamNames {
		if d, max := c.duration(name); d != nil {
			if err := backoff.CheckDuration(name, *d, 0, max); err != nil {
				return err
			}
		}
	}
	if err := backoff.CheckDuration(ParamArrival, c.ArrivalWindow, 0, MaxTime); err != nil {
		return err
	}
	if err := c.validateOwn(); err != nil {
		return err
	}
	if err := m.Validate(c); err != nil {
		return err
	}
	if err := backoff.CheckFloat(ParamCollapseFactor, c.CollapseFactor, 0, MaxCollapseFactor); err != nil {
		return err
	}
	if c.Arrival != Burst && c.ArrivalWindow <= 0 {
		return positiveErr(ParamArrival, c.Get(ParamArrival), backoff.FormatDuration(MaxTime), "DURATION",
			"a positive duration after "+c.Arrival.String()+":")
	}
	if c.Bucket != 0 && c.Bucket < MinBucket {
		return &backoff.FieldError{Field: ParamBucket, Value: backoff.FormatDuration(c.Bucket),
			Code: backoff.CodeZeroOrAtLeast, Args: []string{backoff.FormatDuration(MinBucket)},
			Allowed: "0s (automatic) or at least 1µs"}
	}
	if err := backoff.CheckInt("MaxInFlight", c.MaxInFlight, 0, MaxCalls, backoff.ZeroNoLimit); err != nil {
		return err
	}
	if err := backoff.CheckInt(ParamMaxCalls, c.MaxCalls, 0, MaxCalls, backoff.ZeroDefault, strconv.Itoa(DefaultMaxCalls)); err != nil {
		return err
	}
	if err := c.Budget.validate(); err != nil {
		return err
	}
	if err := c.Breaker.validate(); err != nil {
		return err
	}
	return c.validateRequests()
}

// validateRequests checks the request-level fields (traffic.go, the queue
// server, faults, hedging).
func (c *Config) validateRequests() error {
	if err := c.validateTraffic(); err != nil {
		return err
	}
	if err := backoff.CheckInt(ParamQueueLimit, c.QueueLimit, 0, MaxQueueLimit, backoff.ZeroNoLimit); err != nil {
		return err
	}
	if err := c.Discipline.validate(c); err != nil {
		return err
	}
	if err := c.Admission.validate(c); err != nil {
		return err
	}
	if err := backoff.CheckFloat(ParamErrorRate, c.ErrorRate, 0, 1); err != nil {
		return err
	}
	if int(c.BudgetScope) >= len(scopeNames) {
		return choiceErr(ParamBudgetScope, c.BudgetScope.String(), scopeNames)
	}
	if err := c.Faults.validate(); err != nil {
		return err
	}
	if err := c.Hedge.validate(); err != nil {
		return err
	}
	if err := c.validateChain(); err != nil {
		return err
	}
	if err := c.validateChannel(); err != nil {
		return err
	}
	if err := c.validateFleet(); err != nil {
		return err
	}
	if err := c.validateCache(); err != nil {
		return err
	}
	tr := c.Server.Traits()
	if !tr.Requests && c.RequestLevel() {
		// occ's reads and writes have no request-level model (yet).
		field, v, want := c.requestField()
		return &backoff.FieldError{Field: field, Value: clip(v), Code: backoff.CodeNeeds, Other: ParamServer,
			Args:    []string{c.Server.String(), want, want},
			Allowed: want + " with the " + c.Server.String() + " server (it has no request-level model)"}
	}
	for _, f := range c.Faults.List() {
		if f.Kind != FaultFlush && !tr.Honours(f.Kind) {
			var forms []string
			for k := FaultOutage; int(k) < len(faultNames); k++ {
				if tr.Honours(k) {
					forms = append(forms, faultForms[k])
				}
			}
			want := strings.Join(forms, ", ") + " or none"
			return &backoff.FieldError{Field: ParamFault, Value: clip(c.Faults.text()), Code: backoff.CodeNeeds,
				Other: ParamServer, Args: []string{c.Server.String(), want, want},
				Allowed: want + " with the " + c.Server.String() + " server (" + f.Kind.String() + " has no meaning for it)"}
		}
	}
	return nil
}

// requestField is the first field that makes c request-level, its value,
// and the value that would not.
func (c *Config) requestField() (field, value, want string) {
	switch {
	case c.Traffic != Closed:
		return ParamTraffic, c.Get(ParamTraffic), Closed.String()
	case c.Timeout > 0:
		return ParamTimeout, c.Get(ParamTimeout), "0s"
	case c.ErrorRate > 0:
		return ParamErrorRate, c.Get(ParamErrorRate), "0"
	case c.Faults[0].Kind != NoFault:
		return ParamFault, c.Get(ParamFault), NoFault.String()
	case c.Budget.Kind == AdaptiveBudget:
		return ParamBudget, c.Get(ParamBudget), NoBudget.String()
	case c.BudgetScope != SharedScope:
		return ParamBudgetScope, c.Get(ParamBudgetScope), SharedScope.String()
	case c.Hedge.On():
		return ParamHedge, c.Get(ParamHedge), "none"
	case c.Layers > 1:
		return ParamLayers, c.Get(ParamLayers), "1"
	case c.Servers > 1:
		return ParamServers, c.Get(ParamServers), "1"
	case c.CacheKeys > 0:
		return ParamCacheKeys, c.Get(ParamCacheKeys), "0"
	}
	return ParamServer, c.Server.String(), Capacity.String()
}

// partErr restates err, about one part of a value with parts, as an error
// about the whole value v.
func partErr(err error, v, part, allowed string) error {
	fe := err.(*backoff.FieldError)
	fe.Value, fe.Part, fe.Allowed = clip(v), part, allowed
	return fe
}

func positiveErr(field, v, max, part, allowed string) error {
	return &backoff.FieldError{Field: field, Value: clip(v), Code: backoff.CodePositive, Args: []string{max},
		Part: part, Allowed: allowed}
}

func formatErr(field, v string, forms []string) error {
	allowed := forms[0]
	if n := len(forms); n > 1 {
		allowed = strings.Join(forms[:n-1], ", ") + " or " + forms[n-1]
	}
	return &backoff.FieldError{Field: field, Value: clip(v), Code: backoff.CodeFormat, Args: slices.Clone(forms), Allowed: allowed}
}

func choiceErr(field, v string, names []string) error {
	return &backoff.FieldError{Field: field, Value: clip(v), Code: backoff.CodeChoice, Args: slices.Clone(names),
		Allowed: "one of " + strings.Join(names, ", ")}
}

// clip bounds a value quoted in an error.
func clip(v string) string {
	if len(v) > 64 {
		return v[:64] + "…"
	}
	return v
}

// parsePositive reads a number above 0 and at most max (CodePositive).
func parsePositive(field, s string, max float64) (float64, error) {
	f, err := backoff.ParseFloat(field, s, 0, max)
	if err != nil || f == 0 {
		return 0, positiveErr(field, s, formatFloat(max), "", "calls per second, above 0 and at most 1e9")
	}
	return f, nil
}

func parseEnum[T ~uint8](field, s string, names []string) (T, error) {
	i, err := backoff.ParseChoice(field, s, names)
	return T(i), err
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func nameOf(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return "unknown"
}
