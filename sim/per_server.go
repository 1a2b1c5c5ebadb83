package sim

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/backoff-playground/playground/backoff"
)

// A fleet whose servers differ: Config.PerServer gives some servers of a
// fleet knobs of their own over the config's, as "K:KEY=VALUE,..." for
// server K (from 1), entries separated by ";": "2:concurrency=3,
// service=200ms" makes the second of three queue servers smaller and
// slower. A server keeps its fleet's model; the keys are the model's own
// fields and error-rate (Model.Fields: what one server does), not the
// caller's (timeout, drop-expired) nor the fleet's Retry-After, which the
// callers read. Each server of the request-level engine is set up from
// its own config (serverConfig), so the per-server figures, faults and
// laws need nothing more.

// ParamPerServer is the per-server knobs' parameter.
const ParamPerServer = "per-server"

// perServerEntry is one server's knobs.
type perServerEntry struct {
	k  int      // from 1
	kv []string // KEY=VALUE, canonical
}

// perServerForms is the value's form.
var perServerForms = []string{"K:KEY=VALUE[,KEY=VALUE...][;K:...]"}

// parsePerServer reads a per-server value into its canonical text: the
// servers in order, each key's value as Config.Get writes it. Each value
// is checked alone here; against the fleet (its size, its model) by
// Config.Validate.
func parsePerServer(v string) (string, error) {
	es, err := perServerEntries(v)
	if err != nil {
		return "", err
	}
	return perServerText(es), nil
}

func perServerEntries(v string) ([]perServerEntry, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	var out []perServerEntry
	for _, part := range strings.Split(v, ";") {
		ks, rest, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok || rest == "" {
			return nil, &backoff.FieldError{Field: ParamPerServer, Value: clip(v), Code: backoff.CodeFormat,
				Args: perServerForms, Allowed: perServerForms[0] + ", such as 2:concurrency=3,service=200ms"}
		}
		k, err := backoff.ParseInt(ParamPerServer, strings.TrimSpace(ks), 1, MaxServers)
		if err != nil {
			return nil, partErr(err, v, "K", "a server's number, 1 to "+strconv.Itoa(MaxServers))
		}
		// Kept in order of server as read (an insertion sort: a
		// generic sort's code would cost app.wasm more than these lists
		// will ever take).
		at := len(out)
		for at > 0 && out[at-1].k > k {
			at--
		}
		if at > 0 && out[at-1].k == k {
			return nil, &backoff.FieldError{Field: ParamPerServer, Value: clip(v), Part: "K", Code: backoff.CodeFormat,
				Args: perServerForms, Allowed: "each server once: server " + ks + " twice"}
		}
		keys := perServerKeys()
		vals := make([]string, len(keys)) // by key, in perServerKeys' order
		set := make([]bool, len(keys))
		c := DefaultConfig()
		for _, kv := range strings.Split(rest, ",") {
			key, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
			i := slices.Index(keys, strings.TrimSpace(key))
			if !ok || i < 0 {
				return nil, &backoff.FieldError{Field: ParamPerServer, Value: clip(v), Part: "KEY", Code: backoff.CodeChoice,
					Args: keys, Allowed: "a server's own knob: one of " + strings.Join(keys, ", ")}
			}
			key = keys[i]
			if set[i] {
				return nil, &backoff.FieldError{Field: ParamPerServer, Value: clip(v), Part: strconv.Itoa(k) + ":" + key,
					Code: backoff.CodeFormat, Args: perServerForms, Allowed: "each knob once a server: " + key + " twice"}
			}
			if err := c.Set(key, strings.TrimSpace(val)); err != nil {
				return nil, perServerErr(err, v, strconv.Itoa(k)+":"+key)
			}
			vals[i], set[i] = c.Get(key), true
		}
		e := perServerEntry{k: k}
		for i, val := range vals {
			if set[i] {
				e.kv = append(e.kv, keys[i]+"="+val)
			}
		}
		out = append(out, perServerEntry{})
		copy(out[at+1:], out[at:])
		out[at] = e
	}
	return out, nil
}

// perServerErr is err, a knob's, as per-server's: the whole value, the
// part K:KEY, and the knob's rule in words after the server and key.
func perServerErr(err error, v, part string) error {
	var fe *backoff.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	out := *fe
	out.Field, out.Value, out.Part = ParamPerServer, clip(v), part
	out.Allowed = "for " + part + ", " + fe.Allowed
	return &out
}

func perServerText(es []perServerEntry) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = strconv.Itoa(e.k) + ":" + strings.Join(e.kv, ",")
	}
	return strings.Join(parts, ";")
}

// perServerKeys are the knobs a server may have of its own: every
// model's fields but the callers', and the error rate.
func perServerKeys() []string {
	out := []string{}
	for _, f := range append(serverFields(), ParamErrorRate) {
		if f != ParamDropExpired && f != ParamRetryAfterS && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// serverConfig is c as server k of its fleet (from 0) sees it: c with
// the server's own knobs.
func (c *Config) serverConfig(k int) Config {
	cs := *c
	if c.PerServer == "" {
		return cs
	}
	es, _ := perServerEntries(c.PerServer)
	for _, e := range es {
		if e.k == k+1 {
			for _, kv := range e.kv {
				key, val, _ := strings.Cut(kv, "=")
				_ = cs.Set(key, val)
			}
		}
	}
	cs.PerServer = ""
	return cs
}

// QueueWorkers is the workers of the servers that queue, summed over the
// fleet with each server's own knobs: the most the timeline's Busy, which
// counts every server's, can reach (0 when no server queues).
func (c *Config) QueueWorkers() int {
	n := 0
	for k := range max(1, c.Servers) {
		if sc := c.serverConfig(k); sc.Server.Traits().Waits == WaitQueue {
			n += sc.Concurrency
		}
	}
	return n
}

// validatePerServer checks the per-server knobs against the fleet: a
// server that exists, a key its model reads, and each server's config
// valid for its model.
func (c *Config) validatePerServer() error {
	es, err := perServerEntries(c.PerServer)
	if err != nil || len(es) == 0 {
		return err
	}
	if c.Servers < 2 {
		return &backoff.FieldError{Field: ParamServers, Value: strconv.Itoa(c.Servers), Code: backoff.CodeAtLeast,
			Other: ParamPerServer, Args: []string{"2"}, Allowed: "at least 2 with per-server knobs (a fleet whose servers differ)"}
	}
	reads := c.Server.Model().Fields(nil)
	for _, e := range es {
		if e.k > c.Servers {
			return &backoff.FieldError{Field: ParamPerServer, Value: clip(c.PerServer), Part: "K", Code: backoff.CodeFormat,
				Args: perServerForms, Allowed: "servers numbered from 1 to " + strconv.Itoa(c.Servers) + " (--servers)"}
		}
		for _, kv := range e.kv {
			key, _, _ := strings.Cut(kv, "=")
			if key != ParamErrorRate && !slices.Contains(reads, key) {
				var keys []string
				for _, f := range reads {
					if slices.Contains(perServerKeys(), f) {
						keys = append(keys, f)
					}
				}
				keys = append(keys, ParamErrorRate)
				return &backoff.FieldError{Field: ParamPerServer, Value: clip(c.PerServer), Part: strconv.Itoa(e.k) + ":" + key,
					Code: backoff.CodeChoice, Args: keys,
					Allowed: "a knob the " + c.Server.String() + " model reads: one of " + strings.Join(keys, ", ")}
			}
		}
		cs := c.serverConfig(e.k - 1)
		if err := cs.Server.Model().Validate(&cs); err != nil {
			return perServerErr(err, c.PerServer, strconv.Itoa(e.k)+":"+fieldNamed(err))
		}
	}
	return nil
}

// fieldNamed is the field a field error names.
func fieldNamed(err error) string {
	var fe *backoff.FieldError
	if errors.As(err, &fe) {
		return fe.Field
	}
	return ""
}
