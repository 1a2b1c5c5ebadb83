package app

import (
	"strings"
	"testing"
)

func TestParseLesson(t *testing.T) {
	src := "title: Knobs\nquery: attempts=6&jitter=none\nview: table\n---\nFirst **bold** and `code`.\n\n- one\n- two\n---try\nMove it.\n---question\nWhy?\n---answer\nBecause 31 s.\n---links\ncenkalti | preset=cenkalti\n"
	l, err := parseLesson(src)
	if err != nil {
		t.Fatal(err)
	}
	if l.Title != "Knobs" || l.View != "table" || len(l.Text) != 2 || l.Answer != "Because 31 s." || len(l.Links) != 1 || l.Links[0].Query != "preset=cenkalti" {
		t.Fatalf("%+v", l)
	}
	if l, err := parseLesson(strings.Replace(src, "view: table\n", "view: herd\nalso: flow\n", 1)); err != nil || l.View != "herd" || l.Also != "flow" {
		t.Errorf("a second widget: %+v, %v", l, err)
	}
	rs := inline("a **b** `c` d*e")
	if len(rs) != 5 || rs[4].Text != " d*e" || !rs[1].Bold || rs[1].Text != "b" || !rs[3].Code || rs[3].Text != "c" {
		t.Fatalf("inline: %+v", rs)
	}
	for _, bad := range []string{
		"", "title: x\nview: table\n", "title: x\nview: chart\n---\ntext\n---try\na\n---question\nb\n---answer\nc\n",
		"view: table\n---\ntext\n---try\na\n---question\nb\n---answer\nc\n",
		"title: x\nview: table\n---\ntext\n---try\na\n---question\nb\n",
		"title: x\nview: table\nwho: me\n---\ntext\n---try\na\n---question\nb\n---answer\nc\n",
		"title: x\nview: table\n---\ntext\n---try\na\n---question\nb\n---answer\nc\n---links\nno bar\n",
		"title: x\nview: herd\nalso: film\n---\ntext\n---try\na\n---question\nb\n---answer\nc\n",
		"title: x\nview: herd\nalso: herd\n---\ntext\n---try\na\n---question\nb\n---answer\nc\n",
		strings.Repeat("x", maxLessonBytes+1),
	} {
		if _, err := parseLesson(bad); err == nil {
			t.Errorf("accepted %.60q", bad)
		}
	}
}

func FuzzParseLesson(f *testing.F) {
	f.Add("title: x\nview: table\n---\ntext\n---try\na\n---question\nb\n---answer\nc\n---links\nl | q\n")
	f.Add("title:\n---\n---\n---links\n|\n")
	f.Fuzz(func(t *testing.T, s string) {
		l, err := parseLesson(s)
		if err == nil && (l.Title == "" || len(l.Text) == 0) {
			t.Fatalf("%q parsed without a title or text", s)
		}
		for _, p := range l.Text {
			_ = inline(p)
		}
	})
}
