module samples.example/stray

go 1.26
