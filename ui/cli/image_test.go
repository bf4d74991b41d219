package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/theme"
	"muse/ui"
	"muse/ui/engine"
	"muse/ui/internal/waitfor"
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
	// Again into the same folder: new names that cannot be read as
	// "image 1 of 2", and the first run's files are kept.
	r = runMain(t, nil, "", "--demo", "-p", "demo:mixed a red fox", "--image", "--size", "64x48", "--out", out)
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	var second []string
	for l := range strings.SplitSeq(strings.TrimSpace(r.stdout), "\n") {
		path, _, _ := strings.Cut(l, "\t")
		second = append(second, filepath.Base(path))
	}
	if want := []string{"image-1 (2).png", "image-2 (2).png"}; !slices.Equal(second, want) {
		t.Errorf("second run saved %q, want %q", second, want)
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
	if !strings.Contains(r.stderr, "not run: --allow-tools runs them") {
		t.Errorf("without --allow-tools, stderr does not say how to run the calls: %q", r.stderr)
	}
	if q := runMain(t, nil, "", "--demo", "--tools", tools, "--quiet", "-p", "demo:tool time?"); q.code != 0 || q.stderr != "" {
		t.Errorf("--quiet: code %d stderr %q; want no note", q.code, q.stderr)
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

// imageRecords returns the records of image entries of the latest session
// of store, made comparable: no times, no latency, the URLs without their
// host, the paths from the images folder with the session's id as SID; and
// the files of the images folder, named the same way.
func imageRecords(t *testing.T, store *session.Store) (records []string, files []string) {
	t.Helper()
	sess, err := store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(store.ImageDir(sess.ID))
	clean := func(s string) string {
		s = strings.ReplaceAll(s, root, "IMAGES")
		s = strings.ReplaceAll(s, sess.ID, "SID")
		return regexp.MustCompile(`http://127\.0\.0\.1:\d+`).ReplaceAllString(s, "http://HOST")
	}
	data, err := os.ReadFile(filepath.Join(store.Dir(), sess.ID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		e, _ := rec["entry"].(map[string]any)
		if e == nil || e["kind"] != session.KindImage {
			continue
		}
		delete(rec, "time")
		delete(rec, "m") // the writing machine: each run's own
		delete(e, "time")
		delete(e, "latency_ms")
		delete(e, "id") // unique on every machine, so never the same twice
		delete(e, "parent")
		b, _ := json.Marshal(rec)
		records = append(records, clean(string(b)))
	}
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, clean(path))
		}
		return nil
	})
	return records, files
}

// An image turn of -p and one of the chat screen, after a message turn,
// leave the same records in the journal and the same files.
func TestImageTurnSameRecordsFromPrintAndChat(t *testing.T) {
	const prompt = "demo:mixed a red fox"
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	if r := runMain(t, env, "", "--demo", "-p", "hello"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if r := runMain(t, env, "", "--demo", "-c", "-p", prompt, "--image", "--size", "16x16"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	printStore, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	printRecords, printFiles := imageRecords(t, printStore)

	srv := httptest.NewServer(demo.NewHandler(demo.Options{}))
	defer srv.Close()
	chatStore, err := session.Open(filepath.Join(t.TempDir(), "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(ui.Options{
		Config: engine.Config{Client: api.New(srv.URL, api.WithAccessToken(demo.DefaultToken))}, Store: chatStore, Theme: th,
		Params: session.Params{Model: "demo-chat", MaxTokens: 4096}, ImageModel: "demo-image",
		Getenv: func(string) string { return "" },
	})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 40))
	enter := func(s string) {
		tm.Type(s)
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	}
	enter("hello")
	waitEntry(t, chatStore, session.KindAssistant)
	// The turn has ended on screen too, or /image is refused as busy.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("stop end_turn")) },
		teatest.WithDuration(waitfor.Scaled(10*time.Second)), teatest.WithCheckInterval(10*time.Millisecond))
	enter("/size 16x16")
	enter("/image " + prompt)
	waitEntry(t, chatStore, session.KindImage)
	enter("/quit") // once the turn has ended on screen too
	tm.WaitFinished(t, teatest.WithFinalTimeout(waitfor.Scaled(10*time.Second)))
	chatRecords, chatFiles := imageRecords(t, chatStore)

	if len(printRecords) != 2 || strings.Join(printRecords, "\n") != strings.Join(chatRecords, "\n") {
		t.Errorf("-p wrote:\n%s\nthe chat screen wrote:\n%s", strings.Join(printRecords, "\n"), strings.Join(chatRecords, "\n"))
	}
	if len(printFiles) != 2 || strings.Join(printFiles, " ") != strings.Join(chatFiles, " ") {
		t.Errorf("-p saved %v, the chat screen %v", printFiles, chatFiles)
	}
}

// waitEntry waits until the latest session of store ends with a finished
// entry of kind, checking at each change of a journal in the store.
func waitEntry(t *testing.T, store *session.Store, kind string) {
	t.Helper()
	waitfor.Dir(t, store.Dir(), nil, "a finished "+kind+" entry", func() bool {
		sess, err := store.Latest()
		if err != nil || len(sess.Entries) == 0 {
			return false
		}
		e := sess.Entries[len(sess.Entries)-1]
		return e.Kind == kind && e.Status != session.StatusStreaming
	})
}

// -p says when the server sent more images than muse keeps.
func TestPrintImageDropped(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "-p", "demo:many cats", "--image", "--size", "16x16")
	if r.code != 0 || strings.Count(r.stdout, "\n") != 4 || !strings.Contains(r.stderr, "muse: the server sent 12 images; kept the first 4\n") {
		t.Fatalf("%+v", r)
	}
	r = runMain(t, nil, "", "--demo", "-p", "demo:many cats", "--image", "--size", "16x16", "--json")
	var res struct {
		Data    []json.RawMessage `json:"data"`
		Dropped int               `json:"dropped"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || len(res.Data) != 4 || res.Dropped != 8 {
		t.Errorf("--json: %+v", r)
	}
}

// -p shows the progress of an asynchronous task on standard error when it
// is a terminal, on one line it then clears, and says nothing of it when
// it is not.
func TestPrintImageTaskProgress(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00\x00\x00\x00:~\x9bU\x00\x00\x00\nIDATx\x9cc`\x00\x00\x00\x02\x00\x01H\xaf\xa4q\x00\x00\x00\x00IEND\xaeB`\x82")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/img.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(png)
		case strings.HasPrefix(r.URL.Path, "/api/v1/tasks/"):
			fmt.Fprintf(w, `{"output":{"task_id":"t1","task_status":"SUCCEEDED","results":[{"url":"http://%s/img.png"}]}}`, r.Host)
		default:
			fmt.Fprint(w, `{"output":{"task_id":"t1","task_status":"PENDING"}}`)
		}
	}))
	defer srv.Close()
	for _, tty := range []bool{true, false} {
		var out, errb bytes.Buffer
		env := map[string]string{"XDG_DATA_HOME": t.TempDir(), "MUSE_BASE_URL": srv.URL, "MUSE_ACCESS_TOKEN": "t", "MUSE_MODEL": "m"}
		code := Main([]string{"-p", "a fox", "--image", "--image-model", "m"}, Env{
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, StderrTTY: tty,
			Getenv: func(k string) string { return env[k] },
		})
		if code != 0 || !regexp.MustCompile(`turn-1-image-1-[0-9a-f]{12}\.png\t`+regexp.QuoteMeta(srv.URL)+`/img\.png$`).MatchString(strings.TrimSpace(out.String())) {
			t.Fatalf("tty %v: code %d, stdout %q, stderr %q", tty, code, out.String(), errb.String())
		}
		want := "\r\x1b[Kmuse: image task pending · 0s\r\x1b[Kmuse: image task succeeded · 1s\r\x1b[K"
		if !tty {
			want = ""
		}
		if errb.String() != want {
			t.Errorf("tty %v: stderr %q, want %q", tty, errb.String(), want)
		}
	}
}
