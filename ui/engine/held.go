package engine

import (
	"errors"

	"muse/api"
)

// held is the new prompt of a turn that saves it only once the server
// answers its request (Turn.SaveOnAnswer, ImageTurn.SaveOnAnswer): a
// request that got no answer at all, from a server that could not be
// reached or a turn cancelled first, leaves nothing behind. Message and
// image turns share it, so both draw the line in the same place.
type held struct {
	write  func() // writes the prompt; nil when none is held
	missed bool   // the request got no answer: nothing was written
}

// hold writes the prompt now, or, onAnswer, keeps it for settle.
func (h *held) hold(onAnswer bool, write func()) {
	if !onAnswer {
		write()
		return
	}
	h.write = write
}

// settle writes the prompt held once its request ended with err, if the
// server answered it: with a reply (err nil) or an error of its own. Else
// nothing is written, and settle reports that the prompt was missed. With
// no prompt held it does nothing.
func (h *held) settle(err error) (missed bool) {
	write := h.write
	if write == nil {
		return false
	}
	h.write = nil
	var answer *api.APIError
	if err == nil || errors.As(err, &answer) {
		write()
		return false
	}
	h.missed = true
	return true
}
