package app

import (
	"math"
	"strconv"
	"time"

	"github.com/backoff-playground/playground/app/chart"
	"github.com/backoff-playground/playground/app/i18n"
	"github.com/backoff-playground/playground/sim"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Replay plays a herd run over simulated time: a playhead sweeps the
// timeline at 1×, 10× or 100×, and the callers waiting, the calls in flight,
// the clients that succeeded and those that gave up are counted at the
// playhead, and the calls sent up to it are drawn as marks over the chart
// (chart.HerdMarks: a tick per bucket at its calls' height, one path). It
// reads the run's timeline only: nothing is simulated again.

// replayState is the replay's: the playhead's time (seconds), whether it
// plays, its speed, and a generation that stops an old ticker.
type replayState struct {
	at      float64
	playing bool
	speed   float64
	gen     int
}

// replayFrame is how often a playing replay moves its playhead.
const replayFrame = 50 * time.Millisecond

// replayCounts are the counts at time t of a run's timeline: from the
// buckets that end by t. Succeeded and GaveUp only grow as t does: a
// success counts when the server answered; a client that finished (it
// started and no longer waits) without a success gave up. A success is
// counted when the server answers it and its client finishes when the
// answer arrives, a hop later: at a bucket's end the successes on their
// way back would read as give-ups undone (133 then 131 one step later).
// So GaveUp is the most of finished less succeeded over the buckets so
// far: the clients known to have given up by then, the run's own count at
// its end. A call sent and not answered is in flight (none at the end of
// a run, but for those a call limit or the horizon stopped). Calls are
// those of the bucket under the playhead.
type replayCounts struct {
	Waiting, InFlight, Succeeded, GaveUp, Calls int
}

func countsAt(r *sim.Result, t float64) replayCounts {
	var c replayCounts
	if r == nil || r.BucketWidth <= 0 {
		return c
	}
	done := bucketsBy(r, t)
	started, calls, answered := 0, 0, 0
	for _, b := range r.Timeline[:done] {
		// Started, not calls less retries: a first try the open breaker
		// refused is no call, and its client would never have counted.
		started += b.Started
		calls += b.Calls
		answered += b.OK + b.Rejected
		c.Succeeded += b.OK
		c.Waiting = b.Waiting
		c.GaveUp = max(c.GaveUp, started-b.Waiting-c.Succeeded)
	}
	if done < len(r.Timeline) {
		c.Calls = r.Timeline[done].Calls
	}
	c.InFlight = max(calls-answered, 0)
	return c
}

// bucketsBy is how many of r's buckets have ended by t, by index: testing
// each bucket's Start + width against t missed the last bucket at the
// replay's end (21.700000000000003 + 0.1 > 21.8), and with it the clients
// that finished there.
func bucketsBy(r *sim.Result, t float64) int {
	n := int(math.Floor(t/r.BucketWidth + 1e-9))
	return min(max(n, 0), len(r.Timeline))
}

// end is the time the replay runs to: the run's last bucket.
func replayEnd(r *sim.Result) float64 {
	if r == nil {
		return 0
	}
	return float64(len(r.Timeline)) * r.BucketWidth
}

// herdReplay is the herd's chart with its replay, a component: the chart,
// the playhead and the marks over it, and the replay's bar. It owns the
// replay; a new run of the herd (Run, the runner's generation) puts the
// playhead back at the start, keeping the speed.
type herdReplay struct {
	app.Compo

	Lang    i18n.Lang
	A, B    *herdOut
	Rev     uint64
	Run     uint64
	Present bool

	rp  replayState
	run uint64
	own app.Context // the component's: the ticker's, which outlives a click
}

func (c *herdReplay) OnInit() { c.run = c.Run }

func (c *herdReplay) OnMount(ctx app.Context) { c.own = ctx }

func (c *herdReplay) OnUpdate(ctx app.Context) {
	if c.run != c.Run {
		c.run = c.Run
		c.rp = replayState{speed: c.rp.speed, gen: c.rp.gen + 1}
	}
}

// first is the first policy's first run: the one replayed.
func (c *herdReplay) first() *sim.Result {
	if c.A == nil {
		return nil
	}
	return c.A.first
}

func (c *herdReplay) Render() app.UI {
	rp := c.rp
	idle := rp.at == 0 && !rp.playing
	return app.Div().Body(
		app.Div().Class("herd-chart-wrap").Body(
			&herdChart{A: c.A, B: c.B, Rev: c.Rev, Lang: c.Lang, Present: c.Present},
			app.Div().ID("playhead").Class("playhead").Hidden(idle).Aria("hidden", "true"),
			app.Div().Class("replay-layer").Hidden(idle || c.B != nil).Body(replayLayer()),
		),
		c.renderBar(),
	)
}

// onSpeed sets the replay's speed.
func (c *herdReplay) onSpeed(ctx app.Context, e app.Event) {
	if v, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64); err == nil && v > 0 {
		c.rp.speed = v
	}
}

// onStep moves the playhead one bucket on, paused.
func (c *herdReplay) onStep(ctx app.Context, e app.Event) {
	rp := &c.rp
	res := c.first()
	rp.playing = false
	rp.gen++
	if res != nil {
		rp.at = min(rp.at+res.BucketWidth, replayEnd(res))
	}
	c.placePlayhead()
}

// onPlay plays the run, or pauses it.
func (c *herdReplay) onPlay(ctx app.Context, e app.Event) {
	rp := &c.rp
	if rp.speed == 0 {
		rp.speed = 10
	}
	res := c.first()
	end := replayEnd(res)
	rp.gen++
	if rp.playing || res == nil {
		rp.playing = false
		return
	}
	if rp.at >= end {
		rp.at = 0
	}
	rp.playing = true
	c.placePlayhead() // the marks of an earlier run go at once
	gen := rp.gen
	own := c.own
	own.Async(func() {
		for {
			time.Sleep(replayFrame)
			stop := false
			own.Dispatch(func(ctx app.Context) {
				if rp.gen != gen || !rp.playing {
					stop = true
					return
				}
				rp.at = min(rp.at+rp.speed*replayFrame.Seconds(), end)
				if rp.at >= end {
					rp.playing = false
				}
				c.placePlayhead()
			})
			if stop || c.rp.gen != gen {
				return
			}
		}
	})
}

// placePlayhead moves the playhead line over the herd chart and redraws
// the replay's marks (the chart is an SVG string the playhead cannot live
// in; the line is positioned through the DOM's style object, which the
// page's CSP allows, and the marks are the one path of a layer over the
// chart, whose d is set: two DOM calls a frame, however many calls).
func (c *herdReplay) placePlayhead() {
	res := c.first()
	if !app.IsClient || res == nil {
		return
	}
	el := app.Window().GetElementByID("playhead")
	if !el.Truthy() {
		return
	}
	end := replayEnd(res)
	if end <= 0 {
		return
	}
	// The wide chart's plot spans x 58..628 of 640 units (chart.Herd).
	x := (58 + c.rp.at/end*570) / 640 * 100
	el.Get("style").Set("left", strconv.FormatFloat(x, 'f', 2, 64)+"%")
	if m := app.Window().GetElementByID("replay-marks"); m.Truthy() {
		m.Call("setAttribute", "d", chart.HerdMarks(c.A.series(), res, c.rp.at))
	}
}

// replayLayer is the layer over the herd chart that holds the replay's
// marks: the chart's viewBox, one path (its d set by placePlayhead).
func replayLayer() app.UI {
	w, h := chart.HerdFrame()
	return app.Raw(`<svg xmlns="http://www.w3.org/2000/svg" class="chart replay-marks" viewBox="0 0 ` +
		strconv.FormatFloat(w, 'f', -1, 64) + ` ` + strconv.FormatFloat(h, 'f', -1, 64) +
		`" aria-hidden="true" focusable="false"><path id="replay-marks" class="replay-mark" d=""></path></svg>`)
}

// renderBar is the replay's bar: play, step, speed, the time and the
// counts at the playhead.
func (c *herdReplay) renderBar() app.UI {
	l := c.Lang
	var res *sim.Result
	if c.B == nil {
		res = c.first()
	}
	rp := c.rp
	n := countsAt(res, rp.at)
	play := "replay.play"
	if rp.playing {
		play = "replay.pause"
	}
	speeds := []string{"1", "10", "100"}
	opts := make([]app.UI, len(speeds))
	speed := rp.speed
	if speed == 0 {
		speed = 10
	}
	for i, s := range speeds {
		opts[i] = app.Option().Value(s).Selected(s == strconv.FormatFloat(speed, 'f', -1, 64)).Text(s + "×")
	}
	bucket := 0.0
	if res != nil {
		bucket = res.BucketWidth
	}
	// Before the first run the row keeps its place, unseen: the chart's
	// arrival then moves nothing under it.
	cls := "replay"
	if res == nil {
		cls += " idle"
	}
	return app.Div().ID("replay").Class(cls).Hidden(c.B != nil).DataSet("bucket-s", strconv.FormatFloat(bucket, 'f', -1, 64)).Body(
		app.Button().ID("replay-play").Type("button").Class("secondary small").DataSet("playing", boolText(rp.playing)).
			OnClick(c.onPlay).Text(l.T(play)),
		app.Button().ID("replay-step").Type("button").Class("secondary small").OnClick(c.onStep).Text(l.T("replay.step")),
		app.Select().ID("replay-speed").Aria("label", l.T("replay.speed")).OnChange(c.onSpeed).Body(opts...),
		app.Span().ID("replay-time").Class("replay-time").DataSet("seconds", strconv.FormatFloat(rp.at, 'f', 3, 64)).
			Text(l.Seconds(rp.at)),
		app.Span().ID("replay-counts").Class("replay-counts").Text(l.F("replay.counts",
			l.Int(int64(n.Waiting)), l.Int(int64(n.InFlight)), l.Int(int64(n.Succeeded)), l.Int(int64(n.GaveUp)), l.Int(int64(n.Calls)))),
	)
}
