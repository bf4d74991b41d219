package config

// example is the commented configuration that [Init] writes. Settings
// written "#key = value" are optional: remove the "#" to use them.
const example = `# muse configuration.
#
# Each [profiles.NAME] table is a set of connection and model settings; pick
# one with --profile NAME, or name the usual one in default_profile.
# Credentials are never written here: a profile names the environment
# variable or the command that yields them.

# The profile used when --profile is not given. Remove the "#" once the
# profile below is filled in.
#default_profile = "work"

[profiles.work]
# The service address: http:// or https:// and a host, with or without a
# trailing /v1, as the provider's docs give it. Without base_url (and
# MUSE_BASE_URL), muse reads ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN,
# ANTHROPIC_API_KEY and ANTHROPIC_MODEL. A server on this machine
# (localhost, 127.0.0.1, [::1]) needs no credential.
base_url = "https://llm.example.com"

# A credential goes over plain http:// only to this machine; set this to
# send it to another host anyway (anyone on the way can read it).
#allow_insecure_http = true

# The access token, sent as "Authorization: Bearer ...": the name of an
# environment variable that holds it ...
access_token_env = "MUSE_ACCESS_TOKEN"
# ... or a shell command that prints it, run when the variable is empty.
# It must print only the credential, at most 64 KiB; its prompts may go to
# the terminal.
#access_token_cmd = "pass show llm/token"

# An API key sent as "x-api-key" instead of a token, again from a variable
# or a command.
#api_key_env = "MUSE_API_KEY"
#api_key_cmd = "pass show llm/api-key"

# How long access_token_cmd or api_key_cmd may run, such as "30s" (at most
# 10m; default 10s). Give a password manager time to ask for its password.
#credential_timeout = "30s"

# The API version. It is sent under both provider-version and
# anthropic-version; version_header names the one header to send instead,
# for a service that wants only one.
provider_version = "2023-06-01"
#version_header = "anthropic-version"

# Images go to the chat's address with the chat's credential, in the
# interface's shape, unless these say otherwise: image_api is service (the
# interface's), dashscope (DashScope's own paths) or openai (OpenAI's
# prompt, n and size WxH, as LocalAI, LiteLLM and most gateways take). An
# image_base_url of its own gets its own credential, never the chat's.
#image_base_url = "https://images.example.com"
#image_api = "openai"
#image_access_token_env = "IMAGE_TOKEN"
#image_access_token_cmd = "pass show images/token"
# OpenAI's own image settings, sent to image_api = "openai" only.
#image_quality = "high"
#image_background = "transparent"
#image_output_format = "png"

# The chat model, and the model used by /image.
model = "your-chat-model"
#image_model = "your-image-model"

# The longest reply, in tokens (at least 1).
max_tokens = 4096

# Sampling: temperature and top_p between 0 and 1, top_k at least 1. Leave
# them unset unless the model's docs ask for them: current Claude models
# refuse them.
#temperature = 0.7
#top_p = 0.9
#top_k = 40

# Text that ends a reply when the model writes it.
#stop_sequences = ["\n\nHuman:"]

# The system prompt sent with every message.
#system = "You are a concise assistant."

# Thinking. Current models (Claude Opus 4.7 and later) take adaptive
# thinking, guided by an effort: low, medium, high or max ...
#thinking = "adaptive"
#effort = "high"
# ... older ones a budget instead, tokens the model may think for, at least
# 1024 and less than max_tokens (set one form, not both), such as
#   thinking_budget = 2048

# /image settings: the size as WIDTH*HEIGHT, what to keep out of the picture,
# whether the service may rewrite the prompt, and whether to add a watermark.
#image_size = "1024*1024"
#negative_prompt = "blurry, text"
#prompt_extend = true
#watermark = false

# An opaque id for you, sent as metadata.user_id.
#user_id = "me@example.com"

# Colours: dark, light, auto (follow the terminal), a built-in theme
# (high-contrast, nord, solarized-light) or the path of a theme file
# (TOML: see the README); /theme NAME switches while muse runs.
theme = "auto"

# How many times in a row the model may call tools before muse stops it.
max_tool_rounds = 20

# The model's context window in tokens, for /context and the status line's
# percentage, when the service's models list does not give it (Anthropic's
# does not; OpenRouter's does).
#context_window = 200000
# auto_compact = true: once the conversation fills 90% of the window, muse
# asks the model for a summary and goes on from it on a new branch, as
# /compact does.
#auto_compact = true

# Prices in dollars per million tokens: /info and the status line then show
# what the last turn and the session cost.
#price_input = 3
#price_output = 15
#price_cache_read = 0.3
#price_cache_write = 3.75

# How long a tool's command may run before it is stopped, such as "45s" or
# "2m" (more than 0, at most 1h; default 30s). --tool-timeout overrides it.
#tool_timeout = "30s"

# How long one request may take as a whole, its retries and its reply
# included (default 30m), and how long a reply may stream no content, only
# pings and keep-alives (default 10m). --request-timeout and
# --stall-timeout override them (0 there means no limit).
#request_timeout = "30m"
#stall_timeout = "10m"

# How many bytes of pings, comments or keep-alives a reply may stream
# that add nothing to it, 16 more for each byte of content, before it ends
# (default 1048576, 1 MiB, about 25,000 pings; 0 for no limit). Raise it
# for a gateway that pads its keep-alives while a model thinks for minutes.
#stall_size = 1048576

# Set save = false to keep sessions only in memory: nothing is written
# under the data folder (--no-save does the same).
#save = false

# Set mouse = false to leave the mouse to the terminal, so that selecting
# text with it works; the wheel then no longer scrolls (--no-mouse).
#mouse = false

# An mcpServers file from outside your configuration folder (a project's
# .mcp.json, one given with --mcp-config) may read ${VAR} from your
# environment only with --mcp-expand-env, or with this.
#mcp_expand_env = true

# MCP servers may ask which folders they are to work in (roots). muse offers
# none unless this is set: then the working directory is the one root.
#mcp_roots = true

# When a reply or image that took 5 seconds or more is ready while the
# terminal is out of focus: "bell" rings the bell, "osc9" (iTerm2, kitty,
# WezTerm, foot, Windows Terminal) or "osc777" (VTE terminals such as
# GNOME Terminal, and urxvt) sends a desktop notification. Default "off".
#notify = "bell"

# muse sync (muse sync init REMOTE first): "auto" syncs in the background at
# start, after each reply and on quit. The key comes from MUSE_SYNC_KEY, else
# from this command. sync_images = false keeps images and attachments here.
#sync = "auto"
#sync_key_cmd = "pass show muse/sync-key"
#sync_images = false

# Key bindings: action = list of keys. Actions: send newline cancel quit
# exit suspend pageup pagedown halfup halfdown top bottom help editor
# thinking copy prev next complete sessions new open previews pasteimage
# linestart lineend wordleft wordright deleteword deletetoend deletetostart
# select approvemode search menuup menudown.
# The / @ and ctrl+r menu takes with complete's or send's keys, and closes
# with cancel's.
#[profiles.work.keys]
#send = ["enter"]
#newline = ["alt+enter", "ctrl+j"]
#cancel = ["esc"]

# Tools the model may call, one [[profiles.work.tools]] table each: a name
# (letters, digits, _ and -), a description for the model, and input_schema,
# the JSON schema of its input written as a TOML table; or input_schema_file,
# a JSON file relative to this file's folder. command is the program muse
# runs for the call, with its arguments; it is never sent to the service.
#[[profiles.work.tools]]
#name = "get_time"
#description = "The current time in UTC."
#input_schema = { type = "object", properties = { tz = { type = "string" } } }
#command = ["date", "-u"]

# Model Context Protocol servers whose tools the model may call, one
# [profiles.work.mcp.NAME] table each, with the keys of the "mcpServers"
# JSON that Claude Desktop, Claude Code and Cursor write (which muse reads
# too: muse --mcp-config FILE). Tools are offered as NAME__TOOL and asked
# about like any tool; allow lists those that run without asking. A stdio
# server gets command, args, env and cwd, and runs without muse's
# credentials; an HTTP server gets url and headers, and its token comes
# from token_env or token_cmd, never from this file. --mcp NAME uses only
# that server, --no-mcp none; /mcp lists them and turns them on or off.
#[profiles.work.mcp.files]
#command = "npx"
#args = ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
#allow = ["read_text_file", "list_directory"]
#[profiles.work.mcp.tracker]
#type = "http"
#url = "https://mcp.example.com/mcp"
#token_env = "TRACKER_TOKEN"
`
