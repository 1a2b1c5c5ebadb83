package sim

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// A cache node is a look-aside cache (Bronson et al., "Metastable
// Failures in Distributed Systems", HotOS 2021): each request asks for one
// key, drawn uniformly from keys (or with Zipf's law of exponent zipf:
// the k-th key with weight 1/k^zipf). A hit answers at once and no call
// goes below; a miss calls the node miss names (the server, or the
// balancer of a fleet) and stores the key for ttl when that call's answer
// comes back OK while its caller still waits for it (within the timeout:
// a late answer stores nothing). start warm begins with every key stored,
// their expiries uniform over one ttl; cold with none. A flush fault
// (flush@START-END) empties it at START and stores nothing before END
// (flush@30s-30s: an instant).
//
// A config carries its cache in CacheSide (cache-keys, cache-ttl,
// cache-start, cache-zipf: cache-keys 0 is no cache), so the shorthand,
// the page's link and a topology all say it: the cache sits below the
// chain's services, in front of the server or the fleet.
type cacheKind struct{}

func init() { registerNodeKind(cacheKind{}) }

const (
	kindCache = "cache"
	keyMiss   = "miss"
	keyKeys   = "keys"
	keyTTL    = "ttl"
	keyStart  = "start"
	keyZipf   = "zipf"
	nameCache = "cache"
)

// The cache's parameters (CacheSide).
const (
	ParamCacheKeys  = "cache-keys"
	ParamCacheTTL   = "cache-ttl"
	ParamCacheStart = "cache-start"
	ParamCacheZipf  = "cache-zipf"
)

// cacheParams are the cache's parameters, in ParamNames order.
var cacheParams = []string{ParamCacheKeys, ParamCacheTTL, ParamCacheStart, ParamCacheZipf}

// Bounds on a cache: its keys (its expiries take 8 bytes each, a Zipf
// law's table 8 more) and Zipf's exponent.
const (
	MaxCacheKeys     = 1_000_000
	MaxCacheZipf     = 10.0
	DefaultCacheKeys = 1000
	DefaultCacheTTL  = time.Minute
)

var cacheStartNames = []string{"cold", "warm"}

// CacheStartNames lists cache-start's values.
func CacheStartNames() []string { return slices.Clone(cacheStartNames) }

// CacheSide is a look-aside cache in front of the server or the fleet
// (node_cache.go). Keys 0 is no cache.
type CacheSide struct {
	// CacheKeys is how many keys the requests ask for; CacheZipf 0 draws
	// them uniformly, else with Zipf's law of that exponent.
	CacheKeys int
	CacheZipf float64
	// CacheTTL is how long a stored key stays.
	CacheTTL time.Duration
	// CacheWarm starts with every key stored, expiring uniformly over
	// one CacheTTL.
	CacheWarm bool
}

var cacheNodeKeys = []NodeKey{
	{Name: keyMiss, List: true, Help: "the node it calls on a miss"},
	{Name: keyKeys, Help: "how many keys the requests ask for (1 to 1e6)"},
	{Name: keyTTL, Help: "how long a key stays stored"},
	{Name: keyStart, Help: "cold (nothing stored) or warm (every key, expiring uniformly over one ttl)"},
	{Name: keyZipf, Help: "0: keys drawn uniformly; S: Zipf's law, the k-th key with weight 1/k^S"},
}

func (cacheKind) Name() string  { return kindCache }
func (cacheKind) stage() int    { return 1 }
func (cacheKind) aimable() bool { return true }
func (cacheKind) repeats() bool { return false }

// A cache sits in front of the servers (or their balancer) and calls its
// miss: node.
func (cacheKind) walk(w *walk, n *Node) (*Node, error) {
	w.cache = n
	return w.next(n, keyMiss, "a cache calls exactly one node on a miss")
}

func (cacheKind) Keys() []NodeKey { return cacheNodeKeys }

// cacheParam is the parameter a cache node's key sets ("" for miss).
func cacheParam(key string) string {
	switch key {
	case keyKeys:
		return ParamCacheKeys
	case keyTTL:
		return ParamCacheTTL
	case keyStart:
		return ParamCacheStart
	case keyZipf:
		return ParamCacheZipf
	}
	return ""
}

func (cacheKind) canon(key string, s Setting) (Setting, error) {
	p := cacheParam(key)
	if p == "" {
		return s, nil
	}
	if key == keyKeys {
		// A cache node has keys; no cache is no node.
		n, err := backoff.ParseInt(keyKeys, s.Value, 1, MaxCacheKeys)
		if err != nil {
			return s, err
		}
		s.Value = strconv.Itoa(n)
		return s, nil
	}
	c := DefaultConfig()
	if err := c.Set(p, s.Value); err != nil {
		return s, err
	}
	s.Value = c.Get(p)
	return s, nil
}

// setCache is Config.Set of a cache parameter; ok is false for another
// name.
func (c *Config) setCache(name, v string) (ok bool, err error) {
	switch name {
	case ParamCacheKeys:
		c.CacheKeys, err = backoff.ParseInt(name, v, 0, MaxCacheKeys)
	case ParamCacheTTL:
		var d time.Duration
		if d, err = backoff.ParseDuration(name, v, MaxTime); err == nil && d <= 0 {
			err = positiveErr(name, v, backoff.FormatDuration(MaxTime), "", "a duration above 0s and at most "+backoff.FormatDuration(MaxTime))
		}
		if err == nil {
			c.CacheTTL = d
		}
	case ParamCacheStart:
		var i int
		if i, err = backoff.ParseChoice(name, v, cacheStartNames); err == nil {
			c.CacheWarm = i == 1
		}
	case ParamCacheZipf:
		c.CacheZipf, err = backoff.ParseFloat(name, v, 0, MaxCacheZipf)
	default:
		return false, nil
	}
	return true, err
}

// getCache is Config.Get of a cache parameter; ok is false for another
// name.
func (c *Config) getCache(name string) (v string, ok bool) {
	switch name {
	case ParamCacheKeys:
		return strconv.Itoa(c.CacheKeys), true
	case ParamCacheTTL:
		return backoff.FormatDuration(c.CacheTTL), true
	case ParamCacheStart:
		return cacheStartNames[b2i(c.CacheWarm)], true
	case ParamCacheZipf:
		return formatFloat(c.CacheZipf), true
	}
	return "", false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// validateCache checks the cache against the rest of c: its values, a
// server model whose calls are answered (the channel's frames are not
// calls a cache can answer), and flush faults only with a cache, aimed at
// no server.
func (c *Config) validateCache() error {
	if err := backoff.CheckInt(ParamCacheKeys, c.CacheKeys, 0, MaxCacheKeys); err != nil {
		return err
	}
	if err := backoff.CheckFloat(ParamCacheZipf, c.CacheZipf, 0, MaxCacheZipf); err != nil {
		return err
	}
	if c.CacheTTL <= 0 || c.CacheTTL > MaxTime {
		return positiveErr(ParamCacheTTL, c.Get(ParamCacheTTL), backoff.FormatDuration(MaxTime), "", "a duration above 0s and at most "+backoff.FormatDuration(MaxTime))
	}
	if c.CacheKeys > 0 && !c.Server.Traits().Hops {
		return &backoff.FieldError{Field: ParamCacheKeys, Value: c.Get(ParamCacheKeys), Code: backoff.CodeNeeds, Other: ParamServer,
			Args:    []string{c.Server.String(), "0", "0"},
			Allowed: "0 with the " + c.Server.String() + " server (a cache answers calls; a channel carries frames)"}
	}
	for _, f := range c.Faults.List() {
		switch {
		case f.Kind == FaultFlush && c.CacheKeys == 0:
			return &backoff.FieldError{Field: ParamFault, Value: clip(c.Faults.text()), Code: backoff.CodeNeeds, Other: ParamCacheKeys,
				Args:    []string{"0", "none", "none"},
				Allowed: "no flush fault without a cache (flush empties the cache: set cache-keys above 0)"}
		case f.Kind == FaultFlush && f.Servers != 0:
			return &backoff.FieldError{Field: ParamFault, Value: clip(c.Faults.text()), Code: backoff.CodeFormat, Part: "SERVERS",
				Args:    slices.Clone(faultForms),
				Allowed: "flush@START-END without servers: it empties the cache, not a server"}
		}
	}
	return nil
}

// rcache is a run's cache: each key's expiry (stored while t < expiry),
// the Zipf law's cumulative weights, and the flushes, the last of which
// stops stores until its end. Its stores happen as answers reach their
// callers, in time order: a run with a cache handles answers through the
// event queue (reqSim.fast is off).
type rcache struct {
	expiry  []float64 // seconds; 0 = not stored
	cdf     []float64 // Zipf: cdf[k] = weight of keys 0..k over the total; nil = uniform
	ttl     float64
	noStore float64   // stores before it are refused (a flush's end)
	flushes []float64 // start, end of each flush fault
	// hits, misses and the keys stored over the run.
	hits, misses, stores int
}

// newCache is c's cache (nil for none), warm or cold, with its draws from
// src.
func newCache(c *Config, src *splitmix) *rcache {
	if c.CacheKeys == 0 {
		return nil
	}
	k := &rcache{expiry: make([]float64, c.CacheKeys), ttl: c.CacheTTL.Seconds()}
	if c.CacheZipf > 0 {
		k.cdf = make([]float64, c.CacheKeys)
		sum := 0.0
		for i := range k.cdf {
			sum += math.Pow(float64(i+1), -c.CacheZipf)
			k.cdf[i] = sum
		}
		for i := range k.cdf {
			k.cdf[i] /= sum
		}
	}
	if c.CacheWarm {
		for i := range k.expiry {
			// Above 0: a key expiring at 0 would be no key.
			k.expiry[i] = k.ttl * (1 - src.float64())
		}
	}
	for _, f := range c.Faults.List() {
		if f.Kind == FaultFlush {
			k.flushes = append(k.flushes, f.Start.Seconds(), f.End.Seconds())
		}
	}
	return k
}

// draw is a request's key.
func (k *rcache) draw(src *splitmix) uint32 {
	u := src.float64()
	if k.cdf == nil {
		return uint32(min(int(u*float64(len(k.expiry))), len(k.expiry)-1))
	}
	i, _ := slices.BinarySearch(k.cdf, u)
	return uint32(min(i, len(k.cdf)-1))
}

// lookup reports whether key is stored at t, counting the hit or miss.
func (k *rcache) lookup(key uint32, t float64) bool {
	if k.expiry[key] > t {
		k.hits++
		return true
	}
	k.misses++
	return false
}

// store keeps key for ttl from t, the time its answer came back OK to a
// caller still waiting, unless a flush refuses stores then.
func (k *rcache) store(key uint32, t float64) {
	if t < k.noStore {
		return
	}
	k.expiry[key] = t + k.ttl
	k.stores++
}

// flush empties the cache at t and refuses stores until end.
func (k *rcache) flush(end float64) {
	clear(k.expiry)
	k.noStore = max(k.noStore, end)
}

// cacheFlushes schedules the cache's flushes as events.
func (r *reqSim) cacheFlushes() {
	for i := 0; i < len(r.cache.flushes); i += 2 {
		r.push(r.cache.flushes[i], evFlush, uint32(i/2), 0, r.cache.flushes[i+1])
		r.faults++
	}
}

// cacheNode is c's cache as a node called name, calling miss.
func (c *Config) cacheNode(name, miss string) Node {
	n := Node{Name: name, Kind: kindCache, Keys: []Setting{{Key: keyMiss, List: []string{miss}},
		{Key: keyKeys, Value: c.Get(ParamCacheKeys)}, {Key: keyTTL, Value: c.Get(ParamCacheTTL)}}}
	if c.CacheWarm {
		n.Keys = append(n.Keys, Setting{Key: keyStart, Value: c.Get(ParamCacheStart)})
	}
	if c.CacheZipf > 0 {
		n.Keys = append(n.Keys, Setting{Key: keyZipf, Value: c.Get(ParamCacheZipf)})
	}
	return n
}

// lowerCache sets c's cache from node n (nil: none); its keys left out
// are the defaults.
func (c *Config) lowerCache(n *Node) error {
	def := DefaultConfig()
	c.CacheSide = def.CacheSide
	if n == nil {
		return nil
	}
	c.CacheKeys = DefaultCacheKeys
	for _, s := range n.Keys {
		p := cacheParam(s.Key)
		if p == "" {
			continue
		}
		if err := c.Set(p, s.Value); err != nil {
			return nodeErr(err, n.Name, s.Key, max(s.Line, n.Line))
		}
	}
	return nil
}

// cacheHit: caller id, at the bottom of its chain, asks the cache at t.
// A hit answers at once, with no call below (true); a miss goes on.
func (r *reqSim) cacheHit(id uint32, t float64) bool {
	_, x := r.tl.atx(t)
	if r.cache.lookup(r.callers[id].key, t) {
		x.hits++
		if r.trace != nil {
			r.trace.hit(id, r.callers[id].tries, t)
		}
		r.succeed(id, t)
		return true
	}
	x.misses++
	return false
}

// cacheMiss counts a hedge's copy as a miss: a second call below for a
// key the cache did not have.
func (r *reqSim) cacheMiss(t float64) {
	r.cache.misses++
	_, x := r.tl.atx(t)
	x.misses++
}

// totals are the cache's totals of a run.
func (k *rcache) totals() CacheTotals {
	t := CacheTotals{Hits: k.hits, Misses: k.misses, Stored: k.stores}
	if n := k.hits + k.misses; n > 0 {
		t.HitRatio = float64(k.hits) / float64(n)
	}
	return t
}

// cacheBytes is what c's cache holds: an expiry a key, and a Zipf law's
// table.
func cacheBytes(c *Config) int64 {
	n := int64(c.CacheKeys) * 8
	if c.CacheZipf > 0 {
		n *= 2
	}
	return n
}

// checkFlushAim refuses a flush aimed at a node other than the cache (or
// in a graph without one) and another fault aimed at the cache: f's text
// is text, the nodes after "/" on.
func checkFlushAim(f Setting, text, on string, aimed bool, cache *Node) error {
	flush := strings.HasPrefix(text, FaultFlush.String()+"@")
	switch {
	case flush && cache == nil:
		return &backoff.FieldError{Field: topFaults, Value: clip(f.Value), Code: backoff.CodeFormat, Part: "NODE",
			Args: slices.Clone(faultForms), Line: max(f.Line, 1), Allowed: "a flush empties a cache: a graph with a cache node"}
	case flush && aimed && strings.TrimSpace(on) != cache.Name:
		return &backoff.FieldError{Field: topFaults, Value: clip(f.Value), Code: backoff.CodeChoice, Part: "NODE",
			Args: []string{cache.Name}, Line: max(f.Line, 1), Allowed: "flush@START-END[/NODE] with NODE the cache, " + cache.Name}
	case !flush && aimed && cache != nil && slices.Contains(strings.Split(on, ","), cache.Name):
		return &backoff.FieldError{Field: topFaults, Value: clip(f.Value), Code: backoff.CodeChoice, Part: "NODE",
			Args: []string{FaultFlush.String()}, Line: max(f.Line, 1), Allowed: "only flush@START-END at the cache " + cache.Name + " (the other faults are a server's)"}
	}
	return nil
}

// A cache's figures: the calls into it (the tries that reached it, and
// hedges' copies), those it answered and passed below, the hits' share.
func (cacheKind) figures(r *reqSim, _ int, _ float64, out []NodeFigure) []NodeFigure {
	t := r.cache.totals()
	return append(out, NodeFigure{"calls", float64(t.Hits + t.Misses)}, NodeFigure{"hits", float64(t.Hits)},
		NodeFigure{"misses", float64(t.Misses)}, NodeFigure{"hit_ratio", t.HitRatio})
}

// A cache's figures in a bucket are the bucket's own cache columns.
func (cacheKind) bucket(o *Bucket, _ *xbin, _, _ []sbin, _ int, out []float64) []float64 {
	return append(out, float64(o.Hits+o.Misses), float64(o.Hits), float64(o.Misses), o.HitRatio)
}

var cacheBucketKeys = []string{"calls", "hits", "misses", "hit_ratio"}

func (cacheKind) bucketKeys() []string { return cacheBucketKeys }
