//go:build !race

package symbolize

const raceEnabled = false
