package config

import (
	"slices"
	"strconv"
	"strings"

	"muse/ui/keyaction"
)

// keys checks the [profiles.NAME.keys] table of the profile name, raw:
// action name → list of keys. A key bound to two actions is refused at its
// second place in the file.
func (l *loader) keys(name string, raw map[string][]string) map[string][]string {
	at := []string{"profiles", name, "keys"}
	header := "[profiles." + tableKey(name) + ".keys]"
	out := make(map[string][]string, len(raw))
	owner := map[string]string{} // key → action
	actions := keyaction.Names()
	for _, action := range byPlace(l, at, raw) {
		where := child(at, action)
		if !slices.Contains(actions, action) {
			if l.probs.Wants(l.places.At(where...).Line) {
				l.fail(where, "unknown action %s in %s%s: actions are %s",
					quote(action), header, suggest(action, actions), strings.Join(actions, " "))
			}
			continue
		}
		keys := raw[action]
		if len(keys) == 0 {
			l.fail(where, `%s has no keys: list at least one, such as %s = ["ctrl+s"]`, action, action)
			continue
		}
		ok := true
		for i, key := range keys {
			switch prev, dup := owner[key]; {
			case strings.TrimSpace(key) == "" && key != " ":
				l.fail(child(where, strconv.Itoa(i)), "%s: key %d is empty", action, i+1)
				ok = false
			case dup && prev != action:
				l.fail(child(where, strconv.Itoa(i)), "key %s is bound to both %s and %s", quote(key), prev, action)
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
