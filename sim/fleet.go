package sim

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// A fleet is Config.Servers identical servers of the chosen model behind a
// load balancer: each has its own workers (or rate), queue, faults and
// counters, and the balancer sends each call (each copy of a hedge) to one
// of them as Config.Balance says. Faults may aim at some servers only
// (Fault.Servers); a crash (FaultCrash) refuses calls at once and loses
// the server's queue and the calls in service, whose callers learn it by
// their timeout. With Config.RetryOther a retry goes to a server other
// than the one its previous try went to, when there is one (Envoy's
// previous_hosts retry predicate).

// Balance is how the load balancer picks a server for a call.
type Balance uint8

const (
	// RoundRobin takes the servers in turn.
	RoundRobin Balance = iota
	// RandomBalance takes one uniformly at random.
	RandomBalance
	// LeastOutstanding takes the one with the fewest calls it has sent
	// and not yet seen answered (ties in turn).
	LeastOutstanding
	// PowerOfTwo takes the better of two picked at random (fewer calls
	// outstanding; Mitzenmacher's power of two choices).
	PowerOfTwo
)

var balanceNames = []string{"round-robin", "random", "least", "p2c"}

func (b Balance) String() string { return nameOf(balanceNames, int(b)) }

// BalanceNames lists every Balance's name, indexed by Balance. The slice
// is a copy.
func BalanceNames() []string { return slices.Clone(balanceNames) }

// MaxServers bounds a fleet: a fault names its servers in a 64-bit set.
const MaxServers = 64

// validateFleet checks the fleet's fields with the rest of c.
func (c *Config) validateFleet() error {
	if err := backoff.CheckInt(ParamServers, c.Servers, 1, MaxServers); err != nil {
		return err
	}
	if int(c.Balance) >= len(balanceNames) {
		return choiceErr(ParamBalance, c.Balance.String(), balanceNames)
	}
	if c.Servers > 1 && !c.Server.Traits().Fleet {
		return &backoff.FieldError{Field: ParamServers, Value: strconv.Itoa(c.Servers), Code: backoff.CodeNeeds,
			Other: ParamServer, Args: []string{c.Server.String(), "1", "1"},
			Allowed: "1 with the " + c.Server.String() + " server (it runs as one server only)"}
	}
	if err := c.validatePerServer(); err != nil {
		return err
	}
	for _, f := range c.Faults.List() {
		if most := bits.Len64(f.Servers); most > c.Servers {
			return &backoff.FieldError{Field: ParamFault, Value: clip(c.Faults.text()), Code: backoff.CodeFormat,
				Part: "SERVERS", Args: []string{"KIND[:ARG]@START-END[/S1,S2,...]", "1", strconv.Itoa(c.Servers)},
				Allowed: "servers numbered from 1 to " + strconv.Itoa(c.Servers) + " (--servers) after the /"}
		}
	}
	return nil
}

// serversText is a fault's servers as its text form writes them after
// the "/": "1,3"; "" for every server.
func serversText(set uint64) string {
	var parts []string
	for s := set; s != 0; s &= s - 1 {
		parts = append(parts, strconv.Itoa(bits.TrailingZeros64(s)+1))
	}
	return strings.Join(parts, ",")
}

// parseServers reads a fault's server list, "1,3" (numbered from 1), into
// a set; ok is false for anything else: a space, a sign, a server named
// twice (the list is what serversText writes back, in any order).
func parseServers(v string) (set uint64, ok bool) {
	for _, p := range strings.Split(v, ",") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > MaxServers || p[0] < '0' || p[0] > '9' || set&(1<<(n-1)) != 0 {
			return 0, false
		}
		set |= 1 << (n - 1)
	}
	return set, true
}

// aims reports whether fault f is at server k (from 0).
func (f *Fault) aims(k int) bool { return f.Servers == 0 || f.Servers&(1<<k) != 0 }

// pick is the server the balancer sends caller id's call to: with
// RetryOther a retry avoids the server its previous try went to (a hedge's
// copy avoids none).
func (r *reqSim) pick(id uint32, retry bool) uint8 {
	n := len(r.srvs)
	if n == 1 {
		return 0
	}
	avoid, m := -1, n // m: the servers to pick from
	if retry && r.c.RetryOther {
		avoid, m = int(r.callers[id].at[0]), n-1
	}
	switch r.c.Balance {
	case RandomBalance:
		return uint8(r.pickOther(avoid, int(r.src.float64()*float64(m))))
	case LeastOutstanding:
		best := -1
		for i := range n {
			k := (r.turn + i) % n
			if k != avoid && (best < 0 || r.srvs[k].out < r.srvs[best].out) {
				best = k
			}
		}
		r.turn = (r.turn + 1) % n
		return uint8(best)
	case PowerOfTwo:
		if m == 1 {
			return uint8(r.pickOther(avoid, 0))
		}
		a := int(r.src.float64() * float64(m))
		b := int(r.src.float64() * float64(m-1))
		if b >= a {
			b++
		}
		a, b = r.pickOther(avoid, a), r.pickOther(avoid, b)
		if r.srvs[b].out < r.srvs[a].out {
			return uint8(b)
		}
		return uint8(a)
	}
	k := r.turn
	r.turn = (r.turn + 1) % n
	if k == avoid {
		k = r.turn
		r.turn = (r.turn + 1) % n
	}
	return uint8(k)
}

// pickOther is the i-th server (from 0) other than avoid (-1: none).
func (r *reqSim) pickOther(avoid, i int) int {
	if avoid >= 0 && i >= avoid {
		return i + 1
	}
	return i
}
