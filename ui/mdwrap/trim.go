package mdwrap

import "strings"

// TrimLines drops what glamour pads its output with: the blank lines
// around a document, and on each line the spaces up to the wrap width,
// styled or not (see TrimPadding).
func TrimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = TrimPadding(l)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// TrimPadding cuts a line of glamour's output after its last visible
// character that is not a space, dropping the spaces and SGR sequences
// after it; a line that was styled ends with a reset.
func TrimPadding(l string) string {
	if !strings.Contains(l, "\x1b[") {
		return strings.TrimRight(l, " ")
	}
	keep, styled := 0, false
	for i := 0; i < len(l); {
		if l[i] == 0x1b && i+1 < len(l) && l[i+1] == '[' {
			j := i + 2
			for j < len(l) && (l[j] < 0x40 || l[j] > 0x7e) {
				j++
			}
			i, styled = j+1, true
			continue
		}
		if l[i] == ' ' {
			i++
			continue
		}
		i++
		for i < len(l) && l[i]&0xc0 == 0x80 { // the rest of a UTF-8 character
			i++
		}
		keep = i
	}
	if keep == 0 {
		return ""
	}
	if styled {
		return l[:keep] + "\x1b[0m"
	}
	return l[:keep]
}
