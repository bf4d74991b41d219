package config

// DefaultPath is DefaultPathOn for this system.
func DefaultPath(getenv func(string) string) (string, error) {
	return DefaultPathOn(getenv, "")
}
