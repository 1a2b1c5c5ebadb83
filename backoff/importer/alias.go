package importer

import (
	"strings"
)

// A library imported under another name is read under its own: each
// format's readers look for retryablehttp.NewClient, tenacity.retry or
// Duration.ofSeconds, and the imports of the text say what a local name
// stands for.
//
//	Go:          rhttp "github.com/hashicorp/go-retryablehttp"  (rhttp. is retryablehttp.)
//	Python:      import tenacity as t; from urllib3.util import Retry as R
//	Java:        import static java.time.Duration.ofSeconds;  import static java.time.Duration.*;
//	Kotlin:      import java.time.Duration as D
//	C#:          using TS = System.TimeSpan;  using static System.TimeSpan;
//	TypeScript:  import { proxyActivities as pa } from '...';  import * as wf from '...'

// imports are a text's local names for imported ones.
type imports struct {
	// aliases map a local name to the dotted name it stands for; "" drops
	// it (a TypeScript namespace: wf.proxyActivities is proxyActivities).
	aliases map[string]string
	// statics are the classes whose members are imported bare (Java's
	// import static X.*, C#'s using static X), by their short names.
	statics []string
}

// resolve is what the head of a dotted name stands for.
func (c *code) resolve(head string) string {
	if a, ok := c.aliases[head]; ok {
		return a
	}
	return head
}

func (c *code) alias(local, name string) {
	if local == "" || local == name || local == "_" || local == "." {
		return
	}
	if c.aliases == nil {
		c.aliases = map[string]string{}
	}
	c.aliases[local] = name
}

// findImports reads the import statements of every language.
func (c *code) findImports() {
	for k := 0; k < len(c.toks); k++ {
		switch c.ident(k) {
		case "import":
			if c.firstOnLine(k) || c.is(k-1, ";") {
				k = c.importAt(k)
			}
		case "from":
			if (c.firstOnLine(k) || c.is(k-1, ";")) && c.ident(k+1) != "" {
				k = c.pyFromImport(k)
			}
		case "using":
			if c.firstOnLine(k) || c.is(k-1, ";") || c.is(k-1, "}") {
				k = c.usingAt(k)
			}
		}
	}
}

// importAt reads the import at token k (Go, Python, Java, Kotlin,
// TypeScript) and returns the last token read: the caller goes on after
// it.
func (c *code) importAt(k int) int {
	switch {
	case k+1 < len(c.toks) && c.toks[k+1].kind == tStr: // Go: import "path"
		return k + 1
	case c.ident(k+1) != "" && k+2 < len(c.toks) && c.toks[k+2].kind == tStr: // Go: import alias "path"
		c.alias(c.toks[k+1].text, goPackage(c.toks[k+2].text))
		return k + 2
	case c.is(k+1, "(") && c.match[k+1] > k: // Go: import ( alias "path" ... )
		end := c.match[k+1]
		for j := k + 2; j+1 < end; j++ {
			if c.ident(j) != "" && c.toks[j+1].kind == tStr && c.firstOnLine(j) {
				c.alias(c.toks[j].text, goPackage(c.toks[j+1].text))
			}
		}
		return end
	case c.is(k+1, "{") && c.match[k+1] > k: // TypeScript: import { a as b } from '...'
		end := c.match[k+1]
		for j := k + 2; j+2 < end; j++ {
			if c.ident(j) != "" && c.ident(j+1) == "as" && c.ident(j+2) != "" {
				c.alias(c.toks[j+2].text, c.toks[j].text)
			}
		}
		return end
	case c.is(k+1, "*") && c.ident(k+2) == "as" && c.ident(k+3) != "": // TypeScript: import * as wf from '...'
		c.alias(c.toks[k+3].text, "")
		return k + 3
	case c.ident(k+1) == "static": // Java: import static a.b.C.m; or a.b.C.*;
		name, j := c.rawName(k + 2)
		parts := strings.Split(name, ".")
		if c.is(j, ".") && c.is(j+1, "*") {
			c.statics = append(c.statics, parts[len(parts)-1])
			return j + 1
		}
		if len(parts) >= 2 {
			c.alias(parts[len(parts)-1], parts[len(parts)-2]+"."+parts[len(parts)-1])
		}
		return j
	}
	// Python: import a.b as c, d as e; Kotlin: import a.b.C as D
	j := k + 1
	for {
		name, next := c.rawName(j)
		if name == "" {
			return j - 1
		}
		if c.ident(next) == "as" && c.ident(next+1) != "" {
			c.alias(c.toks[next+1].text, name)
			next += 2
		}
		if !c.is(next, ",") || c.toks[next].line != c.toks[k].line {
			return next - 1
		}
		j = next + 1
	}
}

// pyFromImport reads from m import a as b, c (parenthesised or not).
func (c *code) pyFromImport(k int) int {
	_, j := c.rawName(k + 1)
	for c.is(j, ".") { // from . import x, from .. import y
		j++
	}
	if c.ident(j) != "import" {
		return k
	}
	j++
	end := len(c.toks)
	if c.is(j, "(") && c.match[j] > j {
		end = c.match[j]
		j++
	}
	for j < end {
		if c.ident(j) == "" {
			return j - 1
		}
		if c.ident(j+1) == "as" && c.ident(j+2) != "" {
			c.alias(c.toks[j+2].text, c.toks[j].text)
			j += 2
		}
		j++
		if !c.is(j, ",") {
			return j - 1
		}
		j++
	}
	return j - 1
}

// usingAt reads C#'s using X = A.B.C; and using static A.B.C;.
func (c *code) usingAt(k int) int {
	switch {
	case c.ident(k+1) == "static":
		name, j := c.rawName(k + 2)
		if name != "" {
			c.statics = append(c.statics, name[strings.LastIndexByte(name, '.')+1:])
		}
		return j
	case c.ident(k+1) != "" && c.is(k+2, "="):
		name, j := c.rawName(k + 3)
		if name != "" {
			c.alias(c.toks[k+1].text, name[strings.LastIndexByte(name, '.')+1:])
		}
		return j
	}
	return k
}

// rawName reads a dotted name at k as written (no aliases), at most
// maxNameParts parts.
func (c *code) rawName(k int) (string, int) {
	s := c.ident(k)
	if s == "" {
		return "", k
	}
	k++
	for n := 1; n < maxNameParts && c.is(k, ".") && c.ident(k+1) != ""; n++ {
		s += "." + c.toks[k+1].text
		k += 2
	}
	return s, k
}

// goPackage is the name a Go import path's package has by convention:
// its last element without a major version (/v4) or a go- prefix (
// github.com/hashicorp/go-retryablehttp is retryablehttp).
func goPackage(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	last = strings.TrimPrefix(last, "go-")
	last = strings.TrimSuffix(last, "-go")
	if i := strings.IndexAny(last, ".-"); i > 0 {
		last = last[:i] // gopkg.in/yaml.v3 is yaml
	}
	return last
}
