package importer

import (
	"github.com/backoff-playground/playground/backoff"
	"github.com/backoff-playground/playground/backoff/importer/wire"
)

// The reading's data lives in package wire, for the page, which shows a
// reading without linking the readers; these are its names here.

const (
	MaxInput      = wire.MaxInput
	MaxCandidates = wire.MaxCandidates

	CodeUnreadable      = wire.CodeUnreadable
	CodeIgnored         = wire.CodeIgnored
	CodeRange           = wire.CodeRange
	CodeInvalid         = wire.CodeInvalid
	CodeBudget          = wire.CodeBudget
	CodeRounding        = wire.CodeRounding
	CodeDeadlineTimeout = wire.CodeDeadlineTimeout
	CodeSeveral         = wire.CodeSeveral
	CodeThrottleBase    = wire.CodeThrottleBase
	CodeCapDrawn        = wire.CodeCapDrawn
	CodeParamDefault    = wire.CodeParamDefault
	CodeNotInText       = wire.CodeNotInText
	CodeVersion         = wire.CodeVersion

	ReasonClassify    = wire.ReasonClassify
	ReasonPerTry      = wire.ReasonPerTry
	ReasonUnknown     = wire.ReasonUnknown
	ReasonNotModelled = wire.ReasonNotModelled

	RefusedDepth  = wire.RefusedDepth
	RefusedValues = wire.RefusedValues
)

var (
	// Codes lists every Warning code.
	Codes = wire.Codes
	// Reasons lists every CodeIgnored reason.
	Reasons = wire.Reasons
)

type (
	Result        = wire.Result
	Setting       = wire.Setting
	Warning       = wire.Warning
	Budget        = wire.Budget
	Candidate     = wire.Candidate
	NoPolicyError = wire.NoPolicyError
	TooLongError  = wire.TooLongError
	RefusedError  = wire.RefusedError
)

// Query is the page's URL query for p (wire.Query).
func Query(p backoff.Policy) string { return wire.Query(p) }
