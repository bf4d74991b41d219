package session

import (
	"reflect"
	"testing"
)

func TestImageParamsSavedWithSession(t *testing.T) {
	s, _ := newTestStore(t)
	p := fullParams()
	p.Image = &ImageParams{Model: "wanx-v1", Size: "1024*1024", NegativePrompt: "blurry", PromptExtend: boolp(true), Watermark: boolp(false)}
	sess, err := s.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// The session keeps its own copy.
	*p.Image.PromptExtend = false
	p.Image.Size = "512*512"
	if !*sess.Params.Image.PromptExtend || sess.Params.Image.Size != "1024*1024" {
		t.Errorf("Create shares the image settings with its caller: %+v", sess.Params.Image)
	}
	q := sess.Params
	q.Image = &ImageParams{Model: "wanx2", Watermark: boolp(true)}
	if err := s.SetParams(sess, q); err != nil {
		t.Fatal(err)
	}
	*q.Image.Watermark = false
	if !*sess.Params.Image.Watermark {
		t.Error("SetParams shares the image settings with its caller")
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := ImageParams{Model: "wanx2", Watermark: boolp(true)}
	if !reflect.DeepEqual(*got.Params.Image, want) || got.Params.Model != p.Model {
		t.Errorf("loaded image settings %+v, want %+v", got.Params.Image, want)
	}
	c := got.Params.Clone()
	if c.Image == got.Params.Image || c.Image.Watermark == got.Params.Image.Watermark {
		t.Error("Params.Clone shares the image settings")
	}
}
