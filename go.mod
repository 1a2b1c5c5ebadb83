module github.com/backoff-playground/playground

go 1.26

require github.com/maxence-charriere/go-app/v10 v10.1.11

require github.com/google/uuid v1.6.0 // indirect
