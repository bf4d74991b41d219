package images

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"testing"

	"muse/api"
)

func TestFetch(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nrest")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Error("a download carried credentials")
		}
		w.Write(png)
	}))
	defer srv.Close()
	c := api.New(srv.URL, api.WithAccessToken("secret"))
	got, err := Fetch(context.Background(), c, api.ImageData{B64JSON: base64.StdEncoding.EncodeToString(png)}, nil)
	if err != nil || string(got) != string(png) {
		t.Errorf("base64: %q, %v", got, err)
	}
	got, err = Fetch(context.Background(), c, api.ImageData{URL: srv.URL + "/img.png"}, nil)
	if err != nil || string(got) != string(png) {
		t.Errorf("url: %q, %v", got, err)
	}
	if _, err := Fetch(context.Background(), c, api.ImageData{}, nil); err == nil {
		t.Error("an image with neither data nor URL was fetched")
	}
}
