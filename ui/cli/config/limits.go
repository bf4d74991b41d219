package config

import (
	"fmt"
	"io"
	"os"
)

// MaxFileSize is the largest configuration, tools or schema file read:
// anything larger is refused before it is parsed, so that loading one takes
// little time and memory whatever it holds.
const MaxFileSize = 1 << 20

// MaxDepth is how deeply tables and arrays may nest in a configuration file,
// counting every table of a key path such as [profiles.work.keys].
const MaxDepth = 64

// readFile reads the file at path, refusing one larger than MaxFileSize. what
// names the file in messages, such as "config".
func readFile(path, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if len(data) > MaxFileSize {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("the file is larger than %d MiB: a %s file is never that big, check that it is the right one", MaxFileSize>>20, what)}
	}
	return data, nil
}
