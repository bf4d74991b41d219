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
// without muse's credentials in their environment, killed with muse. HTTP
// servers speak the streamable HTTP transport (or the older SSE one).
// Calls are approved like any tool call: the engine asks before each one.
package mcp
