package app

import (
	"strings"
)

// sourceURL is where a preset's source can be read: the first file of a
// "owner/repo path/file, ..." source on GitHub (at the default branch: the
// version the formula was read from is in the text beside the link), or an
// RFC's page; "" when the source names neither (a standard on paper).
func sourceURL(src string) string {
	f := strings.Fields(src)
	if len(f) >= 2 && f[0] == "RFC" {
		if n := strings.TrimRight(f[1], ",;"); n != "" && strings.Trim(n, "0123456789") == "" {
			return "https://www.rfc-editor.org/rfc/rfc" + n
		}
	}
	if len(f) < 2 || strings.Count(f[0], "/") != 1 {
		return ""
	}
	repo := f[0]
	path := strings.TrimRight(f[1], ",;")
	if !strings.Contains(path, ".") || strings.HasPrefix(path, "(") || !validPath(repo) || !validPath(path) {
		return ""
	}
	return "https://github.com/" + repo + "/blob/HEAD/" + path
}

// validPath allows the characters of a repository name or a file path.
func validPath(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-", c)) {
			return false
		}
	}
	return s != "" && !strings.Contains(s, "..")
}
