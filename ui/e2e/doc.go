// Package e2e tests muse as people run it: the real binary, built once by
// TestMain, in a pseudo-terminal whose output feeds a terminal emulator, so
// a test reads the screen a person would see, drawn by muse's own renderer
// (ui/screen) with stdin and stdout on a terminal.
//
// The tests run against --demo, the embedded demo server, and need nothing
// outside the repository but Linux (they read the terminal's mode and the
// process's state the Linux way) with sh. Each test gets its own HOME and
// XDG folders. The package holds no code besides its tests: run
// them with
//
//	go test ./ui/e2e/
//
// (go test ./... from the repository's root runs them too). On failure a
// test prints the screen as it was, and the goroutines of a muse that
// still runs.
package e2e
