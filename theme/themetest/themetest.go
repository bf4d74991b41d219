// Package themetest gives tests of the chat screen's children the styles
// to draw in: the dark theme's, as a terminal with a dark background
// gets.
package themetest

import (
	"testing"

	"muse/theme"
)

// Styles are the dark theme's styles; the test fails if it cannot be
// made.
func Styles(t testing.TB) *theme.Styles {
	t.Helper()
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	return &th.Styles
}
