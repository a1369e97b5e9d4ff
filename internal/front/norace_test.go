//go:build unix && !race

package front_test

const raceEnabled = false
