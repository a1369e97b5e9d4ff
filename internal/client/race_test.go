//go:build unix && race

package client_test

const raceEnabled = true
