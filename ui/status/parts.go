package status

import (
	"slices"
	"strings"

	"muse/ui/textfmt"
)

// part is one thing the left of the status line can say, in forms from
// the longest to the shortest. Each form is styled text and, but in the
// line's first part, begins with its separator (" · ").
type part struct {
	forms []form
	// must says the part is said at every width, at its shortest form at
	// the least: what is happening and how to stop it.
	must bool
}

// form is one way to say a part, with the priority of its room: the
// forms of every part and the settings get their room highest first, a
// longer form replacing a shorter one where the line still fits.
type form struct {
	text string
	prio int
	// cut says the text may be cut, with "…", down to cutMin columns
	// (a tool's name in "running tool …"), and grows back into what room
	// is left.
	cut bool
}

// longPrio is the priority of the settings' long forms ("think high",
// "temp 0.5"), over their short ones ("θ high", "t0.5").
const longPrio = 2

// cutMin is the fewest columns a part that may be cut keeps while the
// line has room for what must be said: "⠋ running tool " and 17 columns
// of the tool's name, most names whole. A narrower line cuts it further,
// to cutLeast.
const cutMin, cutLeast = 32, 4

// setting is a setting on the right of the line, and the priority of its
// room. alone says it reads on its own (the approval mode, the model, the
// image model); another is shown only after one of those.
type setting struct {
	Setting
	prio  int
	alone bool
}

// placed is the line as layout builds it: the form each part shows (-1
// for none), the settings shown and whether in their long forms.
type placed struct {
	parts []part
	sets  []setting
	form  []int
	on    []bool
	long  bool
	// cutTo is the columns a part that may be cut is counted at.
	cutTo int
}

// layout places parts on the left and sets on the right of a line of
// width: every part that must be said at its shortest, then, highest
// priority first, each form and setting that still fits; what room is
// left goes to a part that was cut. Nothing is cut in the middle but such
// a part, and, when what must be said is wider than the line, the left
// as a whole; the settings stand gap columns from the left, whole or left
// out.
func layout(width int, parts []part, sets []setting, settingStyle func(...string) string) string {
	p := placed{parts: parts, sets: sets, form: make([]int, len(parts)), on: make([]bool, len(sets)), cutTo: cutMin}
	type step struct{ part, form, set, prio int }
	var steps []step
	for i, pt := range parts {
		p.form[i] = -1
		last := len(pt.forms) - 1
		if pt.must {
			p.form[i] = last
		}
		for f, fm := range pt.forms {
			if !pt.must || f < last {
				steps = append(steps, step{part: i, form: f, set: -1, prio: fm.prio})
			}
		}
	}
	if over := p.width() - width; over > 0 {
		p.cutTo = max(cutMin-over, cutLeast)
	}
	for i, s := range sets {
		steps = append(steps, step{part: -1, set: i, prio: s.prio})
	}
	steps = append(steps, step{part: -1, set: -1, prio: longPrio})
	slices.SortStableFunc(steps, func(a, b step) int { return b.prio - a.prio })
	for _, st := range steps {
		switch {
		case st.part < 0 && st.set < 0:
			if p.long = true; p.width() > width {
				p.long = false
			}
		case st.set >= 0:
			if !sets[st.set].alone && !p.named(st.set) {
				continue
			}
			p.on[st.set] = true
			if p.width() > width {
				p.on[st.set] = false
			}
		case p.form[st.part] == -1 || st.form < p.form[st.part]:
			old := p.form[st.part]
			if p.form[st.part] = st.form; p.width() > width {
				p.form[st.part] = old
			}
		}
	}
	left, right := p.text(width)
	if right != "" {
		right = settingStyle(right)
	}
	return fit(left, right, width)
}

// named says a setting before the i-th that reads on its own (the
// approval mode, the model) is shown: "max8k" alone names nothing.
func (p *placed) named(i int) bool {
	for j := range i {
		if p.on[j] && p.sets[j].alone {
			return true
		}
	}
	return false
}

// width is how wide the line is as placed, a part that may be cut counted
// at its fewest columns.
func (p *placed) width() int {
	w := 0
	for i, f := range p.form {
		if f >= 0 {
			w += p.formWidth(p.parts[i].forms[f])
		}
	}
	if r := textfmt.Width(p.right()); r > 0 {
		w += gap + r
	}
	return w
}

func (p *placed) formWidth(f form) int {
	w := textfmt.Width(f.text)
	if f.cut {
		w = min(w, p.cutTo)
	}
	return w
}

// right is the settings shown, plain: in long forms joined with " · ", or
// short ones joined with blanks.
func (p *placed) right() string {
	var out []string
	for i, s := range p.sets {
		if p.on[i] {
			out = append(out, s.Short)
			if p.long {
				out[len(out)-1] = s.Long
			}
		}
	}
	if p.long {
		return strings.Join(out, " · ")
	}
	return strings.Join(out, " ")
}

// text is the line's left and right parts, a part that may be cut given
// the room the rest leave.
func (p *placed) text(width int) (left, right string) {
	slack := max(width-p.width(), 0)
	var b strings.Builder
	for i, f := range p.form {
		if f < 0 {
			continue
		}
		fm := p.parts[i].forms[f]
		t := fm.text
		if fm.cut {
			t = textfmt.Truncate(t, p.formWidth(fm)+slack, "…")
			slack -= textfmt.Width(t) - p.formWidth(fm)
		}
		b.WriteString(t)
	}
	return b.String(), p.right()
}
