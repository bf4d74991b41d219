// Package screen draws the chat screen on the terminal itself, frame by
// frame, only when a frame changes.
//
// Bubble Tea v1's renderer wakes at its frame rate whether or not anything
// changed: at 30 frames a second that alone is 0.7% of a core on an idle
// screen (measured). Here the program runs with tea.WithoutRenderer, the
// root model is wrapped in a Model whose View hands each frame to a
// Renderer, and the Renderer writes the lines that changed, at most FPS
// times a second, with no timer at all while nothing changes. Screen owns
// the rest of what Bubble Tea's renderer did: raw mode, the alternate
// screen, the mouse and bracketed-paste modes, the window size, and giving
// the terminal to a child process (the editor) and taking it back.
//
// Where the terminal said it has synchronized output (mode 2026), each
// frame is wrapped in it and shown whole. Autowrap is off while the screen
// is up, and every line is written at its own row and erased around, so a
// line the terminal draws wider or narrower than muse measures it (emoji
// widths differ between terminals) changes nothing outside its row. Lines
// are measured and cut in the terminal's width mode (textfmt.WidthMode);
// where the terminal has grapheme clustering (mode 2027), the screen turns
// it on while it is up.
package screen
