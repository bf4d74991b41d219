// Package streamtest holds what the streaming tests and benchmarks of the
// chat screen and of its conversation share: replies cut into deltas, and
// the process's CPU time.
package streamtest

// Deltas splits text into word-sized pieces that join back to it.
func Deltas(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			out = append(out, text[start:i])
			start = i
		}
	}
	return append(out, text[start:])
}
