// Package app is the browser playground, a go-app v10 program compiled to
// WebAssembly (issue 4).
package app
