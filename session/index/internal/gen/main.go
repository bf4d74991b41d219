// Command gen writes a made-up history of sessions, for measuring muse's
// session list, search and index on years of use:
//
//	go run ./session/index/internal/gen -data DIR [-sessions 10000] [-entries 50]
//
// writes the journals into DIR/muse/sessions (DIR is an XDG_DATA_HOME),
// each a header, a title and entries: prompts, replies with thinking and
// tool calls, tool results, and now and then an image. The text is words
// drawn from a made-up vocabulary, the common ones more often; the word
// "zebracorn" is in about one entry in a thousand, for a rare word to
// search. It is a tool of the repository, not part of muse.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"muse/api"
	"muse/session"
)

func main() {
	data := flag.String("data", "", "the XDG_DATA_HOME to write the sessions into")
	sessions := flag.Int("sessions", 10000, "how many sessions")
	entries := flag.Int("entries", 50, "how many entries each session has")
	seed := flag.Uint64("seed", 1, "the random seed")
	flag.Parse()
	if *data == "" {
		fmt.Fprintln(os.Stderr, "usage: gen -data DIR [-sessions N] [-entries N]")
		os.Exit(2)
	}
	if err := generate(filepath.Join(*data, "muse", "sessions"), *sessions, *entries, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// vocabulary returns n made-up words.
func vocabulary(r *rand.Rand, n int) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	words := make([]string, n)
	for i := range words {
		var b strings.Builder
		for range 3 + r.IntN(8) {
			b.WriteByte(letters[r.IntN(len(letters))])
		}
		words[i] = b.String()
	}
	return words
}

// texter makes text of the vocabulary's words, Zipf-distributed.
type texter struct {
	r     *rand.Rand
	words []string
	zipf  *rand.Zipf
}

func (t *texter) text(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if i%15 == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		if t.r.IntN(1000*n) == 0 { // in one text of a thousand
			b.WriteString("zebracorn")
			continue
		}
		b.WriteString(t.words[t.zipf.Uint64()])
	}
	return b.String()
}

// line is one record of a journal, as session's journal.go describes.
type line struct {
	V       int             `json:"v,omitempty"`
	Type    string          `json:"type"`
	Time    time.Time       `json:"time"`
	ID      string          `json:"id,omitempty"`
	Created *time.Time      `json:"created,omitempty"`
	Params  *session.Params `json:"params,omitempty"`
	Title   *string         `json:"title,omitempty"`
	Entry   *session.Entry  `json:"entry,omitempty"`
}

func generate(dir string, sessions, entries int, seed uint64) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(seed, 7))
	words := vocabulary(r, 20000)
	t := &texter{r: r, words: words, zipf: rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))}
	models := []string{"claude-opus-4-1", "claude-sonnet-4-5", "claude-haiku-4-5"}
	start := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	var total int64
	for s := range sessions {
		created := start.Add(time.Duration(s) * 4 * time.Hour)
		id := fmt.Sprintf("%s-%06x", created.Format("20060102-150405"), s)
		model := models[r.IntN(len(models))]
		f, err := os.OpenFile(filepath.Join(dir, id+".jsonl"), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<16)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		title := t.text(4)
		enc.Encode(line{V: 2, Type: "header", Time: created, ID: id, Created: &created, Params: &session.Params{Model: model, MaxTokens: 8192}})
		enc.Encode(line{Type: "title", Time: created, Title: &title})
		at, parent := created, ""
		for i := 1; i <= entries; i++ {
			at = at.Add(time.Duration(10+r.IntN(300)) * time.Second)
			e := session.Entry{ID: fmt.Sprintf("e%d", i), Parent: parent, Time: at}
			switch {
			case i%2 == 1 && r.IntN(20) == 0:
				e.Kind = session.KindImage
				e.ImagePrompt = t.text(20)
				e.Images = []session.Image{{Index: 0, Width: 1024, Height: 1024, RevisedPrompt: t.text(40)}}
			case i%2 == 1:
				e.Kind = session.KindUser
				e.Text = t.text(20 + r.IntN(80))
			default:
				e.Kind = session.KindAssistant
				content := []api.ContentBlock{}
				if r.IntN(3) == 0 {
					content = append(content, api.ContentBlock{Type: api.BlockThinking, Thinking: t.text(60), Signature: "sig"})
				}
				content = append(content, api.ContentBlock{Type: api.BlockText, Text: t.text(80 + r.IntN(260))})
				e.Message = &api.Message{ID: fmt.Sprintf("msg_%d_%d", s, i), Type: "message", Role: "assistant", Model: model, Content: content,
					StopReason: "end_turn", Usage: api.Usage{InputTokens: 100 * i, OutputTokens: 300}}
			}
			// Now and then a prompt edited: a branch beside the last prompt.
			if e.Kind == session.KindUser && i > 4 && r.IntN(10) == 0 {
				e.Parent = fmt.Sprintf("e%d", i-3)
			}
			enc.Encode(line{Type: "entry", Time: at, Entry: &e})
			parent = e.ID
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fi, _ := f.Stat()
		total += fi.Size()
		if err := f.Close(); err != nil {
			return err
		}
		os.Chtimes(f.Name(), at, at)
	}
	fmt.Fprintf(os.Stderr, "gen: %d sessions, %d entries, %d MB of journals in %s\n", sessions, sessions*entries, total>>20, dir)
	return nil
}
