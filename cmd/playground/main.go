// Command playground serves the browser playground (issue 4).
package main

func main() {}
