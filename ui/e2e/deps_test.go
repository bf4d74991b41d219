//go:build linux

package e2e

// The tests run a muse built by TestMain, which Go's test cache cannot see:
// importing what main imports makes the test binary, and so its cached
// result, change whenever muse does.
import _ "muse/ui/cli"
