package cli

import (
	"net"
	"strings"
	"testing"
)

// Every hint muse doctor prints works when pasted: it does not offer to
// write the profile that is already in effect (config init would refuse),
// and a failed connection does not send the reader to muse doctor.
func TestDoctorHintsWorkWhenPasted(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() // nothing listens there once closed
	ln.Close()

	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir()}
	if r := runMain(t, env, "", "config", "init", "--service", "ollama"); r.code != 0 {
		t.Fatalf("config init --service ollama: %+v", r)
	}
	// Its profile is in effect: the recipe is named, with no offer to write it.
	r := runMain(t, env, "", "doctor")
	if !strings.Contains(r.stdout, "this address fits the recipe ollama") || strings.Contains(r.stdout, "config init --service") {
		t.Errorf("doctor with the ollama profile offers to write it again:\n%s", r.stdout)
	}
	if again := runMain(t, env, "", "config", "init", "--service", "ollama"); again.code != 2 {
		t.Errorf("config init --service ollama over its own profile: %+v", again)
	}

	// From the environment, with no profile: the offer stands, and works.
	bare := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(),
		"ANTHROPIC_BASE_URL": "http://localhost:11434", "ANTHROPIC_MODEL": "qwen3-coder"}
	r = runMain(t, bare, "", "doctor")
	if !strings.Contains(r.stdout, "(muse config init --service ollama writes its profile)") {
		t.Errorf("doctor from the environment does not offer the recipe:\n%s", r.stdout)
	}
	if w := runMain(t, bare, "", "config", "init", "--service", "ollama"); w.code != 0 {
		t.Errorf("the offered command fails: %+v", w)
	}

	// Nothing listens: doctor says what to do, not to run doctor.
	bare["MUSE_BASE_URL"] = closed
	r = runMain(t, bare, "", "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, "✗ reachable") || !strings.Contains(r.stdout, "nothing listens there") {
		t.Fatalf("doctor against a closed port: %+v", r)
	}
	if strings.Contains(r.stdout, "muse doctor checks it") {
		t.Errorf("doctor sends the reader to doctor:\n%s", r.stdout)
	}
}
