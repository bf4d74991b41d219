// Package config reads muse's configuration file, a TOML file of named
// profiles at $XDG_CONFIG_HOME/muse/config.toml, and the JSON tool files
// given with --tools.
//
// The TOML is read by github.com/pelletier/go-toml/v2: its parser finds the
// keys and their places, and its Unmarshal checks the document against TOML
// 1.1 (syntax, keys and tables defined twice, integers out of range,
// impossible dates) and decodes the values; a syntax error is reported with
// the library's message at its line and column. muse adds, around the
// library: a cap on the file's size (maxConfigSize), its nesting
// (maxDepth) and its number of keys (maxKeys), checked in one pass over
// the parser before Unmarshal runs, which takes time quadratic in the number
// of keys; the line of every key and array element, kept in a tree of its
// own; and the checks of what the keys mean: unknown keys refused with the
// closest known one suggested, values of the wrong type or out of range
// named with what was expected, credentials written into the file refused.
// The error type, the library's errors and the suggestions are ui/tomlfile's,
// which reads theme files into tagged structs; the profiles still go
// through the tree, whose per-key lines and several problems at once the
// struct reader does not give yet.
//
// The file never holds credentials: a profile names the environment variable
// or the command that yields them, and [ResolveSecret] fetches the value when
// it is needed. Every problem found while loading is an [*Error] that names
// the file, the line and what was expected there.
package config
