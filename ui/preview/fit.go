package preview

import "fmt"

// defaultCols is the width of a preview when none is given, in cells.
const defaultCols = 40

// cellPixels is the width of a terminal cell taken for the sizes of small
// images, in pixels: about what common terminals and fonts draw (8 to 10).
const cellPixels = 8

// Fit returns the size in cells, cols×rows, of a preview of a w×h pixel
// image at most maxCols wide (defaultCols when maxCols <= 0) and at most
// maxCols tall, keeping its aspect with a cell taken as twice as tall as it
// is wide. A small image is drawn at most about twice its size: one column
// for each cellPixels/2 of its pixels (a 64×48 icon takes 16×6 cells, not
// 40×15). It returns 0, 0 for an empty image.
func Fit(w, h, maxCols int) (cols, rows int) {
	if w <= 0 || h <= 0 {
		return 0, 0
	}
	if maxCols <= 0 {
		maxCols = defaultCols
	}
	cols = min((2*w+cellPixels-1)/cellPixels, maxCols)
	rows = roundDiv(h*cols, 2*w)
	if rows > maxCols {
		rows = maxCols
		cols = roundDiv(w*2*rows, h)
	}
	return max(cols, 1), max(rows, 1)
}

// MaxRows is the tallest preview for a window windowRows tall: two thirds
// of what is left beside the header, the input, the status line and the
// key help, and at least 3, so that on a small screen (60x20) an image
// shows whole with its caption and the lines around it. 0, for a window
// of no size yet, sets no limit.
func MaxRows(windowRows int) int {
	if windowRows <= 0 {
		return 0
	}
	return max((windowRows-6)*2/3, 3)
}

// ColsFor is the widest a preview of a w×h pixel image may be, at most
// maxCols, so that Fit makes it at most maxRows tall (no limit when
// maxRows <= 0).
func ColsFor(w, h, maxCols, maxRows int) int {
	if maxCols <= 0 {
		maxCols = defaultCols
	}
	if maxRows <= 0 || w <= 0 || h <= 0 {
		return maxCols
	}
	return max(min(maxCols, 2*w*maxRows/h), 1)
}

// roundDiv returns a/b rounded to the nearest integer, for a, b > 0.
func roundDiv(a, b int) int { return (2*a + b) / (2 * b) }

// label is the one-line stand-in for an image that is not drawn, such as
// "[image 1024×768]".
func label(w, h int) string { return fmt.Sprintf("[image %d×%d]", w, h) }
