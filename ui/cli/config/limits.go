package config

import (
	"errors"
	"fmt"

	"muse/api/regfile"
)

// maxFileSize is the largest tools or schema file read: anything larger is
// refused before it is parsed, so that loading one takes little time and
// memory whatever it holds.
const maxFileSize = 1 << 20

// maxConfigSize is the largest configuration file read; no real profile
// comes near it.
const maxConfigSize = 64 << 10

// maxKeys is how many keys a configuration file may hold, counting every
// table and every part of a dotted key: the TOML library takes time
// quadratic in their number, about 20 ms for 2000 and 200 ms for 8000. A
// real file holds a few hundred.
const maxKeys = 2000

// maxDepth is how deeply tables and arrays may nest in a configuration file,
// counting every table of a key path such as [profiles.work.keys].
const maxDepth = 64

// readFile reads the regular file at path (see api/regfile), refusing one
// larger than limit bytes, and a named pipe or device without waiting on
// it. what names the file in messages, such as "config".
func readFile(path, what string, limit int) ([]byte, error) {
	data, err := regfile.Read(path, int64(limit))
	var notRegular *regfile.NotRegularError
	var tooLarge *regfile.TooLargeError
	switch {
	case errors.As(err, &notRegular):
		return nil, &Error{Path: path, Msg: fmt.Sprintf("read %s: %v: give the path of a %s file", what, err, what)}
	case errors.As(err, &tooLarge):
		return nil, &Error{Path: path, Msg: fmt.Sprintf("the file is %v: a %s file is never that big, check that it is the right one", err, what)}
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	return data, nil
}
