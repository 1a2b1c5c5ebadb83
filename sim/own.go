package sim

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/backoff-playground/playground/backoff"
)

// A model's own parameters: a model whose knob no other model has
// declares it in its file with RegisterParam, and the parameter joins
// ParamNames, so the CLI's flags, the page's URL keys and the JSON keys
// carry it, and Set, Get and Validate read it, with no case of its own in
// params.go. Its value lives in Config.Own, a fixed array, so that a
// Config stays a plain value compared with ==.

// ParamKind is what an own parameter's value is.
type ParamKind uint8

const (
	// FloatParam is a number: Set takes 0.5 or 0,5.
	FloatParam ParamKind = iota
	// IntParam is a whole number.
	IntParam
	// DurationParam is a duration (250ms, 1.5s); its Min, Max and
	// Default are in seconds.
	DurationParam
)

// MaxOwnParams is how many own parameters all models together may
// declare: Config.Own's length.
const MaxOwnParams = 8

// OwnValues are the own parameters' values, indexed by registration, in
// each one's kind's unit (nanoseconds for a duration).
type OwnValues [MaxOwnParams]float64

// ModelParam is a parameter of one model's own.
type ModelParam struct {
	// Name is its CLI flag, URL key and JSON key.
	Name string
	Kind ParamKind
	// Min, Max bound it (inclusive), Default is DefaultConfig's value:
	// numbers, or seconds for a DurationParam.
	Min, Max, Default float64
	// Help is the CLI's line for its flag, in English.
	Help string
	// Model is the model that reads it.
	Model ServerModel

	slot int
}

// ownParams are the registered own parameters, by slot. Written only while
// the package initialises, like models.
var ownParams []*ModelParam

// RegisterParam declares a parameter of model m's own and returns its
// handle, with which the model reads it (Float, Int, Duration). Call it
// from a package-level var of the model's file, after the model's
// Register: "var gateOpen = RegisterParam(Gate, ModelParam{...})". It
// panics on a name taken, an empty or inverted range, a default outside
// it, or more than MaxOwnParams: programming errors, found as the
// package initialises.
func RegisterParam(m ServerModel, p ModelParam) *ModelParam {
	switch {
	case m.Model() == nil:
		panic("sim: parameter " + p.Name + " of no registered model")
	case p.Name == "" || isPolicyParam(p.Name) || slices.Contains(ParamNames, p.Name):
		panic("sim: parameter " + strconv.Quote(p.Name) + " registered twice or empty")
	case !(p.Min <= p.Default && p.Default <= p.Max) || p.Kind > DurationParam:
		panic("sim: parameter " + p.Name + ": default outside its range, or no such kind")
	case p.Kind == DurationParam && (p.Min < 0 || p.Max > MaxOwnDuration.Seconds()):
		panic("sim: parameter " + p.Name + ": a duration from 0 to MaxOwnDuration")
	case len(ownParams) == MaxOwnParams:
		panic("sim: more than MaxOwnParams own parameters")
	}
	p.Model, p.slot = m, len(ownParams)
	q := &p
	ownParams = append(ownParams, q)
	ParamNames = append(ParamNames, p.Name)
	return q
}

// MaxOwnDuration bounds a DurationParam: a float64 holds every
// nanosecond up to it exactly, so Get gives back what Set read.
const MaxOwnDuration = time.Duration(1 << 53)

// ParamOwn is the own parameter named name, nil for none (the built-in
// parameters are nobody's own).
func ParamOwn(name string) *ModelParam {
	for _, p := range ownParams {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Float is p's value in c.
func (p *ModelParam) Float(c *Config) float64 { return c.Own[p.slot] }

// Int is p's value in c, an IntParam's.
func (p *ModelParam) Int(c *Config) int { return int(c.Own[p.slot]) }

// Duration is p's value in c, a DurationParam's.
func (p *ModelParam) Duration(c *Config) time.Duration { return time.Duration(c.Own[p.slot]) }

// scale is what a value in p's Min/Max/Default unit is multiplied by to
// be stored: nanoseconds per second for a duration.
func (p *ModelParam) scale() float64 {
	if p.Kind == DurationParam {
		return float64(time.Second)
	}
	return 1
}

// set reads v into c (Config.Set): the kind's parser, and its range error
// naming the field, the value and the bounds.
func (p *ModelParam) set(c *Config, v string) error {
	var f float64
	switch p.Kind {
	case IntParam:
		n, err := backoff.ParseInt(p.Name, v, int(p.Min), int(p.Max))
		if err != nil {
			return err
		}
		f = float64(n)
	case DurationParam:
		d, err := backoff.ParseDuration(p.Name, v, p.dur(p.Max))
		if err == nil {
			err = backoff.CheckDuration(p.Name, d, p.dur(p.Min), p.dur(p.Max))
		}
		if err != nil {
			return err
		}
		f = float64(d)
	default:
		var err error
		if f, err = backoff.ParseFloat(p.Name, v, p.Min, p.Max); err != nil {
			return err
		}
	}
	c.Own[p.slot] = f
	return nil
}

func (p *ModelParam) dur(sec float64) time.Duration {
	return time.Duration(math.Round(sec * float64(time.Second)))
}

// get is p's text in c (Config.Get).
func (p *ModelParam) get(c *Config) string {
	switch p.Kind {
	case IntParam:
		return strconv.Itoa(p.Int(c))
	case DurationParam:
		return backoff.FormatDuration(p.Duration(c))
	}
	return formatFloat(p.Float(c))
}

// check is p's range check on a config built in code (Config.Validate).
func (p *ModelParam) check(c *Config) error {
	v := c.Own[p.slot]
	switch p.Kind {
	case IntParam:
		// ParseInt refuses 2.5 as it refuses 0 in a range from 1.
		_, err := backoff.ParseInt(p.Name, formatFloat(v), int(p.Min), int(p.Max))
		return err
	case DurationParam:
		return backoff.CheckDuration(p.Name, time.Duration(v), p.dur(p.Min), p.dur(p.Max))
	}
	return backoff.CheckFloat(p.Name, v, p.Min, p.Max)
}

// ownDefaults are every own parameter's default (DefaultConfig).
func ownDefaults() OwnValues {
	var o OwnValues
	for _, p := range ownParams {
		o[p.slot] = p.Default * p.scale()
	}
	return o
}

// validateOwn checks every own parameter alone, as Set would have.
func (c *Config) validateOwn() error {
	for _, p := range ownParams {
		if err := p.check(c); err != nil {
			return err
		}
	}
	return nil
}
