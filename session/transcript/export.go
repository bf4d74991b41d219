package transcript

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"muse/api"
	"muse/session"
)

// Export writes sess to w in format "md", a Markdown transcript, or "json",
// the session as indented JSON, settings included.
//
// The transcript has the title as its heading, then when the session was
// created and updated and its model, then each entry: "## You" with the
// prompt, "## Assistant (model)" with the reply's thinking in a <details>
// block, its text as it is, its tool calls as JSON code blocks, a stop
// reason other than end_turn in italics and a note when it was cancelled or
// interrupted; errors as quotes such as "> **Error 529 overloaded_error**:
// Overloaded (request req_1)"; notices as quotes; image generations with
// their prompt and their images as links to the saved files. Of the
// settings it shows only the model.
//
// Stored texts may hold escape sequences, which would act on the terminal
// the export is later printed on. This package writes text as it was
// stored; clean, given by the front end, makes the whole export safe before
// it is written (the front ends pass sanitize.ForExport: escapes removed from
// Markdown, control characters escaped in JSON). A nil clean writes the
// export as it is.
//
// A session whose Created time is zero, as one never saved, is exported as
// created at its earliest entry; one whose Updated time is zero as updated
// at its latest entry or when it was created.
//
// Attachments: the Markdown transcript lists each prompt's attachments as
// links to their stored files; the JSON export embeds their bytes, once
// each, as base64 in "files", keyed by their SHA-256, so that an import on
// another machine has them. files finds them; with nil files they are only
// named.
func Export(sess *session.Session, format string, w io.Writer, clean func(format string, data []byte) []byte, files Files) error {
	return export(sess, format, w, clean, files, false)
}

// Files finds the stored attachments of a session (a *session.Store).
type Files interface {
	AttachmentPath(sessionID string, a session.Attachment) string
	ReadAttachment(sessionID string, a session.Attachment) ([]byte, error)
	ReadImage(img session.Image) ([]byte, error)
}

// ExportBranches writes sess like Export, with every branch: in Markdown the
// active branch, then each other branch from where it leaves it; in JSON
// every entry of every branch, each naming its parent, in the order they
// were written, and the head, which "muse sessions import" rebuilds.
func ExportBranches(sess *session.Session, format string, w io.Writer, clean func(format string, data []byte) []byte, files Files) error {
	return export(sess, format, w, clean, files, true)
}

func export(sess *session.Session, format string, w io.Writer, clean func(format string, data []byte) []byte, files Files, all bool) error {
	if sess == nil {
		return fmt.Errorf("export session: no session")
	}
	if format != "md" && format != "json" {
		return fmt.Errorf("export session %s: unknown format %q (want md or json)", sess.ID, format)
	}
	// Written as it is made, a line at a time through clean: an export
	// holds about an entry, not the whole of it.
	cw := NewCleanWriter(w, func(data []byte) []byte { return data })
	if clean != nil {
		cw = NewCleanWriter(w, func(data []byte) []byte { return clean(format, data) })
	}
	b := bufio.NewWriterSize(cw, 64<<10)
	var err error
	if format == "md" {
		writeMarkdown(sess, b, files)
		if all {
			writeMarkdownBranches(sess, b, files)
		}
	} else {
		err = writeJSON(sess, b, files, all)
	}
	if err == nil {
		err = b.Flush()
	}
	if err == nil {
		err = cw.Flush()
	}
	if err != nil {
		return fmt.Errorf("export session %s: %w", sess.ID, err)
	}
	return nil
}

// writeJSON writes sess as indented JSON, as encoding/json writes the
// session with its head (all) and files, but a field, an entry and a file
// at a time: the files are read one at a time, as they are written.
func writeJSON(sess *session.Session, b *bufio.Writer, files Files, all bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// value writes v, indented at the depth of prefix.
	value := func(v any, prefix string) error {
		buf.Reset()
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		_, err := b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		return err
	}
	field := func(name string, v any) error {
		fmt.Fprintf(b, ",\n  %q: ", name)
		return value(v, "  ")
	}
	created, updated := Times(sess)
	entries := sess.Entries
	if all {
		entries = sess.All
	}
	embeds := embedded(sess.ID, entries, files)
	b.WriteString("{\n  \"id\": ")
	if err := value(sess.ID, "  "); err != nil {
		return err
	}
	if sess.Title != "" {
		if err := field("title", sess.Title); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		v    any
	}{{"created", created}, {"updated", updated}, {"params", sess.Params}} {
		if err := field(f.name, f.v); err != nil {
			return err
		}
	}
	if len(entries) > 0 {
		b.WriteString(",\n  \"entries\": [")
		for i := range entries {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n    ")
			if err := value(embeds.entry(entries, i), "    "); err != nil {
				return err
			}
		}
		b.WriteString("\n  ]")
	}
	if sess.ForkedFrom != nil {
		if err := field("forked_from", sess.ForkedFrom); err != nil {
			return err
		}
	}
	if all && sess.Head != "" {
		if err := field("head", sess.Head); err != nil {
			return err
		}
	}
	n := 0
	for _, hash := range embeds.hashes {
		data, ok := embeds.read(hash)
		if !ok {
			continue // left out: an import reports it missing
		}
		if n == 0 {
			b.WriteString(",\n  \"files\": {")
		} else {
			b.WriteString(",")
		}
		n++
		fmt.Fprintf(b, "\n    %q: ", hash)
		if err := value(data, "    "); err != nil {
			return err
		}
	}
	if n > 0 {
		b.WriteString("\n  }")
	}
	_, err := b.WriteString("\n}\n")
	return err
}

// Times returns when sess was created and last updated. A zero Created falls
// back to the earliest entry time, a zero Updated to the latest entry time
// or else to the creation time; either stays zero when nothing is known.
func Times(sess *session.Session) (created, updated time.Time) {
	created, updated = sess.Created, sess.Updated
	if !created.IsZero() && !updated.IsZero() {
		return created, updated
	}
	var first, last time.Time
	for i := range sess.Entries {
		t := sess.Entries[i].Time
		if t.IsZero() {
			continue
		}
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	if created.IsZero() {
		created = first
	}
	if updated.IsZero() {
		updated = last
		if updated.IsZero() {
			updated = created
		}
	}
	return created, updated
}

// stamp formats a time of a transcript.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// header returns the line under a transcript's title: when sess was created
// and updated, and its model. A time that is not known is left out.
func header(sess *session.Session) string {
	var parts []string
	created, updated := Times(sess)
	if !created.IsZero() {
		parts = append(parts, "created "+stamp(created))
	}
	if !updated.IsZero() {
		parts = append(parts, "updated "+stamp(updated))
	}
	if sess.Params.Model != "" {
		parts = append(parts, "model "+sess.Params.Model)
	}
	return strings.Join(parts, " · ")
}

// statusNote names an unusual status of an entry, "" for others.
func statusNote(status string) string {
	switch status {
	case session.StatusCancelled, session.StatusInterrupted, session.StatusFailed, session.StatusStreaming:
		return status
	}
	return ""
}

// ErrorLine describes a failed request as "Error 529 overloaded_error:
// message (request req_1)", with the markup of md around "Error ...".
func ErrorLine(info *session.ErrorInfo, requestID string, md bool) string {
	head := "Error"
	if info.Status != 0 {
		head += fmt.Sprintf(" %d", info.Status)
	}
	if info.Type != "" {
		head += " " + info.Type
	}
	if md {
		head = "**" + head + "**"
	} else {
		head = strings.ToLower(head[:1]) + head[1:]
	}
	s := head + ": " + info.Message
	if requestID != "" {
		s += " (request " + requestID + ")"
	}
	return s
}

// writeMarkdown writes sess as a Markdown transcript.
func writeMarkdown(sess *session.Session, b *bufio.Writer, files Files) {
	title := oneLine(sess.Title)
	if title == "" {
		title = session.Untitled
	}
	fmt.Fprintf(b, "# %s\n\n%s\n", title, capitalize(header(sess)))
	for i := range sess.Entries {
		writeMarkdownEntry(b, sess, &sess.Entries[i], files)
	}
}

// embeds are the files of a JSON export: the hashes of the attachments
// and generated images of its entries, sorted, and where to read each.
type embeds struct {
	hashes      []string
	attachments map[string][]session.Attachment
	images      map[string]session.Image
	// imageHashes are the hashes of the images of the entries, by the
	// entry's index; "" for one that could not be read.
	imageHashes map[int][]string
	sessionID   string
	files       Files
}

// read returns the bytes of the file hash names, or false when it cannot
// be read.
func (e *embeds) read(hash string) ([]byte, bool) {
	for _, a := range e.attachments[hash] {
		if data, err := e.files.ReadAttachment(e.sessionID, a); err == nil {
			return data, true
		}
	}
	if img, ok := e.images[hash]; ok {
		if data, err := e.files.ReadImage(img); err == nil && hashOf(data) == hash {
			return data, true
		}
	}
	return nil, false
}

// hashOf is the SHA-256 of data in hex, as a JSON export names files.
func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// embedded returns the files of the attachments and generated images of
// entries, for a JSON export, with the hashes of the images (see
// embeds.entry). Each image is read to hash it, one at a time; files that
// cannot be read are left out: an import reports them missing.
func embedded(sessionID string, entries []session.Entry, files Files) *embeds {
	out := &embeds{attachments: map[string][]session.Attachment{}, images: map[string]session.Image{}, imageHashes: map[int][]string{}, sessionID: sessionID, files: files}
	if files == nil {
		return out
	}
	for i, e := range entries {
		for _, a := range e.Files() {
			out.attachments[a.SHA256] = append(out.attachments[a.SHA256], a)
		}
		for j, img := range e.Images {
			data, err := files.ReadImage(img)
			if err != nil {
				continue
			}
			h := hashOf(data)
			out.images[h] = img
			if out.imageHashes[i] == nil {
				out.imageHashes[i] = make([]string, len(e.Images))
			}
			out.imageHashes[i][j] = h
		}
	}
	for h := range out.attachments {
		out.hashes = append(out.hashes, h)
	}
	for h := range out.images {
		if _, ok := out.attachments[h]; !ok {
			out.hashes = append(out.hashes, h)
		}
	}
	slices.Sort(out.hashes)
	return out
}

// entry returns the i-th of entries as the export writes it: each image
// that could be read with its hash, which names its bytes in "files".
// Only an entry that changes is copied.
func (e *embeds) entry(entries []session.Entry, i int) *session.Entry {
	hashes, ok := e.imageHashes[i]
	if !ok {
		return &entries[i]
	}
	c := entries[i]
	c.Images = slices.Clone(c.Images)
	for j, h := range hashes {
		if h != "" {
			c.Images[j].SHA256 = h
		}
	}
	return &c
}

// writeMarkdownAttachments lists a prompt's attachments, each a link to
// its stored file when there is one.
func writeMarkdownAttachments(b *bufio.Writer, sess *session.Session, as []session.Attachment, files Files) {
	if len(as) == 0 {
		return
	}
	b.WriteString("\n")
	for _, a := range as {
		name, what := oneLine(a.Name), attachmentKind(a)
		path := ""
		if files != nil {
			path = files.AttachmentPath(sess.ID, a)
		}
		if path == "" {
			fmt.Fprintf(b, "- Attached %s (%s)\n", name, what)
			continue
		}
		link := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
		if a.Kind == session.AttachImage {
			fmt.Fprintf(b, "- Attached ![%s](%s) (%s)\n", mdLabel(name), link, what)
		} else {
			fmt.Fprintf(b, "- Attached [%s](%s) (%s)\n", mdLabel(name), link, what)
		}
	}
}

// attachmentKind names what an attachment is: its kind, and an image's
// pixels ("image, 640×480").
func attachmentKind(a session.Attachment) string {
	if a.Width > 0 {
		return fmt.Sprintf("%s, %d×%d", a.Kind, a.Width, a.Height)
	}
	return a.Kind
}

// mdLabel escapes the brackets of a link's label.
func mdLabel(s string) string {
	return strings.NewReplacer("[", "\\[", "]", "\\]").Replace(s)
}

// writeMarkdownEntry writes one entry of a Markdown transcript.
func writeMarkdownEntry(b *bufio.Writer, sess *session.Session, e *session.Entry, files Files) {
	b.WriteString("\n")
	switch e.Kind {
	case session.KindUser:
		fmt.Fprintf(b, "## You\n\n%s\n", trimNL(e.Text))
		writeMarkdownAttachments(b, sess, e.Attachments, files)
	case session.KindAssistant:
		writeMarkdownReply(b, sess, e)
	case session.KindError:
		info := e.ErrorOf()
		writeMarkdownError(b, info, e.RequestID)
	case session.KindNotice:
		b.WriteString(quote("**Notice**: " + trimNL(e.Text)))
	case session.KindImage:
		writeMarkdownImage(b, sess, e)
	case session.KindTool:
		b.WriteString("## Tool results\n")
		for _, r := range e.ToolResults {
			fmt.Fprintf(b, "\n**%s** (%s)\n\n```\n%s\n```\n", oneLine(r.Name), ToolHow(r), trimNL(r.Output))
			writeMarkdownAttachments(b, sess, r.Images, files)
		}
	default:
		if e.Text != "" {
			fmt.Fprintf(b, "## %s\n\n%s\n", capitalize(e.Kind), trimNL(e.Text))
		}
	}
}

// writeMarkdownBranches writes the branches of sess other than the active
// one, each from where it leaves the active branch to its end.
func writeMarkdownBranches(sess *session.Session, b *bufio.Writer, files Files) {
	for n, path := range sess.OtherBranches() {
		fmt.Fprintf(b, "\n---\n\n# Branch %d · after message %d of the active branch\n", n+2, path.After)
		for i := range path.Entries {
			writeMarkdownEntry(b, sess, &path.Entries[i], files)
		}
	}
}

func writeMarkdownReply(b *bufio.Writer, sess *session.Session, e *session.Entry) {
	b.WriteString("## Assistant")
	if m := sess.ModelOf(e); m != "" {
		b.WriteString(" (" + m + ")")
	}
	b.WriteString("\n")
	writeReplyBody(b, e, markdownReply)
}

// markdownReply is how the Markdown export writes a reply's parts.
var markdownReply = replyForm{
	text:       "\n%s\n",
	thinking:   "\n<details>\n<summary>Thinking</summary>\n\n%s\n\n</details>\n",
	toolCall:   "\n**Tool call** `%s`%s:\n\n%s",
	cutShort:   " (input cut short, never run)",
	input:      fencedJSON,
	toolResult: "\n**Tool result** `%s`:\n\n%s",
	block:      "\n**%s** block:\n\n%s",
	json:       fencedJSON,
	stop:       "\n*Stop reason: %s*\n",
	status:     "\n*(%s)*\n",
}

// ToolInput returns the input of the tool call c, block i of e, as text, and
// whether it was cut short.
func ToolInput(e *session.Entry, i int, c api.ContentBlock) (string, bool) {
	if raw, ok := e.Truncated[i]; ok {
		return raw, true
	}
	if c.Truncated {
		return c.PartialInput, true
	}
	return prettyJSON(c.Input), false
}

func writeMarkdownError(b *bufio.Writer, info *session.ErrorInfo, requestID string) {
	s := ErrorLine(info, requestID, true)
	if info.Hint != "" {
		s += "\n\n" + info.Hint
	}
	b.WriteString(quote(s))
}

func writeMarkdownImage(b *bufio.Writer, sess *session.Session, e *session.Entry) {
	b.WriteString("## Image")
	if m := sess.ModelOf(e); m != "" {
		b.WriteString(" (" + m + ")")
	}
	b.WriteString("\n")
	if e.ImagePrompt != "" {
		fmt.Fprintf(b, "\n%s\n", trimNL(e.ImagePrompt))
	}
	if p := e.ImageParams; p != nil {
		var opts []string
		if p.Size != "" {
			opts = append(opts, "size "+p.Size)
		}
		if p.NegativePrompt != "" {
			opts = append(opts, "negative prompt: "+oneLine(p.NegativePrompt))
		}
		if len(opts) > 0 {
			fmt.Fprintf(b, "\n*%s*\n", strings.Join(opts, " · "))
		}
	}
	if len(e.Images) > 0 {
		b.WriteString("\n")
	}
	for _, img := range e.Images {
		name := fmt.Sprintf("Image %d", img.Index+1)
		if img.Error != "" {
			fmt.Fprintf(b, "- %s failed: %s\n", name, oneLine(img.Error))
			continue
		}
		target := img.Path
		if target == "" {
			target = img.URL
		}
		line := "- " + name
		if target != "" {
			line = fmt.Sprintf("- [%s](<%s>)", name, target)
		}
		if img.Width > 0 && img.Height > 0 {
			line += fmt.Sprintf(" %d×%d", img.Width, img.Height)
		}
		if img.Path != "" {
			line += fmt.Sprintf(", saved to `%s`", img.Path)
			if img.URL != "" {
				line += fmt.Sprintf(" ([source](<%s>))", img.URL)
			}
		}
		b.WriteString(line + "\n")
		if img.RevisedPrompt != "" {
			fmt.Fprintf(b, "  Revised prompt: %s\n", oneLine(img.RevisedPrompt))
		}
	}
	if e.Error != nil {
		b.WriteString("\n")
		writeMarkdownError(b, e.Error, e.RequestID)
	}
	if note := statusNote(e.Status); note != "" {
		fmt.Fprintf(b, "\n*(%s)*\n", note)
	}
}

// quote returns s as a Markdown block quote, ending in a newline.
func quote(s string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(trimNL(s), "\n") {
		if l == "" {
			b.WriteString(">\n")
		} else {
			b.WriteString("> " + l + "\n")
		}
	}
	return b.String()
}

// fenced returns s as a fenced code block of the language lang, with a fence
// longer than any run of backticks in s, ending in a newline.
// fencedJSON is fenced for JSON.
func fencedJSON(s string) string { return fenced("json", s) }

func fenced(lang, s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + trimNL(s) + "\n" + fence + "\n"
}

// prettyJSON returns raw indented, or as it is when it is not valid JSON.
func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}

// trimNL removes the newlines at the end of s.
func trimNL(s string) string { return strings.TrimRight(s, "\r\n") }

// capitalize returns s with its first letter in upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ToolHow says how a tool call was answered: allowed or not, and its exit code.
func ToolHow(r session.ToolResult) string {
	how := r.Approval
	if how == "" {
		how = "answered"
	}
	if how == "yes" || how == "always" {
		how += fmt.Sprintf(", exit %d", r.ExitCode)
	}
	if r.IsError {
		how += ", error"
	}
	return how
}

// oneLine returns s on one line: runs of whitespace become single spaces.
// Escape sequences stay, whole, for the front end's sanitizer to remove.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
