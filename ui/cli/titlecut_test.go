package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
)

// TestTitleCutAfterSanitizing checks that sessions list and search, in a
// pipe, cut a title as it is shown: escape sequences a synced or hostile
// journal holds take no room from the title's text, and an invisible
// character is shown, not cut away or pushed out of its column.
func TestTitleCutAfterSanitizing(t *testing.T) {
	env := placesEnv(t)
	store, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	title := strings.Repeat(osc52, 4) + "Fruit\u200bsalad"
	seedSession(t, store, session.Params{Model: strings.Repeat(clear, 10) + "demo-chat"}, title, session.Entry{Kind: session.KindUser, Text: "pineapple"})
	for _, args := range [][]string{{"sessions", "list"}, {"sessions", "search", "pineapple"}} {
		r := runSessions(t, env, false, "", args...)
		if r.code != ExitOK {
			t.Fatalf("%s: %+v", args, r)
		}
		checkSafe(t, strings.Join(args, " "), r.stdout)
		if !strings.Contains(r.stdout, "Fruit<U+200B>salad") {
			t.Errorf("%s: the title is not shown whole:\n%s", args, r.stdout)
		}
	}
}
