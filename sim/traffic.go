package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// Traffic is who calls the server, and when.
type Traffic uint8

const (
	// Closed is the herd: Config.Clients callers, each wanting one
	// success, making their first calls as Config.Arrival says.
	Closed Traffic = iota
	// Open is Poisson arrivals of Config.Rate requests per second for
	// Config.Duration; each request is a caller wanting one success
	// under the policy. New requests keep coming whatever the server
	// does: an open system (Schroeder, Wierman and Harchol-Balter, "Open
	// versus closed: a cautionary tale", NSDI 2006).
	Open
	// Loop is Config.Callers callers, each sending its next request
	// Config.Think after the previous one finished (succeeded or gave
	// up), until Config.Duration: a closed system in the same paper's
	// sense, whose offered load falls when the server slows down.
	Loop
)

var trafficNames = []string{"closed", "open", "loop"}

func (k Traffic) String() string { return nameOf(trafficNames, int(k)) }

// TrafficNames lists every Traffic's name, indexed by Traffic: the kinds
// Set and the URL accept. The slice is a copy.
func TrafficNames() []string { return slices.Clone(trafficNames) }

// trafficForms are the forms of a traffic value, as CodeFormat's Args list them.
var trafficForms = []string{"closed", "open:RATE", "loop:N[:THINK]"}

// Traffic limits: MaxRate requests per second, and at most MaxRequests
// requests in an open run (Rate*Duration), so that a run's work and its
// timeline stay bounded.
const (
	MaxRate     = 1e7
	MaxRequests = 1e7
)

// trafficText is the traffic value's text form.
func (c *Config) trafficText() string {
	switch c.Traffic {
	case Open:
		return Open.String() + ":" + formatFloat(c.Rate)
	case Loop:
		s := Loop.String() + ":" + strconv.Itoa(c.Callers)
		if c.Think > 0 {
			s += ":" + backoff.FormatDuration(c.Think)
		}
		return s
	}
	return c.Traffic.String()
}

// parseTraffic reads a traffic value in one of trafficForms into c (on
// error c is partly changed: Set works on a copy).
func (c *Config) parseTraffic(v string) error {
	parts := strings.Split(v, ":")
	kind, err := parseEnum[Traffic](ParamTraffic, parts[0], trafficNames)
	if err != nil {
		return formatErr(ParamTraffic, v, trafficForms)
	}
	args := parts[1:]
	c.Traffic, c.Rate, c.Callers, c.Think = kind, 0, 0, 0
	switch {
	case kind == Closed && len(args) == 0:
	case kind == Open && len(args) == 1:
		f, err := backoff.ParseFloat(ParamTraffic, args[0], 0, MaxRate)
		if err != nil || f == 0 {
			return positiveErr(ParamTraffic, v, formatFloat(MaxRate), "RATE",
				"open:RATE with RATE requests per second, above 0 and at most 1e7")
		}
		c.Rate = f
	case kind == Loop && (len(args) == 1 || len(args) == 2):
		k, err := backoff.ParseInt(ParamTraffic, args[0], 1, MaxClients)
		if err != nil {
			return partErr(err, v, "N", fmt.Sprintf("loop:N[:THINK] with N callers from 1 to %d", MaxClients))
		}
		c.Callers = k
		if len(args) == 2 {
			d, err := backoff.ParseDuration(ParamTraffic, args[1], MaxTime)
			if err != nil {
				return partErr(err, v, "THINK", "loop:N[:THINK] with a think time from 0s to 8760h")
			}
			c.Think = d
		}
	default:
		return formatErr(ParamTraffic, v, trafficForms)
	}
	return nil
}

// validateTraffic checks the traffic fields together.
func (c *Config) validateTraffic() error {
	switch c.Traffic {
	case Closed:
		return nil
	case Open:
		if !(c.Rate > 0 && c.Rate <= MaxRate) {
			return positiveErr(ParamTraffic, c.trafficText(), formatFloat(MaxRate), "RATE",
				"open:RATE with RATE requests per second, above 0 and at most 1e7")
		}
	case Loop:
		if err := backoff.CheckInt(ParamTraffic, c.Callers, 1, MaxClients); err != nil {
			return partErr(err, c.trafficText(), "N", fmt.Sprintf("loop:N[:THINK] with N callers from 1 to %d", MaxClients))
		}
		if err := backoff.CheckDuration(ParamTraffic, c.Think, 0, MaxTime); err != nil {
			return partErr(err, c.trafficText(), "THINK", "loop:N[:THINK] with a think time from 0s to 8760h")
		}
	default:
		return formatErr(ParamTraffic, c.Traffic.String(), trafficForms)
	}
	most := MaxTime
	if c.Traffic == Open {
		// Rate*Duration requests at most: the longest duration at this
		// rate, worked out in seconds (at a low rate it is beyond
		// time.Duration's range).
		if s := MaxRequests / c.Rate; s < MaxTime.Seconds() {
			most = time.Duration(s * float64(time.Second))
		}
	}
	if !(c.Duration > 0 && c.Duration <= most) {
		d := backoff.FormatDuration
		allowed := "a positive duration up to " + d(most) + " for " + c.Traffic.String() + " traffic"
		if c.Traffic == Open {
			allowed += fmt.Sprintf(" (at most %g requests: rate x duration)", float64(MaxRequests))
		}
		return &backoff.FieldError{Field: ParamDuration, Value: d(c.Duration), Code: backoff.CodeNeeds,
			Other: ParamTraffic, Args: []string{c.trafficText(), d(time.Nanosecond), d(most)}, Allowed: allowed}
	}
	return nil
}
