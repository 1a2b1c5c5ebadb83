package sim

// outage is the outage model's dead time, [start, end) in seconds; after
// it the server serves as capacity does. The zero value covers nothing.
type outage struct {
	start, end float64
}

// covers reports whether t falls in the outage.
func (o outage) covers(t float64) bool { return t >= o.start && t < o.end }
