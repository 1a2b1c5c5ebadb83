module github.com/backoff-playground/playground

go 1.26
