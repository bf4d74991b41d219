package demo

import (
	"fmt"
	"strconv"
	"strings"
)

// kwWords asks for a reply of about N words of mixed markdown (headings,
// paragraphs, lists, tables, code): demo:words:N, for measuring long
// replies. It is left out of Keywords, which a screen offers to people.
const kwWords = "demo:words:"

// maxWords bounds N (of words, or of a blob's bytes: 1 MB).
const maxWords = 1_000_000

// wordsWanted returns the N of demo:words:N in prompt, or 0.
func wordsWanted(prompt string) int { return numberAfter(prompt, kwWords) }

// blobWanted returns the N of demo:blob:N in prompt, or 0.
func blobWanted(prompt string) int { return numberAfter(prompt, kwBlob) }

// numberAfter returns the number right after kw in prompt, at most
// maxWords, or 0.
func numberAfter(prompt, kw string) int {
	_, rest, ok := strings.Cut(prompt, kw)
	if !ok {
		return 0
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil || n < 1 {
		return 0
	}
	return min(n, maxWords)
}

// wordsReply is a reply of about n words, made of parts like demo:long's.
func wordsReply(prompt string, n int) string {
	r := newRNG(hashString(prompt) ^ 0x776f726473)
	var b strings.Builder
	fmt.Fprintf(&b, "# %d words\n\n", n)
	for part, words := 1, 2; words < n; part++ {
		start := b.Len()
		fmt.Fprintf(&b, "## Part %d: the %s %s\n\n", part, r.pick(adjectives), r.pick(nouns))
		for i := 0; i < 4; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			tpl := sentences[r.intn(len(sentences))]
			args := []any{r.pick(adjectives), r.pick(nouns)}
			if strings.Count(tpl, "%s") == 3 {
				args = append(args, r.pick(verbs))
			}
			fmt.Fprintf(&b, tpl, args...)
		}
		b.WriteString("\n\n")
		for _, item := range r.pickN(bullets, 3) {
			fmt.Fprintf(&b, "- %s\n", item)
		}
		b.WriteString("\n| Option | Strength | Trade-off |\n|---|---|---|\n")
		for i := 0; i < 2; i++ {
			row := tableRows[r.intn(len(tableRows))]
			fmt.Fprintf(&b, "| %s | %s | %s |\n", row[0], row[1], row[2])
		}
		id := r.pick(idents)
		fmt.Fprintf(&b, "\n```go\nfunc part%d() int {\n\t%s := %d\n\treturn %s\n}\n```\n\n", part, id, r.between(2, 99), id)
		words += countWords(b.String()[start:])
	}
	return strings.TrimRight(b.String(), "\n")
}

// kwBlob asks for a reply holding one unbroken word of N bytes, as a base64
// blob in a paragraph: demo:blob:N, for measuring long words. It is left
// out of Keywords too.
const kwBlob = "demo:blob:"

// blobReply is a short paragraph and then one word of n bytes.
func blobReply(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var b strings.Builder
	b.Grow(n + 64)
	b.WriteString("Here is the blob you asked for:\n\n")
	for i := range n {
		b.WriteByte(alphabet[(i*7+i/64)%len(alphabet)])
	}
	return b.String()
}
