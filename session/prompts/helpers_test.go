package prompts

// ForSession returns the prompts sent in the session id, oldest first, among
// those kept in memory.
func (h *History) ForSession(id string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.entries {
		if e.Session == id {
			out = append(out, e.Text)
		}
	}
	return out
}

// Reset stops recalling: the next Prev returns the newest prompt.
func (r *Recall) Reset() { r.pos = len(r.prompts) }
