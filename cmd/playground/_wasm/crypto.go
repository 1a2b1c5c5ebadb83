// This file replaces go-app v10.1.11's pkg/app/crypto.go in the
// WebAssembly build only (see the Makefile): the page never encrypts
// (Context.Encrypt and Decrypt, for values kept in the browser's
// storage), and the AES-GCM and crypto/rand they read brought the Go
// FIPS module's AES, SHA-2, SHA-3 and its self-tests into app.wasm. Here
// both report that this build has no encryption.

package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/errors"
)

func encrypt(key string, v []byte) ([]byte, error) {
	return nil, errors.New("encryption is not in this build")
}

func decrypt(key string, v []byte) ([]byte, error) {
	return nil, errors.New("encryption is not in this build")
}
