//go:build !linux

package cli

// undumpable does nothing off Linux: macOS keeps another process's
// environment from processes that are not root or the same user with
// debugging rights, and there is no prctl.
func undumpable() {}
