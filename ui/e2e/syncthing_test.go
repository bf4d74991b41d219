//go:build linux

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"muse/ui/internal/waitfor"
)

// TestSyncthing is two machines whose muse data folders the real Syncthing
// (Debian's, installed by .ci/run) keeps in sync over loopback. Both chat
// with the syncing paused, continuing the same session at once and making
// a session and an image of their own; then the syncing resumes, and
// Syncthing writes its conflict copy. Each muse's next commands merge it,
// and the machines converge: the same sessions, the shared one with both
// continuations as branches, the same search hits and images, no conflict
// copy left. The test waits for Syncthing to be idle through its REST API,
// never by sleeping: it asks again after each batch of Syncthing's events.
func TestSyncthing(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("syncthing"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("syncthing is not installed: .ci/run installs it")
		}
		t.Skip("syncthing is not installed (apt-get install syncthing)")
	}
	a, b := newHome(t, ""), newHome(t, "")
	data := func(h *home) string { return filepath.Join(h.dir, "data", "muse") }
	sessions := func(h *home) string { return filepath.Join(data(h), "sessions") }
	for _, h := range []*home{a, b} {
		if err := os.MkdirAll(filepath.Join(data(h), ".stfolder"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sa, sb := newSyncthing(t, "a", data(a)), newSyncthing(t, "b", data(b))
	sa.start(t, sb)
	sb.start(t, sa)
	sa.waitConnected(t, sb)

	a.run(t, "--demo", "-p", "the shared question")
	syncNow(t, sa, sb)
	id := onlySession(t, sessions(b))

	// Both go on at once, not synced.
	sa.post(t, "/rest/system/pause?device="+sb.id)
	sb.post(t, "/rest/system/pause?device="+sa.id)
	a.run(t, "--demo", "-c", "-p", "capybaras on machine a")
	b.run(t, "--demo", "-c", "-p", "lemurs on machine b")
	a.run(t, "--demo", "-p", "a session of a's own")
	b.run(t, "--demo", "-p", "a red fox", "--image", "--size", "32x32")
	// Each notes its own changes, as its file watcher would.
	sa.post(t, "/rest/db/scan?folder=muse")
	sb.post(t, "/rest/db/scan?folder=muse")
	sa.post(t, "/rest/system/resume?device="+sb.id)
	sb.post(t, "/rest/system/resume?device="+sa.id)
	sa.waitConnected(t, sb)
	syncNow(t, sa, sb)

	// Each muse catches up as it reads the sessions; what it merged syncs
	// back, until nothing waits on either side.
	converged := false
	for round := 0; round < 6 && !converged; round++ {
		a.run(t, "sessions", "list")
		b.run(t, "sessions", "list")
		syncNow(t, sa, sb)
		converged = !hasConflicts(t, sessions(a)) && !hasConflicts(t, sessions(b)) && sameLines(t, filepath.Join(sessions(a), id+".jsonl"), filepath.Join(sessions(b), id+".jsonl"))
	}
	if !converged {
		t.Fatalf("the machines did not converge:\n%v\n%v", dirList(t, sessions(a)), dirList(t, sessions(b)))
	}

	var lists, exports, images [2]string
	for i, h := range []*home{a, b} {
		lists[i] = h.run(t, "sessions", "list", "--json")
		exports[i] = sortedEntries(t, h.run(t, "sessions", "export", id, "--format", "json", "--all-branches"))
		for _, want := range []string{"capybaras", "lemurs"} {
			if out := h.run(t, "sessions", "search", want); !strings.Contains(out, id) {
				t.Errorf("machine %d: search %q misses the shared session:\n%s", i, want, out)
			}
		}
		found, _ := filepath.Glob(filepath.Join(data(h), "images", "*", "turn-1-image-1-*.png"))
		for k := range found {
			found[k] = strings.TrimPrefix(found[k], data(h))
		}
		images[i] = strings.Join(found, " ")
		// Nothing per machine is in the synced folder: no index, no lock.
		for _, pattern := range []string{"index.sqlite*", "*.lock"} {
			if found, err := filepath.Glob(filepath.Join(sessions(h), pattern)); err != nil || len(found) > 0 {
				t.Errorf("machine %d: %v in the synced folder (%v)", i, found, err)
			}
		}
	}
	if lists[0] != lists[1] || strings.Count(lists[0], `"id"`) != 3 {
		t.Errorf("the machines list different sessions:\n%s\n%s", lists[0], lists[1])
	}
	if exports[0] != exports[1] || !strings.Contains(exports[0], "capybaras on machine a") || !strings.Contains(exports[0], "lemurs on machine b") {
		t.Errorf("the shared session differs:\n%s\n%s", exports[0], exports[1])
	}
	if images[0] != images[1] || images[0] == "" {
		t.Errorf("images differ: %q, %q", images[0], images[1])
	}
}

// syncthing is one Syncthing instance, syncing one folder.
type syncthing struct {
	name, home, folder string
	id, key            string
	gui, listen        string
	cmd                *exec.Cmd
	exited             chan struct{} // closed when the process has ended
	since              int           // the id of the last event seen
}

func newSyncthing(t *testing.T, name, folder string) *syncthing {
	t.Helper()
	s := &syncthing{name: name, home: filepath.Join(t.TempDir(), "st-"+name), folder: folder, key: "musetest-" + name, gui: freeAddr(t), listen: freeAddr(t)}
	if out, err := exec.Command("syncthing", "generate", "--home="+s.home, "--no-default-folder", "--skip-port-probing").CombinedOutput(); err != nil {
		t.Fatalf("syncthing generate: %v\n%s", err, out)
	}
	out, err := exec.Command("syncthing", "serve", "--home="+s.home, "--device-id").Output()
	if err != nil {
		t.Fatalf("syncthing device id: %v", err)
	}
	s.id = strings.TrimSpace(string(out))
	return s
}

// freeAddr returns a loopback address with a port free now.
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// start writes s's configuration, which shares its folder with peer only
// (no discovery, relays or reporting), and runs it until the test ends.
func (s *syncthing) start(t *testing.T, peer *syncthing) {
	t.Helper()
	config := fmt.Sprintf(`<configuration version="35">
  <folder id="muse" label="muse" path="%s" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="false" autoNormalize="true">
    <filesystemType>basic</filesystemType>
    <maxConflicts>10</maxConflicts>
    <device id="%s"></device>
    <device id="%s"></device>
    <minDiskFree unit="%%">0</minDiskFree>
  </folder>
  <device id="%s" name="%s"><address>dynamic</address></device>
  <device id="%s" name="%s"><address>tcp://%s</address></device>
  <gui enabled="true" tls="false"><address>%s</address><apikey>%s</apikey></gui>
  <options>
    <listenAddress>tcp://%s</listenAddress>
    <globalAnnounceEnabled>false</globalAnnounceEnabled>
    <localAnnounceEnabled>false</localAnnounceEnabled>
    <relaysEnabled>false</relaysEnabled>
    <natEnabled>false</natEnabled>
    <startBrowser>false</startBrowser>
    <urAccepted>-1</urAccepted>
    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
    <crashReportingEnabled>false</crashReportingEnabled>
    <minHomeDiskFree unit="%%">0</minHomeDiskFree>
  </options>
</configuration>
`, s.folder, s.id, peer.id, s.id, s.name, peer.id, peer.name, peer.listen, s.gui, s.key, s.listen)
	if err := os.WriteFile(filepath.Join(s.home, "config.xml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	s.cmd = exec.Command("syncthing", "serve", "--home="+s.home, "--no-browser", "--no-restart", "--no-upgrade", "--logfile="+filepath.Join(s.home, "log"))
	s.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.home, "STNOUPGRADE=1", "STNODEFAULTFOLDER=1"}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.exited = make(chan struct{})
	go func() { s.cmd.Wait(); close(s.exited) }()
	t.Cleanup(func() {
		// SIGTERM, which syncthing's monitor passes on to the syncthing it
		// started and waits for: that one runs in a process group of its
		// own, and outlived a kill of the monitor (each loaded run of the
		// suite left two running).
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(waitfor.Scaled(waitDeadline)):
			s.cmd.Process.Kill()
			<-s.exited
		}
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(s.home, "log"))
			t.Logf("syncthing %s log:\n%s", s.name, log)
		}
	})
	// Its log names the API's address once it listens there.
	waitfor.File(t, filepath.Join(s.home, "log"), s.exited, "syncthing "+s.name+"'s API listening", func(b []byte) bool {
		return strings.Contains(string(b), s.gui)
	})
	if err := s.try("/rest/system/ping", nil); err != nil {
		t.Fatalf("syncthing %s: %v", s.name, err)
	}
}

// try gets path from s's REST API into v (when not nil).
func (s *syncthing) try(path string, v any) error {
	req, _ := http.NewRequest(http.MethodGet, "http://"+s.gui+path, nil)
	req.Header.Set("X-API-Key", s.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s %s", path, resp.Status, body)
	}
	if v != nil {
		return json.Unmarshal(body, v)
	}
	return nil
}

func (s *syncthing) post(t *testing.T, path string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.gui+path, nil)
	req.Header.Set("X-API-Key", s.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("syncthing %s: POST %s: %v", s.name, path, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("syncthing %s: POST %s: %s %s", s.name, path, resp.Status, body)
	}
}

// until waits until cond, a question to Syncthing's REST API, holds. It
// asks again after each batch of Syncthing's events (a long poll of
// /rest/events, which answers as soon as something happens), never on a
// timer; the watchdog, scaled by load, only names a hang.
func (s *syncthing) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	limit := waitfor.Scaled(60 * time.Second)
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("syncthing %s: %s: not within %v", s.name, what, limit)
		}
		var events []struct {
			ID int `json:"id"`
		}
		// The poll's own timeout only lets the watchdog be checked.
		if err := s.try(fmt.Sprintf("/rest/events?since=%d&timeout=10", s.since), &events); err != nil {
			t.Fatalf("syncthing %s: %s: %v", s.name, what, err)
		}
		for _, e := range events {
			s.since = max(s.since, e.ID)
		}
	}
}

func (s *syncthing) waitConnected(t *testing.T, peer *syncthing) {
	t.Helper()
	for _, x := range []*syncthing{s, peer} {
		other := peer
		if x == peer {
			other = s
		}
		x.until(t, "connected", func() bool {
			var c struct {
				Connections map[string]struct {
					Connected bool `json:"connected"`
					Paused    bool `json:"paused"`
				} `json:"connections"`
			}
			return x.try("/rest/system/connections", &c) == nil && c.Connections[other.id].Connected && !c.Connections[other.id].Paused
		})
	}
}

// syncNow has both instances scan their folder, then waits until each is
// idle, needs nothing, and knows the other to need nothing either.
func syncNow(t *testing.T, a, b *syncthing) {
	t.Helper()
	for range 2 { // a scan on one side can bring the other's pull, then its scan
		a.post(t, "/rest/db/scan?folder=muse")
		b.post(t, "/rest/db/scan?folder=muse")
		for _, x := range []*syncthing{a, b} {
			other := b
			if x == b {
				other = a
			}
			x.until(t, "in sync", func() bool {
				var st struct {
					State      string `json:"state"`
					NeedTotal  int    `json:"needTotalItems"`
					InSyncFile int    `json:"inSyncFiles"`
				}
				var c struct {
					Completion float64 `json:"completion"`
					NeedItems  int     `json:"needItems"`
				}
				return x.try("/rest/db/status?folder=muse", &st) == nil && st.State == "idle" && st.NeedTotal == 0 &&
					x.try("/rest/db/completion?folder=muse&device="+other.id, &c) == nil && c.Completion == 100 && c.NeedItems == 0
			})
		}
	}
}

func onlySession(t *testing.T, dir string) string {
	t.Helper()
	js, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(js) != 1 {
		t.Fatalf("journals synced: %v", js)
	}
	return strings.TrimSuffix(filepath.Base(js[0]), ".jsonl")
}

func hasConflicts(t *testing.T, dir string) bool {
	for _, n := range dirList(t, dir) {
		if strings.Contains(n, ".sync-conflict-") {
			return true
		}
	}
	return false
}

func dirList(t *testing.T, dir string) []string {
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// sameLines reports whether two journals hold the same records.
func sameLines(t *testing.T, a, b string) bool {
	da, err1 := os.ReadFile(a)
	db, err2 := os.ReadFile(b)
	if err1 != nil || err2 != nil {
		return false
	}
	la, lb := strings.Split(string(da), "\n"), strings.Split(string(db), "\n")
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}

// sortedEntries is the ids, parents, kinds and texts of an export's
// entries, sorted: the tree, whatever order it was written in.
func sortedEntries(t *testing.T, export string) string {
	var ex struct {
		Entries []struct {
			ID     string `json:"id"`
			Parent string `json:"parent"`
			Kind   string `json:"kind"`
			Text   string `json:"text"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(export), &ex); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ex.Entries {
		out = append(out, e.ID+" < "+e.Parent+" "+e.Kind+" "+e.Text)
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
