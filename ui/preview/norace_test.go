//go:build !race

package preview

// raceEnabled is whether the race detector, which slows code tenfold, is on.
const raceEnabled = false
