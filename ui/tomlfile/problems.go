package tomlfile

import (
	"cmp"
	"errors"
	"fmt"
	"muse/ui/textfmt"
	"slices"
)

// MaxProblems is how many problems one file reports; the others are
// counted.
const MaxProblems = 10

// Problems collects the problems of one file: those at the first places,
// at most MaxProblems of them, and a count of the others. Once it has
// many, problems past the last place kept are only counted, so that a
// file full of mistakes costs no more to refuse than a good one.
type Problems struct {
	Path   string // the file, for the count's line
	list   []*Error
	more   int
	cutoff int // the last line kept once the list has been cut; 0 before
}

// Len is how many problems were found, counted ones included.
func (p *Problems) Len() int { return len(p.list) + p.more }

// Wants reports whether a problem at line would be kept, counting it when
// not: a caller can then skip wording it.
func (p *Problems) Wants(line int) bool {
	if p.cutoff > 0 && line > p.cutoff {
		p.more++
		return false
	}
	return true
}

// Add records the problem e.
func (p *Problems) Add(e *Error) {
	if !p.Wants(e.Line) {
		return
	}
	p.list = append(p.list, e)
	if len(p.list) >= 4*MaxProblems {
		p.sort()
		p.more += len(p.list) - MaxProblems
		p.list = p.list[:MaxProblems:MaxProblems]
		p.cutoff = max(p.list[MaxProblems-1].Line, 1)
	}
}

// At records the problem msg at place at.
func (p *Problems) At(at Place, format string, args ...any) {
	if p.Wants(at.Line) {
		p.Add(&Error{Path: p.Path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, args...)})
	}
}

// sort sorts the problems by line and column, keeping the order of those
// at the same place.
func (p *Problems) sort() {
	slices.SortStableFunc(p.list, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// Err returns the problems in the order of the file, one a line, or nil
// when there are none: a single one is its [*Error]; several are joined
// with errors.Join, the first MaxProblems and then "… and N more
// problems".
func (p *Problems) Err() error {
	if p == nil || len(p.list) == 0 {
		return nil
	}
	p.sort()
	if len(p.list) == 1 && p.more == 0 {
		return p.list[0]
	}
	more := p.more
	list := p.list
	if len(list) > MaxProblems {
		more += len(list) - MaxProblems
		list = list[:MaxProblems]
	}
	errs := make([]error, 0, len(list)+1)
	for _, e := range list {
		errs = append(errs, e)
	}
	if more > 0 {
		errs = append(errs, fmt.Errorf("%s: … and %s", p.Path, textfmt.Plural(more, "more problem")))
	}
	return errors.Join(errs...)
}
