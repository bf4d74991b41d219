// Package ui is muse's chat screen: the root Bubble Tea model, which routes
// messages to its children (the conversation view, the composer of the next
// prompt, the session picker, the reader of piped standard input) and
// mirrors what the engine reports of message and image turns, with the
// status bar, the help, selection mode over the messages, branches,
// copying and image previews. Its parts live in the packages below it.
package ui
