// Package config reads muse's configuration file, a TOML file of named
// profiles at $XDG_CONFIG_HOME/muse/config.toml, and the JSON tool files
// given with --tools.
//
// The file never holds credentials: a profile names the environment variable
// or the command that yields them, and [ResolveSecret] fetches the value when
// it is needed. Every problem found while loading is an [*Error] that names
// the file, the line and what was expected there.
package config
