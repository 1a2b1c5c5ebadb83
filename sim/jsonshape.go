package sim

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// jsonShape is which groups of keys beyond the engine's own a run's
// totals carry in JSON: a fleet's, a call chain's, the shared channel's,
// a cache's.
// A group's keys are all there or none is, whatever their values, so that
// a model's JSON has one set of keys (cmd/backoff/sim.schema.json).
type jsonShape uint8

const (
	shapeFleet jsonShape = 1 << iota
	shapeChain
	shapeChannel
	shapeCache
)

// shapeOf is c's groups.
func shapeOf(c *Config) jsonShape {
	var s jsonShape
	if c.Servers > 1 {
		s |= shapeFleet
	}
	if c.Layers > 1 {
		s |= shapeChain
	}
	if m := c.Server.Model(); m != nil {
		s |= m.shape()
	}
	if c.CacheKeys > 0 {
		s |= shapeCache
	}
	return s
}

// The groups' keys, from the types' tags.
var (
	requestKeys = tagNames(RequestTotals{}, MeanRequestTotals{})
	chainKeys   = tagNames(ChainTotals{}, MeanChainTotals{})
	channelKeys = tagNames(ChannelTotals{}, MeanChannelTotals{})
	cacheKeys   = tagNames(CacheTotals{}, MeanCacheTotals{})
)

// fleetKey is the fleet's group: its servers' totals.
const fleetKey = "per_server"

// tagNames is the JSON names of the fields of vs' struct types.
func tagNames(vs ...any) map[string]bool {
	names := map[string]bool{}
	for _, v := range vs {
		t := reflect.TypeOf(v)
		for i := range t.NumField() {
			if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
				names[name] = true
			}
		}
	}
	return names
}

// keep drops from the JSON object b (every key of Totals or MeanTotals)
// the keys its run does not carry: a herd run's, all but its own; a
// request-level run's, the groups s has not.
func (s jsonShape) keep(b []byte, requestLevel bool) ([]byte, error) {
	return dropKeys(b, func(k string) bool {
		switch {
		case k == fleetKey:
			return !requestLevel || s&shapeFleet == 0
		case chainKeys[k]:
			return !requestLevel || s&shapeChain == 0
		case channelKeys[k]:
			return !requestLevel || s&shapeChannel == 0
		case cacheKeys[k]:
			return !requestLevel || s&shapeCache == 0
		case requestKeys[k]:
			return !requestLevel
		}
		return false
	})
}

// dropKeys is the JSON object b without the keys drop says, the others
// in their order.
func dropKeys(b []byte, drop func(string) bool) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if drop(key) {
			continue
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}
