package config

import (
	"slices"
	"strings"
)

// actions are the names of the key-bound actions, in the order the help
// shows them.
var actions = []string{
	"send", "newline", "cancel", "quit", "pageup", "pagedown", "halfup", "halfdown",
	"top", "bottom", "help", "editor", "thinking", "copy", "prev", "next",
	"complete", "sessions", "new", "open", "previews",
}

// Actions returns the action names a [profiles.NAME.keys] table may bind.
func Actions() []string { return slices.Clone(actions) }

// keys reads a [profiles.NAME.keys] table: action name → list of keys. A key
// bound to two actions is refused.
func (v value) keys() map[string][]string {
	t, ok := v.table(`[profiles.NAME.keys] with send = ["enter"]`)
	if !ok {
		return nil
	}
	header := "[profiles." + tableKey(v.path[1]) + ".keys]"
	out := make(map[string][]string, len(t))
	owner := map[string]string{} // key → action
	for _, action := range sortedKeys(t) {
		a := v.child(t, action)
		if !slices.Contains(actions, action) {
			a.l.errorf(a.path, "unknown action %s in %s%s: actions are %s",
				quote(action), header, suggest(action, actions), strings.Join(actions, " "))
			continue
		}
		keys, ok := a.strs(`["enter"]`)
		if !ok {
			continue
		}
		if len(keys) == 0 {
			a.fail(`has no keys: list at least one, such as %s = ["ctrl+s"]`, action)
			continue
		}
		for i, k := range keys {
			switch prev, dup := owner[k]; {
			case strings.TrimSpace(k) == "" && k != " ":
				a.l.errorf(append(a.path, index(i)), "%s: key %d is empty", action, i+1)
				ok = false
			case dup && prev != action:
				a.l.errorf(append(a.path, index(i)), "key %s is bound to both %s and %s", quote(k), prev, action)
				ok = false
			default:
				owner[k] = action
			}
		}
		if ok {
			out[action] = keys
		}
	}
	return out
}
