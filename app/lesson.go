package app

import (
	"strconv"
	"strings"
)

// Lessons are content files (static/lessons/<lang>/NN.txt), fetched when a
// lesson opens and cached by the service worker, never compiled into
// app.wasm. The format is small and strict:
//
//	title: The four knobs
//	query: base=1s&factor=2&cap=30s&attempts=6&jitter=none
//	view: table
//	also: flow       (optional: a second widget the reader may switch to)
//	---
//	Text: paragraphs split by blank lines; **bold**, `code`; "- " lists.
//	---try
//	What to change and what to watch.
//	---question
//	A question.
//	---answer
//	Its answer.
//	---links
//	label | query

// lessonCount is how many lessons there are, in both languages.
const lessonCount = 16

// lessonList is state.Lesson for the lessons' index, ?lesson=list.
const (
	lessonList      = -1
	lessonListValue = "list"
)

// lessonValue is ?lesson='s value for state.Lesson n.
func lessonValue(n int) string {
	if n == lessonList {
		return lessonListValue
	}
	return strconv.Itoa(n)
}

// lesson is one parsed lesson file.
type lesson struct {
	Title, Query, View string
	Also               string   // a second widget offered beside View ("": none)
	Text               []string // paragraphs (a list item starts with "- ")
	Try, Question      string
	Answer             string
	Links              []lessonLink
}

type lessonLink struct{ Label, Query string }

// maxLessonBytes bounds what the parser reads: a lesson is a page of text.
const maxLessonBytes = 32 << 10

// parseLesson reads a lesson file. It reports the first thing missing or
// malformed, so a broken file says where it is broken.
func parseLesson(src string) (lesson, error) {
	var l lesson
	if len(src) > maxLessonBytes {
		return l, lessonError("longer than 32 KB")
	}
	src = strings.ReplaceAll(src, "\r\n", "\n")
	head, rest, ok := strings.Cut(src, "\n---\n")
	if !ok {
		return l, lessonError("no --- after the header")
	}
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			if strings.TrimSpace(line) == "" {
				continue
			}
			return l, lessonError("header line without a colon: " + clip(line, 40))
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "title":
			l.Title = v
		case "query":
			l.Query = v
		case "view":
			l.View = v
		case "also":
			l.Also = v
		default:
			return l, lessonError("unknown header " + clip(k, 20))
		}
	}
	if l.Title == "" || !contains(views, l.View) {
		return l, lessonError("a title and a view (" + strings.Join(views, ", ") + ") are needed")
	}
	if l.Also != "" && (!contains(views, l.Also) || l.Also == l.View) {
		return l, lessonError("also names another view: " + clip(l.Also, 20))
	}
	sections := map[string]*string{"try": &l.Try, "question": &l.Question, "answer": &l.Answer}
	parts := strings.Split(rest, "\n---")
	text := parts[0]
	for _, p := range parts[1:] {
		name, body, _ := strings.Cut(p, "\n")
		name = strings.TrimSpace(name)
		body = strings.TrimSpace(body)
		if name == "links" {
			for _, line := range strings.Split(body, "\n") {
				if line = strings.TrimSpace(line); line == "" {
					continue
				}
				label, q, ok := strings.Cut(line, "|")
				if !ok {
					return l, lessonError("a link line wants 'label | query': " + clip(line, 40))
				}
				l.Links = append(l.Links, lessonLink{strings.TrimSpace(label), strings.TrimSpace(q)})
			}
			continue
		}
		dst, ok := sections[name]
		if !ok {
			return l, lessonError("unknown section ---" + clip(name, 20))
		}
		*dst = body
	}
	for _, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			l.Text = append(l.Text, para)
		}
	}
	if len(l.Text) == 0 || l.Try == "" || l.Question == "" || l.Answer == "" {
		return l, lessonError("the text, ---try, ---question and ---answer are needed")
	}
	return l, nil
}

type lessonError string

func (e lessonError) Error() string { return "lesson: " + string(e) }

// lessonPath is where lesson n (1-based) is, relative to the page.
func lessonPath(lang string, n int) string {
	return "web/static/lessons/" + lang + "/" + pad2(n) + ".txt"
}

func pad2(n int) string {
	if n < 10 {
		return "0" + string(rune('0'+n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}

// inline splits a line into runs of plain text, **bold** and `code`, for
// the page to draw as elements (never as HTML: lesson text is data).
type run struct {
	Text       string
	Bold, Code bool
}

func inline(s string) []run {
	var out []run
	plain := func(t string) {
		if n := len(out); n > 0 && !out[n-1].Bold && !out[n-1].Code {
			out[n-1].Text += t
			return
		}
		out = append(out, run{Text: t})
	}
	for s != "" {
		i := strings.IndexAny(s, "*`")
		if i < 0 {
			plain(s)
			break
		}
		if i > 0 {
			plain(s[:i])
			s = s[i:]
		}
		switch {
		case strings.HasPrefix(s, "**"):
			if j := strings.Index(s[2:], "**"); j >= 0 {
				out = append(out, run{Text: s[2 : 2+j], Bold: true})
				s = s[4+j:]
				continue
			}
		case s[0] == '`':
			if j := strings.IndexByte(s[1:], '`'); j >= 0 {
				out = append(out, run{Text: s[1 : 1+j], Code: true})
				s = s[2+j:]
				continue
			}
		}
		plain(s[:1])
		s = s[1:]
	}
	return out
}
