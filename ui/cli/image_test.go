package cli

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
)

func TestDemoImageWritesPNGs(t *testing.T) {
	out := t.TempDir()
	r := runMain(t, nil, "", "--demo", "-p", "demo:mixed a red fox", "--image", "--size", "64x48", "--out", out)
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "\thttp://127.0.0.1") || strings.Contains(lines[1], "\t") {
		t.Fatalf("stdout lines %q: want path<TAB>url for the url image, the path alone for the b64 one", lines)
	}
	for _, l := range lines {
		path, _, _ := strings.Cut(l, "\t")
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != 64 || cfg.Height != 48 || filepath.Dir(path) != out {
			t.Errorf("%s: %v %dx%d", path, err, cfg.Width, cfg.Height)
		}
	}
	if !strings.Contains(r.stderr, "revised prompt") {
		t.Errorf("revised prompt not on stderr: %q", r.stderr)
	}
}

func TestDemoImageDefaultDirAndJSON(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	r := runMain(t, env, "", "--demo", "-p", "a blue lake", "--image", "--json", "--size", "32*32")
	var res struct {
		Data []struct {
			Path, RevisedPrompt string
			Width, Height       int
		} `json:"data"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || len(res.Data) != 1 {
		t.Fatalf("%+v", r)
	}
	d := res.Data[0]
	if !strings.HasPrefix(d.Path, filepath.Join(env["XDG_DATA_HOME"], "muse", "images")) || d.Width != 32 {
		t.Errorf("saved %+v", d)
	}
	if st, err := os.Stat(filepath.Dir(d.Path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("image dir mode: %v %v", err, st.Mode().Perm())
	}
}

func TestImageErrorsAndContinue(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--demo", "-p", "x", "--image", "--size", "0x5"}, 2, "--size must be"},
		{[]string{"--demo", "--size", "5x5"}, 2, "--size goes with"},
		{[]string{"--demo", "--image"}, 2, "--image goes with -p"},
		{[]string{"--demo", "-p", "demo:404 x", "--image"}, 1, "404"},
		{[]string{"--demo", "-p", "demo:huge x", "--image"}, 1, "too large"},
	}
	for _, tc := range cases {
		r := runMain(t, nil, "", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: %+v", tc.args, r)
		}
	}
	// With -c the image turn is recorded in the session.
	env, store, ids := seed(t)
	r := runMain(t, env, "", "--demo", "-r", ids[1], "-p", "draw it", "--image", "--size", "16x16")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	sess, _ := store.Load(ids[1])
	last := sess.Entries[len(sess.Entries)-1]
	if last.Kind != session.KindImage || len(last.Images) != 1 || last.Images[0].Path == "" {
		t.Errorf("last entry %+v", last)
	}
	if !strings.Contains(last.Images[0].Path, ids[1]) {
		t.Errorf("image not saved under the session's folder: %s", last.Images[0].Path)
	}
}

func TestPrintToolCalls(t *testing.T) {
	tools := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(tools, []byte(`[{"name":"get_time","description":"d","input_schema":{"type":"object"},"command":["sh","-c","cat >/dev/null; echo 12:00"]}]`), 0o600)
	r := runMain(t, nil, "", "--demo", "--tools", tools, "-p", "demo:tool time?")
	if r.code != 0 || !strings.Contains(r.stdout, `[{"id":"toolu_demo_`) || !strings.Contains(r.stdout, `"name":"get_time"`) {
		t.Errorf("without --allow-tools: %+v", r)
	}
	r = runMain(t, nil, "", "--demo", "--tools", tools, "--allow-tools", "-p", "demo:tool time?")
	if r.code != 0 || !strings.Contains(r.stdout, "The tool returned: 12:00") || !strings.Contains(r.stderr, "running tool get_time") {
		t.Errorf("with --allow-tools: %+v", r)
	}
	os.WriteFile(tools, []byte(`[{"name":"","input_schema":{}}]`), 0o600)
	if r := runMain(t, nil, "", "--demo", "--tools", tools, "-p", "x"); r.code != 2 || !strings.Contains(r.stderr, "has no name") {
		t.Errorf("bad tools file: %+v", r)
	}
	if r := runMain(t, nil, "", "--demo", "--allow-tools"); r.code != 2 {
		t.Errorf("--allow-tools without -p: %+v", r)
	}
}
