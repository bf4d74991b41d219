package config

import (
	"fmt"
	"io"
	"os"
)

// MaxFileSize is the largest tools or schema file read: anything larger is
// refused before it is parsed, so that loading one takes little time and
// memory whatever it holds.
const MaxFileSize = 1 << 20

// MaxConfigSize is the largest configuration file read; no real profile
// comes near it.
const MaxConfigSize = 64 << 10

// MaxKeys is how many keys a configuration file may hold, counting every
// table and every part of a dotted key: the TOML library takes time
// quadratic in their number, about 20 ms for 2000 and 200 ms for 8000. A
// real file holds a few hundred.
const MaxKeys = 2000

// MaxDepth is how deeply tables and arrays may nest in a configuration file,
// counting every table of a key path such as [profiles.work.keys].
const MaxDepth = 64

// readFile reads the file at path, refusing one larger than limit bytes.
// what names the file in messages, such as "config".
func readFile(path, what string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	if len(data) > limit {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("the file is larger than %s: a %s file is never that big, check that it is the right one", sizeText(limit), what)}
	}
	return data, nil
}

// sizeText writes a size of whole KiB or MiB, such as "64 KiB".
func sizeText(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
