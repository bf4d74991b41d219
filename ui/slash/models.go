package slash

import (
	"slices"
	"sort"
	"strings"
)

// maxModelCompletions is the most names /model offers at once: a service
// may list thousands, and a few more letters narrow them.
const maxModelCompletions = 20

// Models is the service's models as /model completes them, made once by
// [NewModels] and never changed: safe to share between goroutines.
type Models struct {
	names []string
	lower []string // the names in lower case, sorted; names in the same order
}

// NewModels makes the list /model completes from: the service's models
// list, which the chat screen reads once it has drawn its first frame.
func NewModels(names []string) *Models {
	l := &Models{names: slices.Clone(names)}
	sort.Slice(l.names, func(i, j int) bool { return strings.ToLower(l.names[i]) < strings.ToLower(l.names[j]) })
	l.lower = make([]string, len(l.names))
	for i, n := range l.names {
		l.lower[i] = strings.ToLower(n)
	}
	return l
}

// completions completes "/model X": the names that start with X (case
// aside), found by binary search, then those that hold it elsewhere, at
// most maxModelCompletions, each as the whole input. A nil list has none.
func (l *Models) completions(word, typed string) []string {
	if l == nil {
		return nil
	}
	typed = strings.ToLower(typed)
	var out []string
	i, _ := slices.BinarySearch(l.lower, typed)
	for ; i < len(l.lower) && strings.HasPrefix(l.lower[i], typed) && len(out) < maxModelCompletions; i++ {
		out = append(out, word+" "+l.names[i])
	}
	if typed == "" {
		return out
	}
	for j, n := range l.lower {
		if len(out) >= maxModelCompletions {
			break
		}
		if !strings.HasPrefix(n, typed) && strings.Contains(n, typed) {
			out = append(out, word+" "+l.names[j])
		}
	}
	return out
}
