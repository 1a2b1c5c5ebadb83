// Package sim is a deterministic discrete-event simulator of many clients
// retrying against one server (issue 3).
package sim
