package fileio

import "testing"

func TestTempBase(t *testing.T) {
	for name, want := range map[string]string{
		".a.png.123.tmp": "a.png", ".index.json.0.tmp": "index.json", ".x.1.tmp": "x",
		".a.png.12a.tmp": "", "a.png.1.tmp": "", ".a.png.tmp": "", "..1.tmp": "", ".a.png.1.tmpx": "", ".a.png..tmp": "",
	} {
		if got, ok := tempBase(name); got != want || ok != (want != "") {
			t.Errorf("%q: %q %v", name, got, ok)
		}
	}
}
