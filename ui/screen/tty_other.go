//go:build !unix

package screen

import (
	"errors"
	"os"
)

// openTTY is never called where the screen cannot draw (see Input).
func openTTY(string) (*os.File, error) { return nil, errors.ErrUnsupported }
