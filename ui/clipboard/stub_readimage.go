package clipboard

import (
	"context"
	"errors"
)

// ReadImage is a stub.
func ReadImage(ctx context.Context) ([]byte, error) { return nil, errors.New("stub") }
