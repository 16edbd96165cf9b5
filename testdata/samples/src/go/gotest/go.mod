module samples.example/gotest

go 1.26
