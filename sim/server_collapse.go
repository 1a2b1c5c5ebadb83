package sim

// collapse is the collapse model's load meter: the calls arriving in the
// current window of window seconds and in the previous one. Invariant: cur
// counts the arrivals in window idx (t/window), prev those in window
// idx-1, 0 if it had none or is not the one before.
type collapse struct {
	window float64 // seconds, > 0
	factor float64 // CollapseFactor
	idx    int64
	cur    int
	prev   int
}

// rate counts a call arriving at t and returns the throughput that the
// offered load over the previous window leaves of capacity:
// C / (1 + f*(load/C - 1)) above capacity, C at or below it.
func (c *collapse) rate(t, capacity float64) float64 {
	w := int64(t / c.window)
	switch {
	case w == c.idx:
		c.cur++
	case w == c.idx+1:
		c.prev, c.cur, c.idx = c.cur, 1, w
	default:
		c.prev, c.cur, c.idx = 0, 1, w
	}
	if load := float64(c.prev) / c.window / capacity; load > 1 {
		return capacity / (1 + c.factor*(load-1))
	}
	return capacity
}

// peek is the rate the load over the previous window leaves of capacity,
// without counting a call (as rate would).
func (c *collapse) peek(capacity float64) float64 {
	if load := float64(c.prev) / c.window / capacity; load > 1 {
		return capacity / (1 + c.factor*(load-1))
	}
	return capacity
}
