package api

// MaxToolName is the longest name a tool may have. The service's own
// pattern allows 128 characters, but Claude Desktop's and the published
// reference, ^[a-zA-Z0-9_-]{1,64}$, hold tool names to 64: muse keeps to
// the smaller, so that a name it sends is taken by both.
const MaxToolName = 64

// ToolNameRule says, for messages, what a tool's name must be.
const ToolNameRule = "1 to 64 letters, digits, _ or - (^[a-zA-Z0-9_-]{1,64}$)"

// ValidToolName reports whether name is a tool name the service takes:
// 1 to MaxToolName ASCII letters, digits, _ or -.
func ValidToolName(name string) bool {
	if name == "" || len(name) > MaxToolName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
