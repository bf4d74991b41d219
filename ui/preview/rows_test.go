package preview

import "testing"

// A preview fits the window: at most MaxRows of its height tall, whatever
// the image's shape, as wide as that allows; a big window leaves the
// usual 40 columns, and a window of no size yet sets no limit.
func TestColsForKeepsThePreviewInTheWindow(t *testing.T) {
	for _, win := range []int{10, 20, 24, 40, 60} {
		maxRows := MaxRows(win)
		if maxRows < 3 || maxRows > win-6 && win > 9 {
			t.Errorf("a window of %d rows: previews of %d rows", win, maxRows)
		}
		for _, img := range [][2]int{{1024, 1024}, {1792, 1024}, {1024, 1792}, {64, 48}, {10, 2000}, {2000, 10}} {
			cols, rows := Fit(img[0], img[1], ColsFor(img[0], img[1], 40, maxRows))
			if rows > maxRows || cols > 40 || cols < 1 {
				t.Errorf("window %d, image %dx%d: %dx%d cells, at most %d rows", win, img[0], img[1], cols, rows, maxRows)
			}
		}
	}
	if cols, rows := Fit(1024, 1024, ColsFor(1024, 1024, 40, MaxRows(20))); rows > 9 {
		t.Errorf("60x20: a square image takes %dx%d cells", cols, rows)
	}
	if cols, rows := Fit(1024, 1024, ColsFor(1024, 1024, 40, MaxRows(40))); cols != 40 || rows != 20 {
		t.Errorf("120x40: a square image takes %dx%d cells, want 40x20", cols, rows)
	}
	if MaxRows(0) != 0 || ColsFor(1024, 1024, 40, 0) != 40 {
		t.Error("no size yet limits the preview")
	}
}
