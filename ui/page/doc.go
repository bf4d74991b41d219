// Package page writes a session as one self-contained HTML page, for
// "muse sessions export --format html", "muse sessions open" and the chat
// screen's "/export page": a file that opens anywhere, offline, and asks
// nothing of any server.
//
// What the page holds: a header with the title, the models, the dates and
// the tokens spent, a table of contents of the prompts when there are many,
// then each message of the active branch in an <article> with an anchor.
// Markdown is rendered by goldmark with its GitHub extensions (tables, task
// lists, strikethrough, autolinks); code by chroma's HTML formatter, in the
// colours of muse's theme; thinking, tool calls and their results, and the
// blocks of the server's own tools in <details>, closed. Generated and
// attached images are embedded as data: URIs, scaled down by ui/attach's
// scaler when asked. Every other branch is kept, in a closed <details> where
// it leaves the branch shown, readable without script.
//
// Safety: every text of the session passes through sanitize.Plain (escape
// sequences, control characters, NUL and bidi overrides removed), then, with
// Redact, the secret masks, then HTML escaping. Raw HTML in Markdown is shown
// as text, never rendered; a link stays a link only to http, https or mailto,
// with rel="noopener noreferrer"; a Markdown image is a link, never loaded.
// The page's Content-Security-Policy allows no network at all: default-src
// 'none', images only from data:, and the one stylesheet and the one script
// by their hashes, so that no style attribute or script the content might
// smuggle in would apply. The script only adds copy buttons to code; the page
// is whole without it.
//
// The page is written as it is made, to a buffered writer: an image is read,
// encoded and written before the next is read, so that memory holds the
// session and one image, not the page.
package page
