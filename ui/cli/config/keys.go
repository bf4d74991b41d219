package config

import (
	"slices"
	"strings"

	"muse/ui/keyaction"
)

// keys reads a [profiles.NAME.keys] table: action name → list of keys. A key
// bound to two actions is refused.
func (v value) keys() map[string][]string {
	t, ok := v.table(`[profiles.NAME.keys] with send = ["enter"]`)
	if !ok {
		return nil
	}
	header := "[profiles." + tableKey(v.l.profile) + ".keys]"
	out := make(map[string][]string, len(t.keys))
	owner := map[string]string{} // key → action
	actions := keyaction.Names()
	for _, k := range t.keys {
		action := k.name
		a := v.child(t, action)
		if !slices.Contains(actions, action) {
			if a.l.wants(a.line) {
				a.l.errorf(a.line, "unknown action %s in %s%s: actions are %s",
					quote(action), header, suggest(action, actions), strings.Join(actions, " "))
			}
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
		elems := a.v.(*tomlArray).elems
		for i, key := range keys {
			switch prev, dup := owner[key]; {
			case strings.TrimSpace(key) == "" && key != " ":
				a.l.errorf(int(elems[i].line), "%s: key %d is empty", action, i+1)
				ok = false
			case dup && prev != action:
				a.l.errorf(int(elems[i].line), "key %s is bound to both %s and %s", quote(key), prev, action)
				ok = false
			default:
				owner[key] = action
			}
		}
		if ok {
			out[action] = keys
		}
	}
	return out
}
