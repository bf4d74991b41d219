package attach

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A PDF of more than 100 pages, which the service refuses, is refused when
// it is attached, saying how many pages it has and what to do; one of 100
// is taken.
func TestPDFOverTheServicesPagesRefused(t *testing.T) {
	pdf := func(n int) []byte {
		return []byte(fmt.Sprintf("%%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count %d >>\nendobj\n%%%%EOF\n", n))
	}
	if _, err := FromBytes("ok.pdf", pdf(100)); err != nil {
		t.Errorf("100 pages: %v", err)
	}
	_, err := FromBytes("big.pdf", pdf(101))
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "a PDF of 101 pages is over the service's 100") || !strings.Contains(err.Error(), "split it") {
		t.Errorf("101 pages: %v", err)
	}
}
