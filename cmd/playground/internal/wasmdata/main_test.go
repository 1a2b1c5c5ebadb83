package main

import (
	"bytes"
	"strings"
	"testing"
)

// module is a module of the given sections after WebAssembly's header.
func module(secs ...section) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range secs {
		b = appendSection(b, s.id, s.body)
	}
	return b
}

// image is memory 0 as a module's active data segments leave it (up to
// the last segment's end), and how many segments it has; ok is false for
// a module merge does not read or one whose image is too large to draw.
func image(t testing.TB, m []byte) (mem []byte, n int, ok bool) {
	secs, err := sections(m)
	if err != nil {
		return nil, 0, false
	}
	for _, s := range secs {
		if s.id != sectionData {
			continue
		}
		segs, err := readData(s.body)
		if err != nil {
			return nil, 0, false
		}
		for _, sg := range segs {
			end := sg.off + int64(len(sg.data))
			if end > 1<<22 {
				return nil, 0, false
			}
			if end > int64(len(mem)) {
				mem = append(mem, make([]byte, end-int64(len(mem)))...)
			}
			copy(mem[sg.off:], sg.data)
		}
		n += len(segs)
	}
	return mem, n, true
}

func dataSection(segs ...segment) section { return section{sectionData, writeData(segs)} }

func TestMerge(t *testing.T) {
	typ := section{1, []byte{1, 0x60, 0, 0}}
	in := module(typ, section{sectionDataCount, []byte{4}},
		dataSection(segment{100, []byte("ab")}, segment{0, []byte("xy")}, segment{5000, []byte("z")}, segment{103, []byte("c")}))
	out, err := merge(in, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := module(typ, section{sectionDataCount, []byte{3}},
		dataSection(segment{0, []byte("xy")}, segment{100, []byte("ab\x00c")}, segment{5000, []byte("z")}))
	if !bytes.Equal(out, want) {
		t.Errorf("merged:\n %q\nwant\n %q", out, want)
	}
	a, _, _ := image(t, in)
	b, n, _ := image(t, out)
	if !bytes.Equal(a, b) || n != 3 {
		t.Errorf("the memory differs after the merge, or %d segments, want 3", n)
	}
	// A gap of 0 merges only segments that touch.
	if out, err := merge(module(dataSection(segment{0, []byte("a")}, segment{1, []byte("b")}, segment{3, []byte("c")})), 0); err != nil {
		t.Fatal(err)
	} else if _, n, _ := image(t, out); n != 2 {
		t.Errorf("gap 0: %d segments, want 2", n)
	}
}

func TestMergeRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"not wasm", []byte("hello, world"), "not a WebAssembly module"},
		{"overlap", module(dataSection(segment{0, []byte("abcd")}, segment{2, []byte("x")})), "overlap at offset 2"},
		{"passive", module(section{sectionData, []byte{1, 1, 1, 'a'}}), "flags 1"},
		{"global offset", module(section{sectionData, []byte{1, 0, 0x23, 0, opEnd, 1, 'a'}}), "not an i32.const"},
		{"short section", []byte("\x00asm\x01\x00\x00\x00\x0b\x09\x01"), "truncated"},
		{"short segment", module(section{sectionData, []byte{1, 0, opI32Const, 0, opEnd, 9, 'a'}}), "truncated"},
		{"trailing bytes", module(section{sectionData, []byte{0, 7}}), "bytes after"},
	} {
		if _, err := merge(c.in, 4096); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// Whatever a module holds, merge does not panic, and what it merges
// leaves memory as it was.
func FuzzMerge(f *testing.F) {
	f.Add(module(dataSection(segment{7, []byte("ab")}, segment{0, []byte("x")})), 3)
	f.Add(module(section{sectionDataCount, []byte{2}}, dataSection(segment{1 << 20, []byte("a")}, segment{9, nil})), 0)
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0b\x85\x80\x80\x80\x00\x01\x00\x41\x7f\x0b"), 100)
	f.Fuzz(func(t *testing.T, in []byte, gap int) {
		if gap < 0 || gap > 1<<16 {
			return
		}
		before, _, ok := image(t, in)
		out, err := merge(in, gap)
		if err != nil || !ok {
			return
		}
		after, _, ok := image(t, out)
		if !ok || !bytes.Equal(before, after) {
			t.Fatalf("memory differs after the merge of %q", in)
		}
	})
}
