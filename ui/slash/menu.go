package slash

import "strings"

// Command is a row of the command table as a menu lists it: its name
// (without the slash), the usage of its arguments ("" for none) and its
// one-line help.
type Command struct {
	Name, Args, Help string
}

// Matching returns the commands whose name starts with prefix (without
// the slash; case does not matter), in the table's order: what a menu
// under the input offers while "/"+prefix is typed.
func Matching(prefix string) []Command {
	var out []Command
	for _, c := range slashPrefixMatches(strings.ToLower(prefix)) {
		out = append(out, Command{Name: c.name, Args: c.args, Help: c.help})
	}
	return out
}
