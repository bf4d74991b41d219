// Package conversation is the conversation view of the chat screen: a
// virtual scroller over the entries of the active branch that renders only
// what shows, caches finished entries by width, and renders a streaming
// reply's markdown incrementally, again only its unstable tail. Renderer
// draws one entry (a prompt, a reply, tool results, an image turn, an
// error); every text it shows passes the sanitizer, glamour's output too.
//
// The root model owns a Model as a child: it feeds it entries as a turn
// streams and ends, passes it scroll keys and mouse wheel events, and
// shows its View above the input.
package conversation
