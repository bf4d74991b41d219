package cli

import "os"

// guardSecrets keeps muse's credentials from the programs it starts, once
// the configuration has read them: it drops the variables named in names
// from muse's own environment, and makes the process undumpable where the
// system allows (see undumpable), so that a tool of the same user cannot
// read /proc/<muse pid>/environ or attach a debugger. What remains
// possible is said in the README's security section: root can still read
// either, and so can anything started before muse.
func guardSecrets(names []string) {
	for _, n := range names {
		_ = os.Unsetenv(n)
	}
	undumpable()
}
