package wire

import (
	"encoding/json"
	"errors"
	"net/url"

	"github.com/backoff-playground/playground/backoff"
)

// answer is a reading as JSON: a result and its policy's query, or why
// there is none.
type answer struct {
	Result *Result  `json:"result,omitempty"`
	Query  string   `json:"query"`
	Error  *failure `json:"error,omitempty"`
}

// failure is an error of the reading, by its type.
type failure struct {
	// Kind is "none", "too-long", "refused", "field", or "other" (only its
	// Message crosses).
	Kind    string              `json:"kind"`
	Formats []string            `json:"formats,omitempty"`
	Reason  string              `json:"reason,omitempty"`
	Len     int                 `json:"len,omitempty"`
	AtLeast bool                `json:"at_least,omitempty"`
	Syntax  string              `json:"syntax,omitempty"`
	Limit   int                 `json:"limit,omitempty"`
	Field   *backoff.FieldError `json:"field,omitempty"`
	Message string              `json:"message"`
}

// Encode writes a reading, its result or its error, as JSON.
func Encode(res *Result, err error) []byte {
	var a answer
	if err != nil {
		a.Error = encodeError(err)
	} else if res != nil {
		a.Result, a.Query = res, Query(res.Policy)
	}
	b, jerr := json.Marshal(a)
	if jerr != nil {
		b, _ = json.Marshal(answer{Error: &failure{Kind: "other", Message: jerr.Error()}})
	}
	return b
}

func encodeError(err error) *failure {
	f := &failure{Kind: "other", Message: err.Error()}
	var np *NoPolicyError
	var tl *TooLongError
	var re *RefusedError
	var fe *backoff.FieldError
	switch {
	case errors.As(err, &np):
		f.Kind, f.Formats, f.Reason = "none", np.Formats, np.Reason
	case errors.As(err, &tl):
		f.Kind, f.Len, f.AtLeast = "too-long", tl.Len, tl.AtLeast
	case errors.As(err, &re):
		f.Kind, f.Syntax, f.Reason, f.Limit = "refused", re.Syntax, re.Reason, re.Limit
	case errors.As(err, &fe):
		f.Kind, f.Field = "field", fe
	}
	return f
}

// Decode reads what Encode wrote: the result, its policy replayed from
// its query as the page reads a link, or the error with its type.
func Decode(b []byte) (*Result, error) {
	var a answer
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, err
	}
	if f := a.Error; f != nil {
		switch f.Kind {
		case "none":
			return nil, &NoPolicyError{Formats: f.Formats, Reason: f.Reason}
		case "too-long":
			return nil, &TooLongError{Len: f.Len, AtLeast: f.AtLeast}
		case "refused":
			return nil, &RefusedError{Syntax: f.Syntax, Reason: f.Reason, Limit: f.Limit}
		case "field":
			if f.Field != nil {
				return nil, f.Field
			}
		}
		return nil, errors.New(f.Message)
	}
	if a.Result == nil {
		return nil, errors.New("wire: an answer with neither a result nor an error")
	}
	q, err := url.ParseQuery(a.Query)
	if err != nil {
		return nil, err
	}
	p := backoff.Default()
	for _, name := range backoff.ParamNames {
		if vs, ok := q[name]; ok {
			if err := p.Set(name, vs[0]); err != nil {
				return nil, err
			}
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	a.Result.Policy = p
	return a.Result, nil
}
