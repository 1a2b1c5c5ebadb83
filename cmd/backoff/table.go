package main

import "io"

func runTable(args []string, stdout, stderr io.Writer) int                     { return 1 }
func runPresets(args []string, stdout, stderr io.Writer) int                   { return 1 }
func runClassify(args []string, stdin io.Reader, stdout, stderr io.Writer) int { return 1 }
