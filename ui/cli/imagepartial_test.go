package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A DashScope task that succeeds for one image and fails for the other:
// -p prints the image it got, names the failed one and why on standard
// error, and exits 1; --json gives the failed image its error in its
// place.
func TestPrintImagePartialFailure(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00\x00\x00\x00:~\x9bU\x00\x00\x00\nIDATx\x9cc`\x00\x00\x00\x02\x00\x01H\xaf\xa4q\x00\x00\x00\x00IEND\xaeB`\x82")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/img.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(png)
		case strings.HasPrefix(r.URL.Path, "/api/v1/tasks/"):
			fmt.Fprintf(w, `{"output":{"task_id":"t1","task_status":"SUCCEEDED","results":[{"url":"http://%s/img.png"},
				{"code":"DataInspectionFailed","message":"Output data may contain inappropriate content."}]}}`, r.Host)
		default:
			fmt.Fprint(w, `{"output":{"task_id":"t1","task_status":"PENDING"}}`)
		}
	}))
	defer srv.Close()
	for _, asJSON := range []bool{false, true} {
		var out, errb bytes.Buffer
		env := map[string]string{"XDG_DATA_HOME": t.TempDir(), "MUSE_BASE_URL": srv.URL, "MUSE_ACCESS_TOKEN": "t", "MUSE_MODEL": "m"}
		args := []string{"-p", "two foxes", "--image", "--image-model", "m"}
		if asJSON {
			args = append(args, "--json")
		}
		code := Main(args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }})
		if code != 1 {
			t.Errorf("json %v: exit %d, want 1; stdout %q stderr %q", asJSON, code, out.String(), errb.String())
		}
		if !asJSON {
			if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "turn-1-image-1") {
				t.Errorf("stdout %q", out.String())
			}
			if !strings.Contains(errb.String(), "image 2: the server failed this image: DataInspectionFailed: Output data may contain inappropriate content.") {
				t.Errorf("stderr %q", errb.String())
			}
			continue
		}
		var res struct {
			Data []struct {
				Path  string `json:"path"`
				Error string `json:"error"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res.Data) != 2 || res.Data[0].Path == "" ||
			!strings.Contains(res.Data[1].Error, "DataInspectionFailed") {
			t.Errorf("--json %s (%v)", out.String(), err)
		}
	}
}
