package ui

import (
	"strings"
	"testing"

	"muse/session"
)

// /open 2 after an image turn cancelled before any image came back opens
// image 2 of the turn before it, which has images, and does not say the
// last turn has none.
func TestImagePathPassesOverACancelledTurn(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m.conv = m.conv.Note(session.Entry{Kind: session.KindImage, Text: "a fox", Images: []session.Image{
		{Index: 0, Path: "/tmp/fox-1.png"}, {Index: 1, Path: "/tmp/fox-2.png"},
	}}, m.now())
	m.conv = m.conv.Note(session.Entry{Kind: session.KindImage, Text: "a cat", Status: session.StatusCancelled}, m.now())
	if got, err := imagePath(m.conv.Entries(), 2); err != nil || got != "/tmp/fox-2.png" {
		t.Errorf("imagePath(2) = %q, %v; want the fox's second image", got, err)
	}
	if got, err := imagePath(m.conv.Entries(), 0); err != nil || got != "/tmp/fox-2.png" {
		t.Errorf("imagePath(0) = %q, %v", got, err)
	}
	if _, err := imagePath(m.conv.Entries(), 3); err == nil || !strings.Contains(err.Error(), "has 2 images") {
		t.Errorf("imagePath(3): %v", err)
	}
	only := h.model(t, nil)
	only.conv = only.conv.Note(session.Entry{Kind: session.KindImage, Text: "a cat", Status: session.StatusCancelled}, only.now())
	if _, err := imagePath(only.conv.Entries(), 1); err == nil || !strings.Contains(err.Error(), "no image turn has images yet") {
		t.Errorf("imagePath with only a cancelled turn: %v", err)
	}
}
