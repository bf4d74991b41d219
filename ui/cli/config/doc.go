// Package config reads muse's configuration file, a TOML file of named
// profiles at $XDG_CONFIG_HOME/muse/config.toml, and the JSON tool files
// given with --tools.
//
// The TOML goes through ui/tomlfile, muse's one TOML reader, as theme
// files do: github.com/pelletier/go-toml/v2 decodes it into tagged structs
// (fileTOML, profileTOML, toolTOML and the one MCP server type,
// mcpcfg.Server), refusing unknown keys, and every problem is reported at
// its line and column: a syntax error with the library's message and
// place, an unknown key with the closest known one suggested, a value of
// the wrong kind with what was expected. ui/tomlfile also caps the file's
// nesting (maxDepth) and its number of keys (maxKeys), and gives the place
// of every key and array item, from which this package reports the
// problems it finds in what the values mean: out of range, naming no
// profile, credentials written into the file. The file's size is capped
// before it is read (maxConfigSize). Up to ten problems are reported at
// once, in the order of the file.
//
// The file never holds credentials: a profile names the environment variable
// or the command that yields them, and [ResolveSecret] fetches the value when
// it is needed. Every problem found while loading is an [*Error] that names
// the file, the line and what was expected there.
package config
