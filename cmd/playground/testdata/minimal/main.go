// Command minimal is go-app's getting-started program as its docs build
// it: one main for the browser and the server, compiled with
// GOOS=js GOARCH=wasm go build -o web/app.wasm and go build, served by
// go-app's own Handler from ./web of the working directory. The one change
// is the address: -addr (port 0 picks a free one), printed on start.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/backoff-playground/playground/cmd/playground/testdata/minimal/hello"
)

func main() {
	hello.Route()
	app.RunWhenOnBrowser()

	addr := flag.String("addr", "127.0.0.1:8000", "listen address")
	flag.Parse()
	http.Handle("/", &app.Handler{
		Name:        "Hello",
		Description: "An Hello World! example",
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("minimal serving http://%s/\n", ln.Addr())
	log.Fatal(http.Serve(ln, nil))
}
