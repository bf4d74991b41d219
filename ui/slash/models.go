package slash

import (
	"slices"
	"sort"
	"strings"
	"sync/atomic"
)

// maxModelCompletions is the most names /model offers at once: a service
// may list thousands, and a few more letters narrow them.
const maxModelCompletions = 20

// modelList is the service's models as /model completes them: sorted by
// their lower-case form, which lower holds.
type modelList struct{ names, lower []string }

// models is the list /model completes from; nil until SetModels.
var models atomic.Pointer[modelList]

// SetModels gives /model the names it completes from: the service's
// models list, which the chat screen reads once it has drawn its first
// frame. Safe from any goroutine.
func SetModels(names []string) {
	l := &modelList{names: slices.Clone(names)}
	sort.Slice(l.names, func(i, j int) bool { return strings.ToLower(l.names[i]) < strings.ToLower(l.names[j]) })
	l.lower = make([]string, len(l.names))
	for i, n := range l.names {
		l.lower[i] = strings.ToLower(n)
	}
	models.Store(l)
}

// modelCompletions completes "/model X": the names that start with X
// (case aside), found by binary search, then those that hold it
// elsewhere, at most maxModelCompletions, each as the whole input.
func modelCompletions(word, typed string) []string {
	l := models.Load()
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
