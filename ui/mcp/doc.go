// Package mcp offers the tools of Model Context Protocol servers to muse's
// engine, next to its command tools. It reads the servers from the
// "mcpServers" JSON that Claude Desktop, Claude Code and Cursor write, or
// from a profile; starts them in parallel and within a time limit, in the
// background once the chat screen has drawn its first frame (StartAll), or
// else at the first turn that offers tools; names their tools so that they
// cannot collide and the API takes them (server__tool); and turns their
// results into tool_result content, cut at the tool output limit.
//
// Stdio servers run as toolrun servers: in a process group of their own,
// killed with muse, and each with only its own secrets: none of muse's
// credentials, nor a variable another server's entry names (env.go). HTTP
// servers speak the streamable HTTP transport (or the older SSE one), with
// their credentials sent to their own host only (api.CheckRedirect).
// What a server may make muse read and offer is bounded (bounds.go): a
// message's bytes, as they are read, the tools and their size, the pages
// of the tool list. Calls are approved like any tool call: the engine asks
// before each one.
package mcp
