package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Init writes the commented example configuration to path, creating its
// folder with mode 0700 and the file with mode 0600. It never overwrites: an existing file is an error.
func Init(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create config folder: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists: not overwritten", path)
	}
	if err != nil {
		return fmt.Errorf("create config: %w", err)
	}
	if _, err := f.WriteString(example); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("write config %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("write config %s: %w", path, err)
	}
	return nil
}
