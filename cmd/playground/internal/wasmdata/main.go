// Command wasmdata rewrites a WebAssembly module's data section so that
// its active segments that lie within gap bytes of each other become one,
// the bytes between them written as zeros:
//
//	wasmdata [-gap 4096] module.wasm
//
// Go's linker (1.26) splits a program's data at every run of zeros longer
// than a segment's header, up to 100,000 segments, and each segment's
// header (its offset and length) is bytes that brotli cannot compress:
// app.wasm's 100,000 segments held 3.19 MB of data and cost 1,736,182
// bytes over the wire; merged into 3 (4.99 MB with the zeros) the module
// cost 1,612,824. What the module's memory holds after instantiation is
// the same byte for byte (zeros written where the memory is zero anyway).
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
)

func main() {
	gap := flag.Int("gap", 4096, "merge segments at most this many bytes apart")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmdata [-gap bytes] module.wasm")
		os.Exit(2)
	}
	path := flag.Arg(0)
	in, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmdata:", err)
		os.Exit(1)
	}
	out, err := merge(in, *gap)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmdata: %s: %v\n", path, err)
		os.Exit(1)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wasmdata:", err)
		os.Exit(1)
	}
}

const (
	sectionData      = 11
	sectionDataCount = 12
	opI32Const       = 0x41
	opEnd            = 0x0b
	// maxSegment bounds one merged segment, which the merge holds in
	// memory whole: a module's memory is at most 4 GiB, and a module
	// that asks more of a merge is refused, not allocated for.
	maxSegment = 1 << 30
)

var errTruncated = errors.New("truncated module")

// segment is an active data segment of memory 0: its offset and bytes.
type segment struct {
	off  int64
	data []byte
}

// merge returns module with its data segments merged (see the package
// doc), or an error for a module it does not read: not WebAssembly, or a
// data section with passive segments, other memories or offsets that are
// not constants, or segments that overlap (their order would then
// matter).
func merge(module []byte, gap int) ([]byte, error) {
	if len(module) < 8 || string(module[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	if gap < 0 {
		return nil, fmt.Errorf("gap %d, want 0 or more", gap)
	}
	secs, err := sections(module)
	if err != nil {
		return nil, err
	}
	var segs []segment
	data := 0
	for _, sec := range secs {
		if sec.id != sectionData {
			continue
		}
		if data++; data > 1 {
			return nil, errors.New("two data sections")
		}
		if segs, err = readData(sec.body); err != nil {
			return nil, err
		}
		if segs, err = join(segs, int64(gap)); err != nil {
			return nil, err
		}
	}
	out := slices.Clone(module[:8])
	for _, sec := range secs {
		switch sec.id {
		case sectionData:
			out = appendSection(out, sec.id, writeData(segs))
		case sectionDataCount: // what memory.init and data.drop may name
			out = appendSection(out, sec.id, appendUleb(nil, uint64(len(segs))))
		default:
			out = appendSection(out, sec.id, sec.body)
		}
	}
	return out, nil
}

// section is a module's section: its id and body.
type section struct {
	id   byte
	body []byte
}

// sections splits a module (past its header) into its sections.
func sections(module []byte) ([]section, error) {
	var secs []section
	for i := 8; i < len(module); {
		id := module[i]
		size, n, err := uleb(module[i+1:])
		if err != nil {
			return nil, err
		}
		start := i + 1 + n
		if size > uint64(len(module)-start) {
			return nil, errTruncated
		}
		secs = append(secs, section{id, module[start : start+int(size)]})
		i = start + int(size)
	}
	return secs, nil
}

// readData reads a data section's segments.
func readData(body []byte) ([]segment, error) {
	count, n, err := uleb(body)
	if err != nil {
		return nil, err
	}
	body = body[n:]
	if count > uint64(len(body)) { // each segment takes bytes
		return nil, errTruncated
	}
	segs := make([]segment, 0, count)
	for range count {
		flags, n, err := uleb(body)
		if err != nil {
			return nil, err
		}
		if flags != 0 {
			return nil, fmt.Errorf("a data segment with flags %d: only active segments of memory 0 are merged", flags)
		}
		body = body[n:]
		if len(body) < 1 || body[0] != opI32Const {
			return nil, errors.New("a data segment's offset is not an i32.const")
		}
		off, n, err := sleb(body[1:])
		if err != nil {
			return nil, err
		}
		body = body[1+n:]
		if len(body) < 1 || body[0] != opEnd {
			return nil, errors.New("a data segment's offset is not an i32.const")
		}
		body = body[1:]
		size, n, err := uleb(body)
		if err != nil {
			return nil, err
		}
		body = body[n:]
		if size > uint64(len(body)) {
			return nil, errTruncated
		}
		off = int64(uint32(off)) // i32.const is read as unsigned by memory.init
		segs = append(segs, segment{off: off, data: body[:size]})
		body = body[size:]
	}
	if len(body) != 0 {
		return nil, errors.New("bytes after the data section's segments")
	}
	return segs, nil
}

// join sorts segs by offset and merges those at most gap bytes apart.
func join(segs []segment, gap int64) ([]segment, error) {
	segs = slices.Clone(segs)
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.off, b.off) })
	var out []segment
	for _, s := range segs {
		if len(out) == 0 {
			out = append(out, segment{off: s.off, data: slices.Clone(s.data)})
			continue
		}
		last := &out[len(out)-1]
		end := last.off + int64(len(last.data))
		switch d := s.off - end; {
		case d < 0:
			return nil, fmt.Errorf("data segments overlap at offset %d", s.off)
		case d <= gap:
			if int64(len(last.data))+d+int64(len(s.data)) > maxSegment {
				return nil, fmt.Errorf("a merged segment would pass %d bytes", maxSegment)
			}
			last.data = append(last.data, make([]byte, d)...)
			last.data = append(last.data, s.data...)
		default:
			out = append(out, segment{off: s.off, data: slices.Clone(s.data)})
		}
	}
	return out, nil
}

// writeData is a data section's body of segs.
func writeData(segs []segment) []byte {
	b := appendUleb(nil, uint64(len(segs)))
	for _, s := range segs {
		b = append(b, 0, opI32Const)
		b = appendSleb(b, int64(int32(uint32(s.off))))
		b = append(b, opEnd)
		b = appendUleb(b, uint64(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

func appendSection(b []byte, id byte, body []byte) []byte {
	b = append(b, id)
	b = appendUleb(b, uint64(len(body)))
	return append(b, body...)
}

// uleb reads an unsigned LEB128 number of at most 32 bits' worth of
// bytes (5), as WebAssembly's u32.
func uleb(b []byte) (uint64, int, error) {
	var v uint64
	for i := 0; i < len(b) && i < 5; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1, nil
		}
	}
	return 0, 0, errTruncated
}

// sleb reads a signed LEB128 number of at most 5 bytes, as i32.
func sleb(b []byte) (int64, int, error) {
	var v int64
	for i := 0; i < len(b) && i < 5; i++ {
		v |= int64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			if s := 7 * (i + 1); s < 64 && b[i]&0x40 != 0 {
				v -= 1 << s
			}
			return v, i + 1, nil
		}
	}
	return 0, 0, errTruncated
}

func appendUleb(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
