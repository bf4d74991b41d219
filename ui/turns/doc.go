// Package turns is the chat screen's turn in flight: a message turn or an
// image turn, which the engine (ui/engine) runs in the background, as -p
// runs it. It owns what the screen mirrors of the turn (the reply
// streaming, the tool call that waits, the retry, the image's download),
// waits on the engine's channel in commands, applies the engine's reports
// to its own state, and hands the screen back small typed results (Shown,
// Asked, Ended): what to draw, what to say, what to send next. It never
// draws, never builds a request (only the engine does) and never does I/O
// in Update.
//
// Model is a value, as the screen's root model is: what is large or may be
// absent (the turn, the image turn) is held by pointer and copied before it
// changes, so a copy of the model keeps the turn as it was.
package turns
