// Package panicky indexes past a slice in a test: the panic inside
// `go test` output.
package panicky

// Field returns the i-th field.
func Field(fields []string, i int) string { return fields[i] }
